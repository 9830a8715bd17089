"""Suggested parameters for a matched tool: from patterns, from the query's terms, from its dates,
and defaults (with a note) for required parameters the query left open."""
from __future__ import annotations

from typing import Any

from routing.core.index import QueryAnalysis
from routing.core.model import Tool


def suggest_params(
    tool: Tool, a: QueryAnalysis, pattern_params: dict[str, Any], param_words: frozenset[str] = frozenset(),
    value_markers: frozenset[str] | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """`param_words`: words that name a parameter somewhere in the domain ("status", "customer"):
    a query that uses one speaks of the parameter, so it is never taken as a value of one.
    `value_markers` (words.yaml): when given, a free-text parameter not marked `role: query` takes
    only words shaped like a value (see `argument_text`); None: any leftover words."""
    params: dict[str, Any] = {}
    notes: list[str] = []
    by_name = {p.name: p for p in tool.params}
    for name, value in pattern_params.items():
        if name in by_name:
            params[name] = value
    # A query term that names one of a parameter's values sets it ("unpaid" -> status=unpaid).
    for p in tool.params:
        if p.name in params or not p.values:
            continue
        hit = next((v for v in p.values if v in a.concepts), None)
        if hit is not None:
            params[p.name] = hit
    resolved = [d for d in a.dates if d.resolved]
    if resolved:
        first = resolved[0]
        for p in tool.params:
            if p.role == "date_from" and p.name not in params:
                params[p.name] = first.start.isoformat()
            elif p.role == "date_to" and p.name not in params:
                params[p.name] = first.end.isoformat()
        if len(resolved) > 1:
            notes.append(f"{len(resolved)} date ranges found; using the first ({first.text})")
    for d in a.dates:
        if not d.resolved:
            notes.append(f'could not use "{d.text}": {d.reason}')
        elif d.note:
            notes.append(f'"{d.text}": {d.note}')
    # The words a search takes ("find invoice for Sharma Traders"); a tool with no search parameter
    # but one free-text one ("customer") takes them there ("outstanding invoices from acme").
    query_param = next((p for p in tool.params if p.role == "query"), None)
    shaped = None
    if query_param is None:
        free = [p for p in tool.params if p.type == "string" and not p.role and not p.values]
        query_param = free[0] if len(free) == 1 else None
        shaped = value_markers
    if query_param is not None and query_param.name not in params:
        argument = argument_text(a, concept_words=param_words, value_markers=shaped)
        if argument:
            params[query_param.name] = argument
    for p in tool.params:
        if p.name not in params and p.required:
            if p.default is not None:
                params[p.name] = p.default
                notes.append(p.default_note or f"{p.name} = {p.default} by default")
            else:
                notes.append(f"{p.name} is required and the question does not give it")
    return params, notes


def argument_text(a: QueryAnalysis, *, concept_words: frozenset[str] = frozenset(), value_markers: frozenset[str] | None = None) -> str:
    """The words a search or detail tool takes as its argument: each run of unknown words and
    numbers, cut from the query with its separators and its casing ("INV-2026-001", "PT Maju Jaya").
    A run said twice is taken once; a word in `concept_words` ends a run and is never part of one.
    With `value_markers`, only a run shaped like a value is taken: one holding a digit (a number, an
    id), one written with a capital (a name; the query's first word does not count unless all
    capitals, "AAPL"), or one right after a marker word ("from acme"); leftover words are not a value."""
    runs: list[str] = []
    start = None
    units = a.units
    for i, u in enumerate(units + (None,)):
        if u is not None and u.role in ("literal", "number") and u.key not in concept_words:
            if start is None:
                start = i
            continue
        if start is not None:
            text = a.surface_of(units[start].first, units[i - 1].last)
            if value_markers is not None:
                text = _value_of(a, text, units, start, i, value_markers)
            if text:
                runs.append(text)
            start = None
    seen: set[str] = set()
    unique = [r for r in runs if not (r.casefold() in seen or seen.add(r.casefold()))]
    return " ".join(unique)


def _value_of(a: QueryAnalysis, text: str, units, start: int, end: int, markers: frozenset[str]) -> str:
    """The value in a run of leftover words (units[start:end]), or "" when it holds none."""
    digits = [j for j in range(start, end) if units[j].role == "number" or any(ch.isdigit() for ch in units[j].surface)]
    if digits:  # an id or a number: its own tokens, joined without spaces ("pet number 7" -> "7", "abc-12")
        lo, hi = digits[0], digits[-1]
        while lo > start and _joined(a, units[lo - 1], units[lo]):
            lo -= 1
        while hi + 1 < end and _joined(a, units[hi], units[hi + 1]):
            hi += 1
        return a.surface_of(units[lo].first, units[hi].last)
    if start > 0 and units[start - 1].role == "stop" and units[start - 1].key in markers:
        return text
    cased = [w for w in text.split() if w[:1].isupper()]
    named = bool(cased) and (units[start].first > 0 or len(cased) > 1 or any(len(w) > 1 and w.isupper() for w in cased))
    return text if named else ""


def _joined(a: QueryAnalysis, left, right) -> bool:
    """Two units written as one token ("abc-12"): no space between them."""
    between = a.text[a.tokens[left.last - 1].end : a.tokens[right.first].start]
    return not any(ch.isspace() for ch in between)
