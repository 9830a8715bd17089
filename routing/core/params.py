"""Suggested parameters for a matched tool: from patterns, from the query's terms, from its dates,
and defaults (with a note) for required parameters the query left open."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from routing.core.index import QueryAnalysis
from routing.core.model import Tool

_ARGUMENT_ROLES = ("literal", "number")  # the units a run of argument words is made of


@dataclass(frozen=True, slots=True)
class ParamPlan:
    """What suggest_params reads of one tool, found once per tool (it depends on nothing else)."""

    names: frozenset[str]  # the tool's parameter names: a pattern's parameters are kept only if named
    valued: tuple[tuple[str, tuple[str, ...]], ...]  # (name, values) of each parameter with values
    dated: tuple[tuple[str, bool], ...]  # (name, True for date_from / False for date_to)
    query_name: str | None  # the parameter the query's free words go to
    shaped: bool  # that parameter takes only words shaped like a value (a lone free-text one)
    required: tuple[tuple[str, Any, str], ...]  # (name, default, note) of each required parameter
    key_params: tuple[str, ...]

    @classmethod
    def of(cls, tool: Tool) -> "ParamPlan":
        ps = tool.params
        query_param = next((p for p in ps if p.role == "query"), None)
        shaped = False
        if query_param is None:
            free = [p for p in ps if p.type == "string" and not p.role and not p.values]
            query_param = free[0] if len(free) == 1 else None
            shaped = True
        return cls(
            names=frozenset(p.name for p in ps),
            valued=tuple((p.name, p.values) for p in ps if p.values),
            dated=tuple((p.name, p.role == "date_from") for p in ps if p.role in ("date_from", "date_to")),
            query_name=query_param.name if query_param is not None else None,
            shaped=shaped,
            required=tuple((p.name, p.default, p.default_note or f"{p.name} = {p.default} by default"
                            if p.default is not None else f"{p.name} is required and the question does not give it")
                           for p in ps if p.required),
            key_params=tuple(p.name for p in ps),
        )


def suggest_params(
    tool: Tool, a: QueryAnalysis, pattern_params: dict[str, Any], param_words: frozenset[str] = frozenset(),
    value_markers: frozenset[str] | None = None, *, plan: ParamPlan | None = None, arguments: dict | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """`param_words`: words that name a parameter somewhere in the domain ("status", "customer"):
    a query that uses one speaks of the parameter, so it is never taken as a value of one.
    `value_markers` (words.yaml): when given, a free-text parameter not marked `role: query` takes
    only words shaped like a value (see `argument_text`); None: any leftover words.
    `plan`: ParamPlan.of(tool), when kept; `arguments`: a dict kept across the tools of one query
    with the same `param_words`, where the query's argument text is kept once read."""
    plan = plan or ParamPlan.of(tool)
    params: dict[str, Any] = {}
    notes: list[str] = []
    if pattern_params:
        names = plan.names
        for name, value in pattern_params.items():
            if name in names:
                params[name] = value
    # A query term that names one of a parameter's values sets it ("unpaid" -> status=unpaid).
    if plan.valued:
        concepts = a.concepts
        for name, values in plan.valued:
            if name in params:
                continue
            hit = next((v for v in values if v in concepts), None)
            if hit is not None:
                params[name] = hit
    if a.dates:
        resolved = [d for d in a.dates if d.resolved]
        if resolved:
            first = resolved[0]
            for name, is_from in plan.dated:
                if name not in params:
                    params[name] = (first.start if is_from else first.end).isoformat()
            if len(resolved) > 1:
                notes.append(f"{len(resolved)} date ranges found; using the first ({first.text})")
        for d in a.dates:
            if not d.resolved:
                notes.append(f'could not use "{d.text}": {d.reason}')
            elif d.note:
                notes.append(f'"{d.text}": {d.note}')
    # The words a search takes ("find invoice for Sharma Traders"); a tool with no search parameter
    # but one free-text one ("customer") takes them there ("outstanding invoices from acme").
    query_name = plan.query_name
    if query_name is not None and query_name not in params:
        shaped = value_markers if plan.shaped else None
        if arguments is None:
            argument = argument_text(a, concept_words=param_words, value_markers=shaped)
        else:
            key = shaped is None
            argument = arguments.get(key)
            if argument is None:
                argument = arguments[key] = argument_text(a, concept_words=param_words, value_markers=shaped)
        if argument:
            params[query_name] = argument
    for name, default, note in plan.required:
        if name not in params:
            if default is not None:
                params[name] = default
            notes.append(note)
    return params, notes


def argument_text(a: QueryAnalysis, *, concept_words: frozenset[str] = frozenset(), value_markers: frozenset[str] | None = None) -> str:
    """The words a search or detail tool takes as its argument: each run of unknown words and
    numbers, cut from the query with its separators and its casing ("INV-2026-001", "PT Maju Jaya").
    A run said twice is taken once; a word in `concept_words` ends a run and is never part of one.
    With `value_markers`, only a run shaped like a value is taken: one holding a digit (a number, an
    id), one written with a capital (a name; the query's first word does not count unless all
    capitals, "AAPL"), or one right after a marker word ("from acme"); leftover words are not a value."""
    unique: list[str] = []
    seen: set[str] = set()
    units = a.units
    n = len(units)
    i = 0
    while i < n:
        u = units[i]
        if u.role not in _ARGUMENT_ROLES or u.key in concept_words:
            i += 1
            continue
        start = i
        i += 1
        while i < n and units[i].role in _ARGUMENT_ROLES and units[i].key not in concept_words:
            i += 1
        if value_markers is None:
            text = a.surface_of(u.first, units[i - 1].last)
        else:
            text = _value_of(a, units, start, i, value_markers)
        if text:
            folded = text.casefold()
            if folded not in seen:  # a run said twice is taken once
                seen.add(folded)
                unique.append(text)
    return " ".join(unique)


def _value_of(a: QueryAnalysis, units, start: int, end: int, markers: frozenset[str]) -> str:
    """The value in a run of leftover words (units[start:end]), or "" when it holds none."""
    # No letter is a digit (checked over every code point): a word of letters holds none.
    digits = [j for j in range(start, end) if units[j].role == "number"
              or not units[j].surface.isalpha() and any(ch.isdigit() for ch in units[j].surface)]
    if digits:  # an id or a number: its own tokens, joined without spaces ("pet number 7" -> "7", "abc-12")
        lo, hi = digits[0], digits[-1]
        while lo > start and _joined(a, units[lo - 1], units[lo]):
            lo -= 1
        while hi + 1 < end and _joined(a, units[hi], units[hi + 1]):
            hi += 1
        return a.surface_of(units[lo].first, units[hi].last)
    first, last = units[start].first, units[end - 1].last
    marked = start > 0 and units[start - 1].role == "stop" and units[start - 1].key in markers
    if not marked and _uncased(a, first, last):
        return ""  # no capital in the run, however its surface is read: no name (most runs)
    text = a.surface_of(first, last)
    if marked:
        return text
    cased = [w for w in text.split() if w[:1].isupper()]
    named = bool(cased) and (units[start].first > 0 or len(cased) > 1 or any(len(w) > 1 and w.isupper() for w in cased))
    return text if named else ""


def _uncased(a: QueryAnalysis, first: int, last: int) -> bool:
    """No capital in tokens first..last-1, in either text QueryAnalysis.surface_of may read them
    from (str.islower: some cased letter and no capital one)."""
    if not a.text[a.tokens[first].start : a.tokens[last - 1].end].islower():
        return False
    return not a.source_spans or a.source[a.source_spans[first][0] : a.source_spans[last - 1][1]].islower()


def _joined(a: QueryAnalysis, left, right) -> bool:
    """Two units written as one token ("abc-12"): no space between them."""
    between = a.text[a.tokens[left.last - 1].end : a.tokens[right.first].start]
    return not any(ch.isspace() for ch in between)
