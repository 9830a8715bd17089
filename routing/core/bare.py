"""A request naming only a subject that several tools serve is ambiguous (shared/seeds 000, "Ambiguous
queries: return all matching tools, not just best guess": "show invoices" returns invoice_list,
invoice_search and the sales summary).

The question names one term of the lexicon and nothing else: no date, number, name, unknown word or
pattern, and no verb that picks a kind (a weak display verb such as "show", "lihat", "see" picks none;
"how much", weak for a summary alone, asks for a figure). The
term is the own keyword of tools of MIN_KINDS or more different kinds that read (a write needs a verb
asking for it, a detail view an identifier: the domain's `explicit_kinds` and `identifier_kinds`).
Then those tools are ranked first, in their order (another tool, such as a detail view without its
identifier, after them and at most as confident as the last), and the leader is marked `bare`: the tier rule
(routing.core.sole.lifted, at the thresholds in use) holds it, and any candidate above, just under
`high`, so the answer is the choice 000 asks for ("invoices?" was invoice_list at 0.94 with invoice_detail third). A term two
kinds serve ("my contacts": a list and a search) keeps its reading: a listing.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from routing.core.common_words import names_a_record
from routing.core.index import STRONG_VERB
from routing.core.scoring import Scored

MIN_KINDS = 3  # three ways to read one subject: no reading is the obvious one
DISPLAY = "list"  # the kind a display verb ("show", "see", "lihat") names among others
HOLD = 0.01    # how far under `high` a held leader stays (a reported 0.85 would read as confident)


def bare_subject(a, tools: Sequence, explicit_kinds: Sequence[str], identifier_kinds: Sequence[str],
                 patterns: Mapping, languages: tuple[str, ...] = ()) -> frozenset[int]:
    """The tools that serve the question's one subject (above), or an empty set where it says more (a
    literal that is only a common word of the domain's `languages` says nothing: "kindly share the invoices")."""
    if len(a.concepts) != 1 or a.dates or a.names or a.vague or patterns or a.literals and names_a_record(a, languages):
        return frozenset()
    skip = set(explicit_kinds) | set(identifier_kinds)
    # a verb that picks a kind ("list"), or asks for a write even weakly ("new invoice please"), says more;
    # so do weak verbs none of which would display a listing ("how much are our expenses" asks for a figure)
    if any(strength >= STRONG_VERB or kind in explicit_kinds for kind, strength in a.actions) \
            or (a.actions and all(kind != DISPLAY for kind, _ in a.actions)) or any(u.role == "number" for u in a.units):
        return frozenset()
    term = next(iter(a.concepts))
    serving = [i for i, t in enumerate(tools) if term in t.keywords and t.kind not in skip]
    if len({tools[i].kind for i in serving}) < MIN_KINDS:
        return frozenset()
    return frozenset(serving)


def mark_bare(scored: list[Scored], a, tools: Sequence, weights, patterns: Mapping, languages: tuple[str, ...] = ()) -> list[Scored]:
    """`scored` with the tools serving a bare subject first (in their order) and the leader marked
    `bare` (the later marks of routing.core.sole leave a marked leader alone); as it was otherwise."""
    if not scored or scored[0].lift:
        return scored
    serving = bare_subject(a, tools, weights.explicit_kinds, weights.identifier_kinds, patterns, languages)
    if not serving:
        return scored
    term = next(iter(a.concepts))
    first = [s for s in scored if s.tool in serving]
    if not first:
        return scored
    why = f"bare: only {term!r} is named, and {len(serving)} tools serve it"
    # a tool that cannot serve the bare subject (a detail view without its identifier) ranks after those
    # that can, at most as confident as the last of them: the order stays the order of the confidences
    floor = first[-1].confidence
    rest = [moved(s, floor, "bare", f"bare: {term!r} alone does not say what this tool needs") if s.confidence > floor else s
            for s in scored if s.tool not in serving]
    return [replace(first[0], lift=("bare", why)), *first[1:], *rest]


def moved(s: Scored, confidence: float, signal: str, why: str) -> Scored:
    """`s` at `confidence`, the difference added to the `signal` part of its breakdown (which still adds up)
    and `why` to its evidence: a held candidate here, a lifted leader in routing.core.sole."""
    breakdown = dict(s.breakdown)
    breakdown[signal] = round(breakdown.get(signal, 0.0) + confidence - s.confidence, 4)
    return replace(s, confidence=round(confidence, 4), raw=round(s.raw + confidence - s.confidence, 4), breakdown=breakdown,
                   evidence=s.evidence + [why])


def held(scored: list[Scored], high: float) -> list[Scored]:
    """`scored` under a `bare` leader, every candidate above just under `high` held there (the `bare` part
    of its breakdown): no reading is confident, and the order stays the order of the confidences (a
    session's `high` of 0.5 holds the three readings of "invoices?" at 0.49 each, in their order)."""
    target = round(high - HOLD, 4)
    if not scored or scored[0].confidence < high:
        return scored
    why = scored[0].lift[1]
    return [moved(s, target, "bare", why) if s.confidence > target else s for s in scored]
