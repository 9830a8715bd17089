"""Edits in memory: synonyms, patterns, vague words and thresholds read into plain tables and written
back through the round-trip renderer; validation of a set of edits against the whole domain."""
from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from routing.core.errors import LexiconError, Problem
from routing.core.lexicon import load_domain
from routing.core.text import words
from routing.core.yamlio import parse_yaml
from routing.editing.files import (
    PATTERN_KEYS,
    THRESHOLD_KEYS,
    EditRejected,
    FileEdit,
    FileSnapshot,
    _root,
)
from routing.editing.roundtrip import (
    _delete_map_key,
    _delete_seq_item,
    _flow_map,
    _flow_seq,
    _plain,
    _render,
    _sync_list,
)

# ---------------------------------------------------------------- reading into plain tables


def read_synonyms(snapshot: FileSnapshot) -> dict[str, list[str]]:
    data = parse_yaml(snapshot.text, snapshot.label) if snapshot.text.strip() else {}
    if not isinstance(data, dict):
        return {}
    return {str(k): [str(v) for v in (vs if isinstance(vs, list) else [vs] if vs is not None else [])] for k, vs in data.items()}


def read_patterns(snapshot: FileSnapshot) -> list[dict]:
    data = parse_yaml(snapshot.text, snapshot.label) if snapshot.text.strip() else {}
    raw = data.get("patterns") if isinstance(data, dict) else None
    return [_plain(p) for p in raw] if isinstance(raw, list) else []


def read_settings(snapshot: FileSnapshot) -> dict:
    data = parse_yaml(snapshot.text, snapshot.label) if snapshot.text.strip() else {}
    return _plain(data) if isinstance(data, dict) else {}


# ---------------------------------------------------------------- edits (in memory)


def _clean_text(value: Any, what: str) -> str:
    text = " ".join(str(value if value is not None else "").split())
    if not text:
        raise EditRejected(f"{what} is empty")
    return text


def edit_synonyms(snapshot: FileSnapshot, mapping: dict[str, list[str]], action: str = "edit synonyms") -> FileEdit:
    """The synonyms file holding exactly `mapping` (canonical -> variants, in order); canonical
    terms not in `mapping` are removed, new ones are added at the end in flow style."""
    _require(snapshot, "synonyms.yaml")
    clean = {
        _clean_text(canon, "a canonical term"): [_clean_text(v, f"a variant of {canon!r}") for v in variants]
        for canon, variants in mapping.items()
    }

    def mutate(doc: Any) -> Any:
        if not isinstance(doc, dict):
            doc = CommentedMap()
        for canon in [k for k in doc if str(k) not in clean]:
            _delete_map_key(doc, canon)
        for canon, variants in clean.items():
            if canon in doc:
                doc[canon] = _sync_list(doc[canon], variants)
            else:
                doc[canon] = _flow_seq(list(variants))
        return doc

    return _render(snapshot, mutate, action)


def add_synonym_edit(snapshot: FileSnapshot, canonical: str, variant: str) -> FileEdit:
    """Append one variant to a canonical term's list (on the same line, flow style kept)."""
    table = read_synonyms(snapshot)
    canonical = _clean_text(canonical, "the canonical term")
    variant = _clean_text(variant, "the variant")
    problem = synonym_problem(table, canonical, variant)
    if problem:
        raise EditRejected(problem)
    table[canonical] = table[canonical] + [variant]
    return edit_synonyms(snapshot, table, action=f"add synonym {variant!r} to {canonical!r}")


def remove_synonym_edit(snapshot: FileSnapshot, canonical: str, variant: str) -> FileEdit:
    table = read_synonyms(snapshot)
    canonical = _clean_text(canonical, "the canonical term")
    variant = _clean_text(variant, "the variant")
    if canonical not in table:
        known = ", ".join(table) or "none"
        raise EditRejected(f"unknown canonical term {canonical!r}; known terms: {known}")
    if variant not in table[canonical]:
        raise EditRejected(f"{variant!r} is not a variant of {canonical!r} (its variants: {', '.join(table[canonical]) or 'none'})")
    table[canonical] = [v for v in table[canonical] if v != variant]
    return edit_synonyms(snapshot, table, action=f"remove synonym {variant!r} from {canonical!r}")


def synonym_problem(table: dict[str, list[str]], canonical: str, variant: str) -> str | None:
    """Why `variant` cannot be added under `canonical`, in plain words; None when it can."""
    if not " ".join(str(canonical or "").split()):
        return "choose a canonical term"
    if not words(variant or ""):
        return "the variant is empty (it needs at least one letter or digit)"
    if canonical not in table:
        return f"unknown canonical term {canonical!r}; known terms: {', '.join(table) or 'none'}"
    if all(not any(ch.isalpha() for ch in w) for w in words(variant)):
        return (f"{variant!r} has no letter: routing reads a word of digits as a number (an amount, a record id), "
                f"never as a synonym; add a variant with letters in it")
    owner = _owner_of(table, variant)
    if owner == canonical:
        return f"{variant!r} is already a variant of {canonical!r}"
    if owner is not None:
        return f"{variant!r} is already listed under {owner!r}; a variant may belong to one canonical term only"
    return None


def _owner_of(table: dict[str, list[str]], variant: str) -> str | None:
    key = words(variant)
    for canon, variants in table.items():
        if any(words(form) == key for form in [canon, *variants]):
            return canon
    return None


def edit_patterns(snapshot: FileSnapshot, patterns: list[dict], action: str = "edit patterns") -> FileEdit:
    """The patterns file holding exactly `patterns` (each {tool, phrase|terms|regex, params?, weight?});
    unchanged patterns keep their text, changed ones are updated in place, new ones appended."""
    _require(snapshot, "patterns.yaml")
    new = [_normalise_pattern(p, n) for n, p in enumerate(patterns, 1)]

    def mutate(doc: Any) -> Any:
        if not isinstance(doc, dict):
            doc = CommentedMap()
        seq = doc.get("patterns")
        if not isinstance(seq, list):
            seq = doc["patterns"] = CommentedSeq()
        old_keys = [_pattern_key(_plain(p)) for p in seq]
        new_keys = [_pattern_key(p) for p in new]
        ops = difflib.SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in reversed(ops):  # from the end, so earlier indices stay valid
            if tag == "equal":
                continue
            if tag == "replace" and i2 - i1 == j2 - j1:
                for n in range(i2 - i1):
                    seq[i1 + n] = _update_pattern(seq[i1 + n], new[j1 + n])
                continue
            for idx in reversed(range(i1, i2)):
                _delete_seq_item(seq, idx)
            for n, p in enumerate(new[j1:j2]):
                seq.insert(i1 + n, _flow_map(p))
        return doc

    return _render(snapshot, mutate, action)


def _normalise_pattern(p: dict, n: int) -> dict:
    """A table row -> the mapping written to YAML, keys in the house order; blanks dropped."""
    out: dict[str, Any] = {}
    for key in ("phrase", "terms", "regex"):
        value = p.get(key)
        if value is None or (isinstance(value, (str, list, tuple)) and not value) or (isinstance(value, float) and value != value):
            continue
        if key == "terms":
            items = value if isinstance(value, (list, tuple)) else str(value).split(",")
            value = [" ".join(str(t).split()) for t in items if str(t).strip()]
            if not value:
                continue
        else:
            value = str(value).strip() if key == "regex" else " ".join(str(value).split())
            if not value:
                continue
        out[key] = value
    tool = p.get("tool")
    if not isinstance(tool, str) or not tool.strip():
        raise EditRejected(f"pattern {n} has no tool")
    out["tool"] = tool.strip()
    params = p.get("params")
    if isinstance(params, str):
        params = _parse_params_text(params, n)
    if params:
        out["params"] = {str(k).strip(): v for k, v in dict(params).items()}
    weight = p.get("weight")
    if weight is not None and not (isinstance(weight, float) and weight != weight) and str(weight).strip() != "":
        try:
            w = float(weight)
        except (TypeError, ValueError):
            raise EditRejected(f"pattern {n}: weight must be a number between 0 and 1, not {weight!r}") from None
        if w != 1.0:
            out["weight"] = round(w, 4)
    order = p.get("order")
    if isinstance(order, str):
        order = [t for t in order.split(",")]
    order = [" ".join(str(t).split()) for t in (order or []) if str(t).strip()]
    if order:
        out["order"] = order
    return out


def _parse_params_text(text: str, n: int) -> dict:
    """'status=unpaid, type=customer' (how a table cell shows parameter hints) -> a mapping."""
    out: dict[str, str] = {}
    for part in [x for x in text.split(",") if x.strip()]:
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise EditRejected(f"pattern {n}: parameter hints are written name=value, separated by commas (got {part.strip()!r})")
        out[name.strip()] = value.strip()
    return out


def format_params(params: dict | None) -> str:
    return ", ".join(f"{k}={v}" for k, v in (params or {}).items())


def _pattern_key(p: dict) -> str:
    return json.dumps({k: p.get(k) for k in PATTERN_KEYS if p.get(k) is not None}, sort_keys=True, ensure_ascii=False, default=str)


def _update_pattern(old: Any, new: dict) -> Any:
    if not isinstance(old, CommentedMap):
        return _flow_map(new)
    for key in [k for k in old if k not in new]:
        del old[key]
    for key, value in new.items():
        if _plain(old.get(key)) == value:
            continue
        if isinstance(value, list):
            old[key] = _sync_list(old[key], value) if isinstance(old.get(key), list) else _flow_seq(value)
        elif isinstance(value, dict):
            old[key] = _flow_map(value)
        else:
            old[key] = value
    return old


def edit_settings(
    snapshot: FileSnapshot,
    *,
    thresholds: dict[str, float] | None = None,
    vague_words: list[str] | None = None,
    question: str | None = None,
    action: str = "edit settings",
) -> FileEdit:
    """Change thresholds, vague words or the clarifying question; everything else stays."""
    _require(snapshot, "settings.yaml")
    if thresholds:
        unknown = [k for k in thresholds if k not in THRESHOLD_KEYS]
        if unknown:
            raise EditRejected(f"unknown threshold {unknown[0]!r} (known: {', '.join(THRESHOLD_KEYS)})")
        for k, v in thresholds.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise EditRejected(f"threshold {k} must be a number between 0 and 1, not {v!r}")
    words_clean = [_clean_text(w, "a vague word") for w in vague_words] if vague_words is not None else None
    question_clean = _clean_text(question, "the clarifying question") if question is not None else None

    def mutate(doc: Any) -> Any:
        if not isinstance(doc, dict):
            doc = CommentedMap()
        if thresholds:
            th = doc.get("thresholds")
            if not isinstance(th, dict):
                th = doc["thresholds"] = CommentedMap()
            for k, v in thresholds.items():
                value = round(float(v), 4)
                if k not in th or _plain(th[k]) != value:
                    th[k] = value
        if words_clean is not None or question_clean is not None:
            vague = doc.get("vague")
            if not isinstance(vague, dict):
                vague = doc["vague"] = CommentedMap()
            if words_clean is not None:
                vague["words"] = _sync_list(vague.get("words"), words_clean)
            if question_clean is not None and _plain(vague.get("question")) != question_clean:
                vague["question"] = question_clean
        return doc

    return _render(snapshot, mutate, action)


def _require(snapshot: FileSnapshot, file: str) -> None:
    if snapshot.file != file:
        raise EditRejected(f"expected a snapshot of {file}, got {snapshot.file}")


# ---------------------------------------------------------------- validation


def validate_edits(domain: str, edits: list[FileEdit], root: Path | str | None = None) -> list[Problem]:
    """Every problem the router's own validator finds with the edits applied in memory."""
    root = _root(root)
    overrides: dict[str, Any] = {}
    problems: list[Problem] = []
    for e in edits:
        try:
            overrides[e.file] = e.parsed()
        except LexiconError as exc:
            problems.extend(exc.problems)
    if problems:
        return problems
    try:
        load_domain(domain, root, overrides=overrides)
    except LexiconError as exc:
        return list(exc.problems)
    return []
