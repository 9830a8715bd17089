"""Suggested parameters for a matched tool: from patterns, from the query's terms, from its dates,
and defaults (with a note) for required parameters the query left open."""
from __future__ import annotations

from typing import Any

from routing.core.index import QueryAnalysis
from routing.core.model import Tool


def suggest_params(
    tool: Tool, a: QueryAnalysis, pattern_params: dict[str, Any], param_words: frozenset[str] = frozenset()
) -> tuple[dict[str, Any], list[str]]:
    """`param_words`: words that name a parameter somewhere in the domain ("status", "customer"):
    a query that uses one speaks of the parameter, so it is never taken as a value of one."""
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
    if query_param is None:
        free = [p for p in tool.params if p.type == "string" and not p.role and not p.values]
        query_param = free[0] if len(free) == 1 else None
    if query_param is not None and query_param.name not in params:
        argument = argument_text(a, concept_words=param_words)
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


def argument_text(a: QueryAnalysis, *, concept_words: frozenset[str] = frozenset()) -> str:
    """The words a search or detail tool takes as its argument: each run of unknown words and
    numbers, cut from the query with its separators and its casing ("INV-2026-001", "PT Maju Jaya").
    A run said twice is taken once; a word in `concept_words` ends a run and is never part of one."""
    runs: list[str] = []
    start = None
    units = a.units
    for i, u in enumerate(units + (None,)):
        if u is not None and u.role in ("literal", "number") and u.key not in concept_words:
            if start is None:
                start = i
            continue
        if start is not None:
            runs.append(a.surface_of(units[start].first, units[i - 1].last))
            start = None
    seen: set[str] = set()
    unique = [r for r in runs if not (r.casefold() in seen or seen.add(r.casefold()))]
    return " ".join(unique)
