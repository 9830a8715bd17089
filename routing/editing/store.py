"""Writing lexicon edits back to YAML without losing what a person wrote.

The editor page, the threshold tuner and `python -m routing lexicon ...` all write through here.

    snap = read_file("accounting", "synonyms.yaml")          # the text as loaded, with its digest
    edit = edit_synonyms(snap, {"invoice": [..., "zorblat"]})  # the new text, in memory only
    edit.diff()                                                # the unified diff that will be written
    result = save_edits("accounting", [edit])                 # validated, conflict-checked, atomic

How nothing is lost: ruamel.yaml applies the edit to a round-trip document (comments, key order,
quoting and flow style survive), then a three-way merge takes only the lines the edit changed
and applies them to the original text, so lines ruamel would re-format (a flow list wrapped over
several lines) stay byte for byte as they were unless the edit touches them. The merged text is
re-parsed and must mean exactly what the edited document means, or the plain dump is used.

Safety: every save validates the whole domain with the edit in memory (routing.lexicon, the same
validator the router uses); refuses when a file changed on disk since it was read (content digest);
writes a temporary file beside the target, flushes, fsyncs and os.replace()s it; keeps the previous
version in lexicons/<domain>/.history/ so the last save can be undone.
"""
from __future__ import annotations

import difflib
import fcntl
import hashlib
import io
import json
import os
import random
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Callable, Iterator

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.util import load_yaml_guess_indent

from routing.core.errors import LexiconError, Problem
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, domain_files, fingerprint_files, list_domain_names, load_domain
from routing.core.text import words
from routing.core.yamlio import parse_yaml

EDITABLE_FILES = ("synonyms.yaml", "patterns.yaml", "settings.yaml")
THRESHOLD_KEYS = ("high", "medium", "low", "margin")
PATTERN_KEYS = ("phrase", "terms", "regex", "tool", "params", "weight")
HISTORY_DIR = ".history"
HISTORY_KEEP = 50  # save records kept per domain; older ones are pruned

__all__ = [
    "EDITABLE_FILES",
    "EditRejected",
    "FileEdit",
    "FileSnapshot",
    "HistoryEntry",
    "SaveResult",
    "add_synonym",
    "atomic_write",
    "domain_fingerprint",
    "edit_patterns",
    "edit_settings",
    "edit_synonyms",
    "history",
    "merge_lines",
    "read_file",
    "read_patterns",
    "read_settings",
    "read_synonyms",
    "remove_synonym",
    "save_edits",
    "set_patterns",
    "set_synonyms",
    "set_thresholds",
    "set_vague",
    "synonym_problem",
    "undo_last_save",
    "validate_edits",
]


class EditRejected(ValueError):
    """A requested edit that cannot be made (unknown term, duplicate variant, empty text); the
    message says why in plain words. Nothing was written."""


# ---------------------------------------------------------------- snapshots and edits


def _root(root: Path | str | None) -> Path:
    return Path(root) if root is not None else DEFAULT_LEXICON_ROOT


def digest_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def domain_fingerprint(domain: str, root: Path | str | None = None) -> str:
    """The same fingerprint RouterRegistry.state(domain).fingerprint reports."""
    return fingerprint_files(domain_files(_root(root), domain))


@dataclass(frozen=True)
class FileSnapshot:
    """One lexicon file exactly as read (bytes decoded as UTF-8, line endings untouched)."""

    domain: str
    file: str
    path: Path
    text: str
    digest: str
    label: str  # how validation messages name the file, e.g. lexicons/accounting/synonyms.yaml

    @property
    def exists(self) -> bool:
        return self.digest != ""


def read_file(domain: str, file: str, root: Path | str | None = None) -> FileSnapshot:
    root = _root(root)
    if file not in EDITABLE_FILES:
        raise EditRejected(f"{file} cannot be edited here (editable: {', '.join(EDITABLE_FILES)})")
    if domain not in list_domain_names(root):
        known = ", ".join(list_domain_names(root)) or "none"
        raise EditRejected(f"unknown domain {domain!r} (known: {known})")
    path = root / domain / file
    label = _label(root, path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return FileSnapshot(domain, file, path, "", "", label)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LexiconError([Problem(label, None, f"not UTF-8 text ({exc.reason})")]) from None
    return FileSnapshot(domain, file, path, text, digest_text(text), label)


def _label(root: Path, path: Path) -> str:
    try:
        return str(path.relative_to(root.parent))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class FileEdit:
    """The new text of one file, computed in memory from a snapshot; nothing written yet."""

    snapshot: FileSnapshot
    new_text: str
    action: str = ""  # what the edit does, in words, for the history record

    @property
    def file(self) -> str:
        return self.snapshot.file

    @property
    def path(self) -> Path:
        return self.snapshot.path

    @property
    def changed(self) -> bool:
        return self.new_text != self.snapshot.text

    def diff(self, context: int = 2) -> str:
        return unified_diff(self.snapshot.text, self.new_text, self.snapshot.label, context=context)

    def parsed(self) -> Any:
        """The new text parsed the way the router reads it (line numbers point into the new text)."""
        return parse_yaml(self.new_text, self.snapshot.label)

    def changed_lines(self) -> int:
        """How many lines of the file differ (removed + added), the size of the diff."""
        old, new = self.snapshot.text.splitlines(), self.new_text.splitlines()
        ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
        return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")


def unified_diff(old: str, new: str, label: str, *, context: int = 2, new_label: str | None = None) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"a/{label}",
        tofile=f"b/{new_label or label}",
        n=context,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


# ---------------------------------------------------------------- round-trip rendering


def _yaml_for(text: str) -> YAML:
    """A round-trip YAML that writes with the file's own indentation and never re-wraps lines."""
    try:
        _, ind, bsi = load_yaml_guess_indent(text)
    except Exception:  # a file that does not parse: the caller's load reports it properly
        ind, bsi = None, None
    y = YAML()
    y.preserve_quotes = True
    y.width = 100_000  # never fold a long line: a person chose where lines break
    y.indent(mapping=2 if bsi is not None or not ind else ind, sequence=ind or 4, offset=bsi if bsi is not None else 2)
    return y


def _dump(y: YAML, doc: Any) -> str:
    if doc is None:
        return ""
    out = io.StringIO()
    y.dump(doc, out)
    return out.getvalue()


def _plain(value: Any) -> Any:
    """ruamel's round-trip types -> plain Python, the way routing.yamlio would read them."""
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    return value


def _render(snapshot: FileSnapshot, mutate: Callable[[Any], Any], action: str = "") -> FileEdit:
    """Apply `mutate(doc) -> doc` to the round-trip document and return the minimal new text."""
    crlf = "\r\n" in snapshot.text
    original = snapshot.text.replace("\r\n", "\n") if crlf else snapshot.text
    parse_yaml(original, snapshot.label)  # a file broken by hand: LexiconError with file and line
    y = _yaml_for(original)
    try:
        doc = y.load(original) if original.strip() else None
    except Exception as exc:  # ruamel stricter than the router's reader: still say which file
        raise LexiconError([Problem(snapshot.label, None, f"YAML: {exc}")]) from None
    base = _dump(y, doc)
    doc = mutate(doc)
    theirs = _dump(y, doc)
    if theirs == base:
        return FileEdit(snapshot, snapshot.text, action)
    merged = merge_lines(base, original, theirs)
    intended = _plain(doc)
    if _parses_to(merged, intended, snapshot.label) is not True:
        merged = theirs  # the merge could not be proven faithful: the plain round-trip dump is
    if _parses_to(merged, intended, snapshot.label) is not True:
        raise EditRejected(
            f"{snapshot.file}: the edit cannot be written so that it reads back the same "
            "(a value YAML would read as another type?); nothing was written"
        )
    if crlf:
        merged = merged.replace("\n", "\r\n")
    return FileEdit(snapshot, merged, action)


def _parses_to(text: str, intended: Any, label: str) -> bool | LexiconError:
    try:
        return _plain(parse_yaml(text, label)) == intended
    except LexiconError as exc:
        return exc


def merge_lines(base: str, ours: str, theirs: str) -> str:
    """Three-way line merge. `base` is ruamel's dump of the file as loaded, `ours` the file as a
    person wrote it, `theirs` ruamel's dump after the edit. Regions only the edit changed are
    taken from `theirs`; regions only the person's formatting changed stay as in `ours`; where
    both differ, `theirs` wins (the edit must land; that region is re-formatted)."""
    b, o, t = base.splitlines(keepends=True), ours.splitlines(keepends=True), theirs.splitlines(keepends=True)
    to_ours = _line_map(b, o)
    to_theirs = _line_map(b, t)
    out: list[str] = []
    i = j = k = 0
    while True:
        sync = i
        while sync < len(b) and not (sync in to_ours and sync in to_theirs and to_ours[sync] >= j and to_theirs[sync] >= k):
            sync += 1
        if sync == len(b):
            out += _resolve(b[i:], o[j:], t[k:])
            break
        oj, tk = to_ours[sync], to_theirs[sync]
        out += _resolve(b[i:sync], o[j:oj], t[k:tk])
        out.append(o[oj])
        i, j, k = sync + 1, oj + 1, tk + 1
    return "".join(out)


def _line_map(a: list[str], b: list[str]) -> dict[int, int]:
    mapping: dict[int, int] = {}
    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for n in range(block.size):
            mapping[block.a + n] = block.b + n
    return mapping


def _resolve(base: list[str], ours: list[str], theirs: list[str]) -> list[str]:
    if ours == base:
        return theirs
    if theirs == base or theirs == ours:
        return ours
    return _merge_disjoint(base, ours, theirs) or theirs


def _merge_disjoint(base: list[str], ours: list[str], theirs: list[str]) -> list[str] | None:
    """Both sides changed this stretch: apply both when their hunks touch different base lines."""
    def hunks(other: list[str]) -> list[tuple[int, int, list[str]]]:
        ops = difflib.SequenceMatcher(None, base, other, autojunk=False).get_opcodes()
        return [(i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in ops if tag != "equal"]

    mine, edit = hunks(ours), hunks(theirs)
    for a1, a2, _ in mine:
        for b1, b2, _ in edit:
            if (a1 < b2 and b1 < a2) or a1 == b1:
                return None
    out: list[str] = []
    pos = 0
    for i1, i2, replacement in sorted(mine + edit, key=lambda h: (h[0], h[1])):
        out += base[pos:i1] + replacement
        pos = i2
    return out + base[pos:]


# ---------------------------------------------------------------- ruamel helpers


def _flow_seq(items: list) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def _flow_map(items: dict) -> CommentedMap:
    m = CommentedMap(items)
    m.fa.set_flow_style()
    return m


def _keep_trailing_comment(container: Any, key: Any, previous: Any) -> None:
    """A comment after an entry (a blank line and the next group's heading) belongs to what
    follows; when the entry goes, hand the comment to the entry before it."""
    items = getattr(getattr(container, "ca", None), "items", None)
    if items is None or key not in items or previous is None:
        return
    if previous in items and any(items[previous]):
        return
    items[previous] = items.pop(key)


def _delete_seq_item(seq: CommentedSeq, index: int) -> None:
    _keep_trailing_comment(seq, index, index - 1 if index > 0 else None)
    del seq[index]


def _delete_map_key(mapping: CommentedMap, key: Any) -> None:
    keys = list(mapping.keys())
    pos = keys.index(key)
    _keep_trailing_comment(mapping, key, keys[pos - 1] if pos > 0 else None)
    del mapping[key]


def _sync_list(seq: Any, new: list[str]) -> Any:
    """Make a list hold `new`, touching only what changed (kept items keep their quoting)."""
    if not isinstance(seq, list):
        return _flow_seq(list(new))
    old = [str(x) for x in seq]
    if old == new:
        return seq
    kept_old = [x for x in old if x in new]
    kept_new = [x for x in new if x in old]
    simple = kept_old == kept_new and len(set(new)) == len(new) and len(set(old)) == len(old)
    if simple:
        for i in reversed(range(len(seq))):
            if str(seq[i]) not in new:
                _delete_seq_item(seq, i)
        for v in new:
            if v not in old:
                seq.append(v)
        if [str(x) for x in seq] == new:
            return seq
    existing = {str(x): x for x in seq}
    del seq[:]
    seq.extend(existing.get(v, v) for v in new)
    return seq


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


# ---------------------------------------------------------------- saving


@dataclass(frozen=True)
class SaveResult:
    status: str  # saved | unchanged | conflict | invalid | rejected
    message: str
    files: tuple[str, ...] = ()
    diff: str = ""  # saved: what was written; conflict: what changed on disk since it was read
    problems: tuple[Problem, ...] = ()
    history_id: str | None = None
    fingerprint: str = ""  # of the domain's files after the save

    @property
    def ok(self) -> bool:
        return self.status in ("saved", "unchanged")

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "message": self.message,
            "files": list(self.files),
            "diff": self.diff,
            "problems": [p.to_dict() for p in self.problems],
            "history_id": self.history_id,
            "fingerprint": self.fingerprint,
        }


def atomic_write(path: Path, text: str) -> None:
    """Temp file beside the target, flush, fsync, os.replace, fsync the folder: a crash at any
    point leaves either the old file or the new one, whole."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


@contextmanager
def _domain_lock(folder: Path) -> Iterator[None]:
    """One writer per domain at a time, across processes (app sessions, the CLI)."""
    hist = folder / HISTORY_DIR
    hist.mkdir(exist_ok=True)
    with open(hist / ".lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _disk_digest(path: Path) -> str:
    """The digest a snapshot of this file would have now ("" when the file does not exist)."""
    return digest_text(_disk_text(path)) if path.exists() else ""


def _disk_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""


def save_edits(
    domain: str,
    edits: list[FileEdit],
    root: Path | str | None = None,
    *,
    action: str | None = None,
    source: str = "editor",
) -> SaveResult:
    """Validate the edits together, refuse if any file changed on disk since its snapshot, keep
    the previous versions in history, then write each changed file atomically."""
    root = _root(root)
    changed = [e for e in edits if e.changed]
    if not changed:
        return SaveResult("unchanged", "Nothing to save: the files already say this.", fingerprint=domain_fingerprint(domain, root))
    problems = validate_edits(domain, edits, root)
    if problems:
        return SaveResult(
            "invalid",
            f"Not saved: {len(problems)} problem{'s' if len(problems) != 1 else ''} to fix first.",
            tuple(e.file for e in changed),
            problems=tuple(problems),
        )
    folder = root / domain
    with _domain_lock(folder):
        conflicts = [(e, _disk_text(e.path)) for e in changed if _disk_digest(e.path) != e.snapshot.digest]
        if conflicts:
            diff = "".join(
                unified_diff(e.snapshot.text, now, e.snapshot.label, new_label=e.snapshot.label + " (on disk now)") for e, now in conflicts
            )
            names = ", ".join(e.file for e, _ in conflicts)
            return SaveResult(
                "conflict",
                f"Not saved: {names} changed on disk since you opened it (a hand edit or another session). "
                "Reload to start from the current version; nothing was overwritten.",
                tuple(e.file for e, _ in conflicts),
                diff=diff,
            )
        record = _new_record(folder)
        meta = {"action": action or "; ".join(e.action for e in changed if e.action) or "edit", "source": source, "files": {}}
        for e in changed:
            if e.snapshot.exists:
                (record / e.file).write_bytes(e.snapshot.text.encode("utf-8"))
            meta["files"][e.file] = {"before": e.snapshot.digest, "after": digest_text(e.new_text)}
        for e in changed:
            atomic_write(e.path, e.new_text)
        # The record counts only once every file is written: a crash before this leaves no undo
        # entry that would not match the files.
        atomic_write(record / "save.json", json.dumps(meta, ensure_ascii=False, indent=2))
        _prune_history(folder)
    return SaveResult(
        "saved",
        f"Saved {', '.join(e.file for e in changed)}.",
        tuple(e.file for e in changed),
        diff="".join(e.diff() for e in changed),
        history_id=record.name,
        fingerprint=domain_fingerprint(domain, root),
    )


def _records(folder: Path) -> list[Path]:
    hist = folder / HISTORY_DIR
    if not hist.is_dir():
        return []
    return sorted((p for p in hist.iterdir() if p.is_dir() and p.name.split("-")[0].isdigit()), key=lambda p: int(p.name.split("-")[0]))


def _new_record(folder: Path) -> Path:
    existing = _records(folder)
    n = int(existing[-1].name.split("-")[0]) + 1 if existing else 1
    record = folder / HISTORY_DIR / f"{n:05d}"
    record.mkdir(parents=True)
    return record


def _prune_history(folder: Path) -> None:
    for old in _records(folder)[:-HISTORY_KEEP]:
        shutil.rmtree(old, ignore_errors=True)


@dataclass(frozen=True)
class HistoryEntry:
    id: str
    action: str
    source: str
    files: tuple[str, ...]
    saved_at: float  # the record's modification time (seconds since the epoch)
    undone: bool
    complete: bool


def history(domain: str, root: Path | str | None = None) -> list[HistoryEntry]:
    """Save records, newest first."""
    out = []
    for rec in reversed(_records(_root(root) / domain)):
        meta_path = rec / "save.json"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        out.append(
            HistoryEntry(
                id=rec.name.split("-")[0],
                action=str(meta.get("action", "")),
                source=str(meta.get("source", "")),
                files=tuple(meta.get("files", {})),
                saved_at=(meta_path if meta_path.exists() else rec).stat().st_mtime,
                undone=rec.name.endswith("-undone"),
                complete=bool(meta),
            )
        )
    return out


def undo_last_save(domain: str, root: Path | str | None = None) -> SaveResult:
    """Put back the files as they were before the last save, if nobody changed them since."""
    root = _root(root)
    folder = root / domain
    with _domain_lock(folder):
        candidates = [r for r in _records(folder) if not r.name.endswith("-undone") and (r / "save.json").exists()]
        if not candidates:
            return SaveResult("rejected", "There is no save to undo.")
        record = candidates[-1]
        meta = json.loads((record / "save.json").read_text(encoding="utf-8"))
        files = meta.get("files", {})
        moved = [f for f, d in files.items() if digest_text(_disk_text(folder / f)) != d["after"]]
        if moved:
            return SaveResult(
                "conflict",
                f"Cannot undo: {', '.join(moved)} changed after that save. Nothing was changed.",
                tuple(moved),
            )
        diffs = []
        for f, d in files.items():
            before = (record / f).read_bytes().decode("utf-8") if (record / f).exists() else ""
            diffs.append(unified_diff(_disk_text(folder / f), before, _label(root, folder / f)))
            if d["before"] == "" and not (record / f).exists():
                (folder / f).unlink(missing_ok=True)
            else:
                atomic_write(folder / f, before)
        record.rename(record.with_name(record.name + "-undone"))
    return SaveResult(
        "saved",
        f"Undid the last save ({meta.get('action', 'edit')}).",
        tuple(files),
        diff="".join(diffs),
        history_id=record.name,
        fingerprint=domain_fingerprint(domain, root),
    )


# ---------------------------------------------------------------- one-call conveniences


def _current_domain_must_load(domain: str, root: Path) -> None:
    """The CLI's exit 3: the lexicon on disk is already invalid, so no edit can be judged."""
    load_domain(domain, root)


def add_synonym(domain: str, canonical: str, variant: str, *, root: Path | str | None = None, source: str = "cli") -> SaveResult:
    return _synonym_edit_with_retry(domain, root, source, lambda snap: add_synonym_edit(snap, canonical, variant))


def remove_synonym(domain: str, canonical: str, variant: str, *, root: Path | str | None = None, source: str = "cli") -> SaveResult:
    return _synonym_edit_with_retry(domain, root, source, lambda snap: remove_synonym_edit(snap, canonical, variant))


CLI_CONFLICT_RETRIES = 10


def _synonym_edit_with_retry(domain: str, root: Path | str | None, source: str, make_edit) -> SaveResult:
    """A one-shot edit (the CLI) has no person to reload for: when another writer got there first,
    it re-reads the file and applies the same edit to the new text, a few times at most."""
    root = _root(root)
    _current_domain_must_load(domain, root)
    result = None
    for attempt in range(CLI_CONFLICT_RETRIES):
        edit = make_edit(read_file(domain, "synonyms.yaml", root))
        result = save_edits(domain, [edit], root, action=edit.action, source=source)
        if result.status != "conflict":
            return result
        time.sleep(0.05 * (attempt + 1) + random.random() * 0.05)  # let the other writer finish
    return result


def set_synonyms(domain: str, mapping: dict[str, list[str]], *, root: Path | str | None = None, source: str = "editor") -> SaveResult:
    snap = read_file(domain, "synonyms.yaml", root)
    return save_edits(domain, [edit_synonyms(snap, mapping)], root, source=source)


def set_patterns(domain: str, patterns: list[dict], *, root: Path | str | None = None, source: str = "editor") -> SaveResult:
    snap = read_file(domain, "patterns.yaml", root)
    return save_edits(domain, [edit_patterns(snap, patterns)], root, source=source)


def set_vague(
    domain: str, *, words: list[str] | None = None, question: str | None = None, root: Path | str | None = None, source: str = "editor"
) -> SaveResult:
    snap = read_file(domain, "settings.yaml", root)
    edit = edit_settings(snap, vague_words=words, question=question, action="edit vague words / clarifying question")
    return save_edits(domain, [edit], root, source=source)


def set_thresholds(
    domain: str,
    values: dict[str, float],
    *,
    root: Path | str | None = None,
    expected_fingerprint: str | None = None,
    source: str = "tuner",
) -> SaveResult:
    """Write thresholds (any of high / medium / low / margin) into settings.yaml, comments kept.

    `expected_fingerprint` is what the caller saw when it read the thresholds: either the domain
    fingerprint (RouterState.fingerprint / domain_fingerprint) or settings.yaml's digest
    (read_file(...).digest). If the files changed since, the save is refused ("conflict")."""
    root = _root(root)
    try:
        snap = read_file(domain, "settings.yaml", root)
        if expected_fingerprint is not None and expected_fingerprint not in (snap.digest, domain_fingerprint(domain, root)):
            return SaveResult(
                "conflict",
                "Not saved: the lexicon changed on disk since these thresholds were read. Reload and try again.",
                ("settings.yaml",),
            )
        edit = edit_settings(snap, thresholds=dict(values), action="set thresholds " + ", ".join(f"{k}={v}" for k, v in values.items()))
    except EditRejected as exc:
        return SaveResult("rejected", str(exc), ("settings.yaml",))
    except LexiconError as exc:
        return SaveResult("invalid", "Not saved: settings.yaml does not parse.", ("settings.yaml",), problems=tuple(exc.problems))
    return save_edits(domain, [edit], root, action=edit.action, source=source)
