"""Lexicon data <-> the rows of the editor's tables (pure functions, no Streamlit).

A table shows a filtered slice of the draft; `merge_*` puts the edited slice back into the whole,
keeping the order of everything the slice did not show.
"""
from __future__ import annotations

import math
import re
from typing import Any

from routing.core.text import words
from routing.editing.edits import format_params

MATCH_KINDS = ("phrase", "terms", "regex")
SYN_COLUMNS = ("key", "Term", "Variants", "Count")
PAT_COLUMNS = ("key", "Tool", "Match by", "Text", "Parameter hints", "Weight", "Order")


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or (isinstance(value, str) and not value.strip())


def _text(value: Any) -> str:
    return "" if _blank(value) else str(value).strip()


def split_list(text: Any) -> list[str]:
    """'a, b ,c' -> ['a', 'b', 'c'] (how a table cell shows a list)."""
    return [" ".join(part.split()) for part in _text(text).split(",") if part.strip()]


def _matches(needle: str, *haystack: str) -> bool:
    needle = needle.casefold().strip()
    return not needle or any(needle in h.casefold() for h in haystack)


# ---------------------------------------------------------------- synonyms


def synonym_rows(mapping: dict[str, list[str]], search: str = "") -> list[dict]:
    return [
        {"key": term, "Term": term, "Variants": ", ".join(variants), "Count": len(variants)}
        for term, variants in mapping.items()
        if _matches(search, term, *variants)
    ]


def merge_synonyms(draft: dict[str, list[str]], shown: list[dict], edited: list[dict]) -> dict[str, list[str]]:
    """The whole mapping after the user edited the `shown` rows into `edited` (rows keep their
    `key`; added rows have none; a row missing from `edited` was deleted)."""
    shown_keys = {r["key"] for r in shown}
    by_key = {r.get("key"): r for r in edited if not _blank(r.get("key"))}
    out: dict[str, list[str]] = {}
    for term, variants in draft.items():
        if term not in shown_keys:
            out[term] = list(variants)
        elif term in by_key:
            row = by_key[term]
            out[_text(row.get("Term")) or term] = split_list(row.get("Variants"))
    for row in edited:
        if _blank(row.get("key")) and not (_blank(row.get("Term")) and _blank(row.get("Variants"))):
            out[_text(row.get("Term"))] = split_list(row.get("Variants"))
    return out


# ---------------------------------------------------------------- patterns


def _pattern_kind(p: dict) -> str:
    return next((k for k in MATCH_KINDS if p.get(k) is not None), "phrase")


def pattern_rows(patterns: list[dict], search: str = "", tool: str | None = None) -> list[dict]:
    rows = []
    for i, p in enumerate(patterns):
        kind = _pattern_kind(p)
        value = p.get(kind)
        text = ", ".join(value) if isinstance(value, list) else _text(value)
        params = format_params(p.get("params") if isinstance(p.get("params"), dict) else None)
        if tool and p.get("tool") != tool:
            continue
        if not _matches(search, text, str(p.get("tool", "")), params):
            continue
        weight = p.get("weight", 1.0)
        rows.append({"key": i, "Tool": p.get("tool"), "Match by": kind, "Text": text, "Parameter hints": params,
                     "Weight": float(weight) if isinstance(weight, (int, float)) else weight, "Order": ", ".join(p["order"]) if isinstance(p.get("order"), list) else _text(p.get("order"))})
    return rows


def row_to_pattern(row: dict) -> dict:
    kind = _text(row.get("Match by")) or "phrase"
    text = row.get("Text")
    out: dict[str, Any] = {kind: split_list(text) if kind == "terms" else _text(text)}
    out["tool"] = _text(row.get("Tool"))
    if not _blank(row.get("Parameter hints")):
        out["params"] = _text(row.get("Parameter hints"))
    if not _blank(row.get("Weight")):
        out["weight"] = row.get("Weight")
    if not _blank(row.get("Order")):
        out["order"] = split_list(row.get("Order"))
    return out


def merge_patterns(draft: list[dict], shown: list[dict], edited: list[dict]) -> list[dict]:
    """Like merge_synonyms for the pattern list; `key` is the pattern's position in the draft.
    An edited row is compared to its original so an untouched row keeps its exact data."""
    shown_keys = {r["key"] for r in shown}
    original_rows = {r["key"]: r for r in shown}
    by_key = {int(r["key"]): r for r in edited if not _blank(r.get("key"))}
    out: list[dict] = []
    for i, p in enumerate(draft):
        if i not in shown_keys:
            out.append(p)
        elif i in by_key:
            row = by_key[i]
            same = all(_text(row.get(c)) == _text(original_rows[i].get(c)) for c in PAT_COLUMNS[1:])
            out.append(p if same else row_to_pattern(row))
    for row in edited:
        if _blank(row.get("key")) and any(not _blank(row.get(c)) for c in ("Tool", "Text")):
            out.append(row_to_pattern(row))
    return out


# A variant is a word or a short phrase a person types; longer text is a sentence, not a synonym.
MAX_VARIANT_CHARS = 60
MAX_VARIANT_WORDS = 6
_NOT_WORD_CHARS = re.compile(r"[^\w\s'’&.\-/]")


def variant_problem(variant: str, stopwords: frozenset[str] | set[str] = frozenset()) -> str | None:
    """Why a typed variant would not do what its author expects, checked on Add (before the review):
    symbols the router drops ("(a+)+$" would be stored as "a"), only stop words (never matched),
    or a sentence. None when it is fine. Duplicates are store.synonym_problem's job."""
    text = " ".join(str(variant or "").split())
    if len(text) > MAX_VARIANT_CHARS:
        return f"a variant is a word or a short phrase (at most {MAX_VARIANT_CHARS} characters; this one has {len(text)})"
    bad = sorted(set(_NOT_WORD_CHARS.findall(text)))
    if bad:
        return (f"“{text}” has characters the router ignores ({' '.join(bad)}); a variant is plain words. "
                "For a regular expression, use the Patterns tab")
    found = words(text)
    if len(found) > MAX_VARIANT_WORDS:
        return f"a variant is a word or a short phrase (at most {MAX_VARIANT_WORDS} words; this one has {len(found)})"
    if found and all(w in stopwords for w in found):
        return f"“{text}” is only stop words, which the router ignores: it would never match"
    return None


def rebase_synonyms(base: dict[str, list[str]], mine: dict[str, list[str]], fresh: dict[str, list[str]]) -> dict[str, list[str]]:
    """My edits (base -> mine) replayed on the files as they are now (fresh), after a conflict:
    terms and variants I added are added, those I removed are removed; everything else is fresh's."""
    out = {k: list(v) for k, v in fresh.items()}
    for term in base:
        if term not in mine:
            out.pop(term, None)
    for term, variants in mine.items():
        before = base.get(term, [])
        target = out.setdefault(term, [])
        for v in before:
            if v not in variants and v in target:
                target.remove(v)
        for v in variants:
            if v not in before and v not in target:
                target.append(v)
    return out


def rebase_patterns(base: list[dict], mine: list[dict], fresh: list[dict]) -> list[dict]:
    """Like rebase_synonyms for the pattern list: patterns I added or removed, replayed on fresh."""
    out = [p for p in fresh if not (p in base and p not in mine)]
    out += [p for p in mine if p not in base and p not in out]
    return out
