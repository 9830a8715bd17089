"""The agreement signal (scoring.combine adds it to the leading tool of a domain that weighs
`agreement`): how far the lexicon's view and the examples' view of a query agree on the leader."""
from __future__ import annotations

from typing import TYPE_CHECKING

from routing.core.example_arrays import ExampleSignals
from routing.core.index import QueryAnalysis, RouterIndex

if TYPE_CHECKING:
    from routing.core.scoring import Signal


# The agreement signal needs a query that says at least this many things (distinct concepts, unknown
# words, dates, numbers). One term alone ("show bills") is explained alike by every tool of that
# record, and 000 wants those alternatives shown: a lead in phrasing there is no lead in content.
AGREEMENT_MIN_TERMS = 2


def content_terms(a: QueryAnalysis) -> int:
    """How many things a query says: distinct concepts and unknown words, date ranges and numbers."""
    keys = {(u.role, u.key) for u in a.units if u.role in ("concept", "literal", "number")}
    return len(keys) + len(a.dates)


def ruled_out_by_verbs(index: RouterIndex, action: dict[str, tuple[float, str]], leader: int) -> frozenset[int] | None:
    """Tools whose kind the verbs rule out (fit 0) while the leader's fits: no competitor in either view
    of score_agreement (asked only when a keyword of the leader's own is in the query: "buatkan invoice
    untuk Toko Makmur" - the search tools' examples, full of shop names, do not outvote invoice_create)."""
    fits = {k: action.get(k, (0.0, ""))[0] > 0 for k in index.kinds}
    if not fits[index.tools[leader].kind] or all(fits.values()):
        return None
    return frozenset(t for t, k in enumerate(index.tool_kind) if not fits[index.kinds[k]])


def score_agreement(leader: int, keyword: dict[int, Signal], example, ruled_out: frozenset[int] | None = None) -> Signal | None:
    """How far two views of the query that are built apart agree on the leading tool, in [0, 1]:

    the lexicon's view (the keyword signal: the share of the query's content words the tool's
    terms and patterns explain) and the examples' view (likeness to its example questions). When
    the leader is first in both (ties allowed), the value is the mean of its leads over the best
    other tool in each view, times the weaker of its own two values: agreement on little evidence
    says little. When either view puts another tool ahead, None: the views disagree, and the
    weighted sum alone says how sure the router is. A question one tool explains in words and in
    likeness, with no competitor close in either, is then as confident as it is clear."""
    own_k = keyword[leader].value if leader in keyword else 0.0
    sig = example.get(leader)
    own_e = sig.value if sig is not None else 0.0
    if own_k <= 0 or own_e <= 0:
        return None
    ruled_out = ruled_out or frozenset()
    other_k = max((s.value for t, s in keyword.items() if t != leader and t not in ruled_out), default=0.0)
    other_e = _best_other_example(example, leader, ruled_out)
    lead_k, lead_e = own_k - other_k, own_e - other_e
    if lead_k < 0 or lead_e < 0:
        return None
    value = min(1.0, (lead_k + lead_e) / 2 * min(own_k, own_e))
    if value <= 0:
        return None
    from routing.core.scoring import Signal  # scoring imports this module

    return Signal(value=value, parts={"agreement": value},
                  evidence=[f"first in words (+{lead_k:.2f}) and in examples (+{lead_e:.2f})"])


def _best_other_example(example, leader: int, ruled_out: frozenset[int] = frozenset()) -> float:
    """The best example score of any tool but the leader and the ruled-out ones (an array for many
    examples, else a dict)."""
    if isinstance(example, ExampleSignals):
        values = example.values * example.touched
        if not len(values):
            return 0.0
        if ruled_out:
            values = values.copy()
            values[list(ruled_out)] = 0.0
        best = float(values.max())
        if best > 0 and int(values.argmax()) == leader:
            values = values.copy()
            values[leader] = 0.0
            best = float(values.max())
        return best
    return max((s.value for t, s in example.items() if t != leader and t not in ruled_out), default=0.0)
