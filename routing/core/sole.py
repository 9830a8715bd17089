"""A request whose words all point to one tool (issue 22, held-out set 7).

A query naming two or more of the lexicon's terms, every one of them among ONE tool's own
`keywords` (what the tool is), while no other tool claims them all even among its `related`
terms, asks for that tool: "tell me where the biggest spend goes nowadays" (cfo) names `top`
and `expense`, both top_expenses's own keywords; expense_summary has `expense`, top_customers has
`top`, neither both. The summed score can still land in the middle band (unknown words such as
"where" and "nowadays" dilute the share the terms explain), and the answer was a choice where
nothing was left to choose. Such a leader is lifted to the domain's `high` threshold (the `sole` part of the score
breakdown), only where it already leads the runner-up by the domain's margin (a near-tie stays a
choice). Terms read through a spelling correction (fuzzy) do not count.

Two steps: Router.score marks a leader whose terms point to it alone (`mark_*`: what depends on the
words only, the `lift` field of routing.core.scoring.Scored), and the tier rule lifts a marked leader
with the thresholds in use (`lifted`, called by classify): a session's thresholds and the threshold
tuner's sweep see the lift made at their own `medium`, `high` and `margin`, never the domain's.

Only tools with explicit keywords (a hand-written lexicon) take part: an imported domain's
name-derived terms say too little to call a request unambiguous.

The same holds for a write (shared/seeds 002: bookkeeper verbs such as create, record, file, send
switch to the bookkeeper's tools): a query whose first verb asks for a write (the domain's
`explicit_kinds`, create / action; a later "all" or "which" says what the write is about) where one
write tool of the domain holds its terms (another writer holding only some of them, "payment" of
record_payment beside "send payment reminders", is no rival), that tool leading, asks for that
write ("record the bill Kapoor Metals sent us": create_bill, not bill_lookup, which reads). Asked by a
strong verb ("send", "create"), such a leader is lifted even where a reader is close behind: the reader
is what the write is about
("send payment reminders to all overdue customers": overdue_customers), held at the margin below
(the `sole_write` part of its breakdown). Router.score applies all of these, so every design
ranking with it (tools, power_gateway) sees the lifted leader.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from rapidfuzz.distance import OSA

from routing.core.bare import held, moved
from routing.core.index import term_holders
from routing.core.scoring import DEFAULT_KIND_REASON, Scored

MIN_TERMS = 2  # one term alone is what the bands already weigh
WHOLE = 0.999  # a keyword share this high: nothing of the question is left unexplained


def _leads(scored: list[Scored], medium: float, high: float, margin: float) -> bool:
    """The leader is in the middle band and already leads by the margin: a lift settles a question the
    scores have answered, never a near-tie (a runner-up strong on examples or meaning)."""
    top = scored[0].confidence
    second = scored[1].confidence if len(scored) > 1 else 0.0
    return medium <= top < high and round(top - second, 4) >= round(margin, 4)


def mark_sole_tool(scored: list[Scored], concepts: Sequence[str], tools: Sequence,
                   holders: Mapping[str, frozenset[int]] | None = None) -> list[Scored]:
    """`scored` with its leader marked for a lift when the query's terms all point to it alone (see
    above). `holders`: term_holders(tools), kept by the index (a catalog of 10,000 tools was scanned a question)."""
    # The cheapest condition first (an imported catalog's tools have no keywords): each only keeps `scored`.
    if not scored or scored[0].lift or not tools[scored[0].tool].keywords or len(set(concepts)) < MIN_TERMS:
        return scored
    top = scored[0]
    terms = set(concepts)
    leader = tools[top.tool]
    own_terms = terms & set(leader.keywords)
    # what the tool is, at least as much as what it relates to (a comparison of two related topics is no request for it)
    if len(own_terms) * 2 < len(terms) or not terms <= set(leader.keywords) | set(leader.related):
        return scored
    holders = term_holders(tools) if holders is None else holders
    if frozenset.intersection(*(holders.get(c, frozenset()) for c in terms)) - {top.tool}:
        return scored  # another tool holds every term among its keywords and related terms
    own = own_terms == terms
    return _mark(scored, "sole", f"sole: every term is {leader.name}'s own" if own else f"sole: {leader.name} alone holds every term")


def mark_sole_writer(scored: list[Scored], concepts: Sequence[str], verb_kinds: Sequence[str], tools: Sequence,
                     write_kinds: Sequence[str], holders: Mapping[str, frozenset[int]] | None = None, *,
                     strong: bool = True) -> list[Scored]:
    """`scored` with its leader marked for a lift when the first verb asks for a write and it is the one
    write tool holding the query's terms (see above)."""
    if not scored or scored[0].lift or not concepts or not verb_kinds or tools[scored[0].tool].kind not in write_kinds \
            or verb_kinds[0] not in write_kinds:
        return scored
    top = scored[0]
    terms = set(concepts)
    holders = term_holders(tools) if holders is None else holders
    held_by: dict[int, set[str]] = {}  # tool -> the question's terms it holds
    for c in terms:
        for i in holders.get(c, ()):
            held_by.setdefault(i, set()).add(c)
    writers = [i for i in held_by if tools[i].kind in write_kinds and tools[i].keywords]
    mine = held_by.get(top.tool, set())
    # a writer holding only some of the leader's terms ("payment" of record_payment beside "send payment
    # reminders") is no rival, nor one that only relates to a term the leader lacks ("client" of create_invoice
    # beside "log a travel expense for the client visit"); one holding the same terms, or its own keyword the
    # leader lacks, is
    if top.tool not in writers or any(i != top.tool and (held_by[i] == mine or (held_by[i] - mine) & set(tools[i].keywords))
                                      for i in writers):
        return scored
    why = f"sole_write: the one write tool for these terms, {tools[top.tool].name}"
    # a strong first verb ("send", "create") asks for the write past a close reader; a weak one ("new", "record")
    # only where the writer already leads by the margin ("new invoices this month" may list them)
    return _mark(scored, "sole_write", why, *(("past_readers",) if strong else ()))


def mark_whole_question(scored: list[Scored], keyword: Mapping[int, Any], tools: Sequence) -> list[Scored]:
    """`scored` with its leader marked for a lift when its terms explain the whole question (every word
    the lexicon knows is its term, every other word an argument its kind takes: "is there an invoice
    for exactly 4,750,000", "do we sell a product called Teh Hijau Premium") and no other tool's do."""
    if not scored or scored[0].lift:
        return scored
    top = scored[0]
    mine = keyword.get(top.tool)
    if mine is None or not mine.own or mine.fuzzy_hits or mine.value < WHOLE or not tools[top.tool].keywords:
        return scored
    if any(s.value >= WHOLE for t, s in keyword.items() if t != top.tool):
        return scored
    return _mark(scored, "sole", f"sole: {tools[top.tool].name} alone explains the whole question")


SURE_LENGTH = 6  # a word this long with one slip (a letter missing, added, changed or two swapped) is no guess


def sure_correction(c, source: str = "") -> bool:
    """A spelling correction that is no guess: one edit (optimal string alignment: "recievables" ->
    receivables, "paybles" -> payables) of a word of SURE_LENGTH letters or more, not written with a
    capital inside the question (`source`, as typed: "how much does Balanse Corp owe" names a company)."""
    if len(c.original) < SURE_LENGTH or OSA.distance(c.original, c.corrected) > 1:
        return False
    if source and not source.isupper():
        folded = source.casefold()
        at = folded.find(c.original)
        while at > 0:
            if source[at : at + 1].isupper():
                return False
            at = folded.find(c.original, at + 1)
    return True


def mark_clear_lead(scored: list[Scored], lead: float, concepts: Sequence[str], tools: Sequence, *, misspelt: bool = False,
                    several: Callable[[], Sequence[str]] = tuple, holders: Mapping[str, frozenset[int]] | None = None,
                    unheld: int = 0, subset: float = 0.0, writes=()) -> list[Scored]:
    """`scored` with its leader marked for a lift when it is `lead` or more ahead of the runner-up, holds
    every term of the question among its keywords and related terms (a term it does not hold says
    something it does not answer: "which costs went up the most lately" names `overdue`), no term was
    read through a spelling correction (`misspelt`: the lift never rests on a guess), and the question
    asks one thing (`several()`: the words that make it ask more, two request verbs or "and then",
    routing.paths.classify.several_asks; such a question is the LLM path's, shared/seeds 002). A
    correction that is no guess (`sure_correction`) does not count as misspelt; its term must be held. The
    domain's `scoring.clear_lead` (0: never): cfo's fast path takes a known question the router ranks
    far ahead of any other ("received 75,000 from Sinha Traders against INV-1450, record it":
    record_payment 0.83, the next 0.49) where the summed signals, diluted by names and amounts, stay
    in the middle band. `unheld` (the domain's `scoring.clear_lead_unheld`): how many terms the leader may
    lack where it holds more than that ("which GST returns are pending or late right now":
    gst_filing_status, 0.72 against 0.44, holds `gst`, `filing` and `overdue` but not `unpaid`). The runner-up
    is the first candidate that is no kind sibling (`_kind_sibling`: the same terms, a kind the question ruled out).
    `subset` (the domain's `scoring.clear_lead_subset`, 0: never): a smaller lead that lifts a leader holding every
    term where each rival within `lead` of it holds only some of the leader's terms ("GST summary: output tax, input
    tax credit and net payable": tds_summary holds tax and payable, gst_summary those and gst); never a write (`writes`,
    the domain's explicit kinds: a writer's related terms are wide, "how many reminders went out" asks to send none)."""
    if not scored or scored[0].lift or not lead > 0 or misspelt or not concepts:
        return scored
    holders = term_holders(tools) if holders is None else holders
    terms = set(concepts)
    rivals = [s for s in scored[1:] if not _kind_sibling(scored[0], s, terms, holders)]
    second = rivals[0].confidence if rivals else 0.0
    lacking = sum(scored[0].tool not in holders.get(c, frozenset()) for c in terms)
    if round(scored[0].confidence - second, 4) < round(lead, 4) and not (
            subset > 0 and not lacking and len(terms) >= MIN_TERMS and round(scored[0].confidence - second, 4) >= round(subset, 4)
            and tools[scored[0].tool].kind not in writes
            and all(_holds_less(s.tool, terms, scored[0].tool, holders) for s in rivals if scored[0].confidence - s.confidence < lead)):
        return scored
    if lacking > unheld or (lacking and len(terms) - lacking <= unheld) or several():
        return scored  # the question's words last: read only where the rest would lift
    # a kind sibling just behind (the same terms, a kind the question's data ruled out: a record's number, a name; a verb
    # alone leaves "show bills" a choice, 000, and a date "show bills from December", a search may take dates) is held
    # at the margin below, no rival
    past = ("past_siblings",) if len(scored) > 1 and scored[1] is not (rivals[0] if rivals else None) and (
        _kind_reasons(scored[0]) - _kind_reasons(scored[1]) - {DEFAULT_KIND_REASON, "verb", "date range"}) else ()
    return _mark(scored, "lead", f"lead: {scored[0].confidence:.2f} against {second:.2f} for the next tool, one thing asked", *past)


def _holds_less(tool: int, terms: set, leader: int, holders: Mapping[str, frozenset[int]]) -> bool:
    """Whether `tool` holds some of the question's terms, each of them the leader's too, and not all of them."""
    mine = {c for c in terms if tool in holders.get(c, ())}
    return bool(mine) and len(mine) < len(terms) and all(leader in holders.get(c, ()) for c in mine)


def _kind_sibling(top: Scored, other: Scored, terms: set, holders: Mapping[str, frozenset[int]]) -> bool:
    """Whether `other` holds the question's terms exactly as the leader does and fits the asked kind less (its
    `action` part lower): the same subject read another way, which the verbs, dates or record numbers already
    ruled on ("purchase bills received in December 2025": bill_list by its date, bill_search the same terms)."""
    if other.breakdown.get("action", 0.0) >= top.breakdown.get("action", 0.0):
        return False
    # ruled on: the leader's kind has a reason the other's lacks (a verb, a date range, a record number, a name);
    # the domain's default kind for a bare noun is a guess, no ruling ("have we missed any GSTR deadline?")
    if not (_kind_reasons(top) - _kind_reasons(other)) - {DEFAULT_KIND_REASON}:
        return False
    return all((top.tool in holders.get(c, ())) == (other.tool in holders.get(c, ())) for c in terms)


def _kind_reasons(s: Scored) -> set[str]:
    """The reasons score_action gave the candidate's kind ("kind: list (verb, date range)" in its evidence)."""
    why = next((e for e in s.evidence if e.startswith("kind: ")), "")
    at = why.find(" (")
    return set(why[at + 2:-1].split(", ")) if at >= 0 and why.endswith(")") else set()


def _mark(scored: list[Scored], signal: str, why: str, *how: str) -> list[Scored]:
    """`scored` with its leader marked (signal, why[, how]): `how` "past_readers" lifts a writer past close readers."""
    return [replace(scored[0], lift=(signal, why, *how)), *scored[1:]]


def lifted(scored: list[Scored], medium: float, high: float, margin: float) -> list[Scored]:
    """`scored` with a marked leader at `high` where it is in the middle band and already leads its
    runner-up by the margin (the thresholds in use); as it was otherwise. A lifted list is kept as it is."""
    if scored and scored[0].lift and scored[0].lift[0] == "bare":  # routing.core.bare: a choice, never a lift
        return held(scored, high)
    if scored and scored[0].lift[2:] == ("past_readers",) and scored[0].confidence >= medium:
        return _write_asked(scored, high, margin)
    if scored and scored[0].lift[2:] == ("past_siblings",) and scored[0].confidence >= medium:
        return _write_asked(scored, high, margin, "a kind sibling: the same terms, a kind the question ruled out")
    if not scored or not scored[0].lift or not _leads(scored, medium, high, margin):
        return scored
    signal, why = scored[0].lift[:2]
    return [moved(scored[0], high, signal, why), *scored[1:]]


def _write_asked(scored: list[Scored], high: float, margin: float, note: str = "a write was asked, a reader is no rival") -> list[Scored]:
    """A write asked by a strong first verb, its one write tool leading (`sole_write`, "past_readers"): the leader at `high`
    or above, and every reader above it by less than the margin held at the margin below ("send payment
    reminders to all overdue customers": overdue_customers reads what the reminder is about, no rival)."""
    signal, why = scored[0].lift[:2]
    top = scored[0] if scored[0].confidence >= high else moved(scored[0], high, signal, why)
    floor = round(top.confidence - margin, 4)
    rest = [moved(s, floor, signal, f"{signal}: {note}") if s.confidence > floor else s
            for s in scored[1:]]
    return [top, *rest]
