"""A request naming only a subject that several tools serve is ambiguous (shared/seeds 000, "Ambiguous
queries: return all matching tools, not just best guess": "show invoices" returns invoice_list,
invoice_search and the sales summary).

The question names one term of the lexicon and nothing else: no date, number, name, unknown word or
pattern, and no verb that picks a kind (a weak verb such as "show", "lihat", "see" picks none). The
term is the own keyword of tools of MIN_KINDS or more different kinds that read (a write needs a verb
asking for it, a detail view an identifier: the domain's `explicit_kinds` and `identifier_kinds`).
Then those tools are ranked first, in their order, and the leader is marked `bare`: the tier rule
(routing.core.sole.lifted, at the thresholds in use) holds it just under `high`, so the answer is the
choice 000 asks for ("invoices?" was invoice_list at 0.94 with invoice_detail third). A term two
kinds serve ("my contacts": a list and a search) keeps its reading: a listing.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from routing.core.index import STRONG_VERB
from routing.core.scoring import Scored

MIN_KINDS = 3  # three ways to read one subject: no reading is the obvious one
HOLD = 0.01    # how far under `high` a held leader stays (a reported 0.85 would read as confident)


def bare_subject(a, tools: Sequence, explicit_kinds: Sequence[str], identifier_kinds: Sequence[str],
                 patterns: Mapping) -> frozenset[int]:
    """The tools that serve the question's one subject (above), or an empty set where it says more."""
    if len(a.concepts) != 1 or a.dates or a.names or a.literals or a.vague or patterns:
        return frozenset()
    skip = set(explicit_kinds) | set(identifier_kinds)
    # a verb that picks a kind ("list"), or asks for a write even weakly ("new invoice please"), says more
    if any(strength >= STRONG_VERB or kind in explicit_kinds for kind, strength in a.actions) \
            or any(u.role == "number" for u in a.units):
        return frozenset()
    term = next(iter(a.concepts))
    serving = [i for i, t in enumerate(tools) if term in t.keywords and t.kind not in skip]
    if len({tools[i].kind for i in serving}) < MIN_KINDS:
        return frozenset()
    return frozenset(serving)


def mark_bare(scored: list[Scored], serving: frozenset[int], term: str) -> list[Scored]:
    """`scored` with the tools in `serving` first (in their order) and the leader marked `bare`."""
    if not serving or not scored:
        return scored
    first = [s for s in scored if s.tool in serving]
    if not first:
        return scored
    rest = [s for s in scored if s.tool not in serving]
    why = f"bare: only {term!r} is named, and {len(serving)} tools serve it"
    return [replace(first[0], lift=("bare", why)), *first[1:], *rest]


def held(top: Scored, high: float) -> Scored:
    """A `bare` leader at or above `high`, held just under it (the `bare` part of the breakdown)."""
    if top.confidence < high:
        return top
    target = round(high - HOLD, 4)
    breakdown = dict(top.breakdown)
    breakdown["bare"] = round(target - top.confidence, 4)
    return replace(top, confidence=target, raw=round(top.raw + target - top.confidence, 4), breakdown=breakdown,
                   evidence=top.evidence + [top.lift[1]])
