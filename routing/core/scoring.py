"""The scoring signals, and `combine`, which weighs them into each candidate's raw score.

    match_patterns(analysis, index) -> PatternHits       phrase / term-set / regex hits per tool
    score_keyword(analysis, index, patterns) -> {tool: Signal}   share of the query's terms it explains
    score_example(analysis, index) -> {tool: Signal}     likeness to the tool's example questions
    score_action(analysis, index, weights) -> {kind: (fit, why)}   per kind of tool, not per tool

A `Signal.value` is in [0, 1] and `Signal.parts` splits it among breakdown names. `combine` weighs
them with the domain's `scoring:` weights into a sum (capped at 1) whose breakdown adds up to it.
A domain that weighs `agreement` adds one more term to the leading tool only: how far the lexicon's
view and the examples' view agree that it comes first (score_agreement). That sum is the confidence, unless
the domain is calibrated: then routing.core.calibration turns it into a probability and adds a `calibration`
term to the breakdown (Router.calibrate). A record named by its number: routing.core.records.
"""
from __future__ import annotations

import heapq
import math
import weakref
from dataclasses import dataclass, field

from routing.core.agreement import AGREEMENT_MIN_TERMS, content_terms, ruled_out_by_verbs, score_agreement  # noqa: F401 (re-exported)
from routing.core.example_arrays import ExampleSignals
from routing.core.analysis import record_number
from routing.core.asked_search import search_asked
from routing.core.records import list_patterns_kept
from routing.core.index import LITERAL_MASS, QueryAnalysis, RouterIndex
from routing.core.model import Weights
from routing.core.patterns import RegexBudget
from routing.core.sentences import fuse, sentence_features


DEFAULT_KIND_REASON = "default kind"  # score_action's reason for a bare noun's kind: a guess (routing.core.sole reads it)


@dataclass
class Signal:
    value: float = 0.0
    parts: dict[str, float] = field(default_factory=dict)  # breakdown name -> share of value
    evidence: list[str] = field(default_factory=list)
    params: dict = field(default_factory=dict)
    fuzzy_hits: int = 0
    own: bool = False  # keyword signal: one of the tool's own keywords (full weight, not a related term) matched


@dataclass
class PatternHits:
    by_tool: dict[int, Signal]
    covered: dict[int, set[int]]  # tool -> unit indexes explained by its patterns
    timeouts: list[str]  # regexes that timed out or found the query's budget spent (reported in events)


def match_patterns(a: QueryAnalysis, index: RouterIndex) -> PatternHits:
    """Phrase patterns match content keys in order; term patterns a set of concepts; regexes the text."""
    by_tool: dict[int, Signal] = {}
    covered: dict[int, set[int]] = {}
    # Phrases match in order over every word but dates and numbers, stop words included: they carry direction ("who owes me").
    content = [(ui, u) for ui, u in enumerate(a.units) if u.role not in ("date", "number")]
    seq = [u.key for _, u in content]
    is_stop = [u.role == "stop" for _, u in content]

    def phrase_at(pos: int, keys: tuple[str, ...]) -> list[int] | None:
        """Unit indexes matching `keys` in order from `pos`; stop words the phrase lacks may sit between."""
        span: list[int] = []
        k = 0
        while k < len(keys) and pos < len(seq):
            if seq[pos] == keys[k]:
                span.append(content[pos][0])
                k += 1
            elif not is_stop[pos]:
                return None
            pos += 1
        return span if k == len(keys) else None

    def hit(cp, units: set[int], fuzzy: int) -> None:
        sig = by_tool.setdefault(cp.tool, Signal())
        if cp.weight > sig.value:
            sig.value = cp.weight
        sig.parts = {"pattern": sig.value}
        sig.evidence.append(cp.label)
        for k, v in cp.params:
            sig.params.setdefault(k, v)
        sig.fuzzy_hits = max(sig.fuzzy_hits, fuzzy)
        covered.setdefault(cp.tool, set()).update(units)

    for pos, key in enumerate(seq):
        for pi in index.phrase_by_first.get(key, ()):
            cp = index.patterns[pi]
            span = phrase_at(pos, cp.keys)
            if span is not None and cp.in_order(a.units):
                hit(cp, set(span), sum(a.units[ui].via == "fuzzy" for ui in span))
    if index.term_patterns:
        present = set(a.concepts)
        found = list_patterns_kept([cp for cp in index.term_patterns if cp.terms <= present and cp.in_order(a.units)], a, index)  # routing.core.records
        for cp in found:
            # The most specific term set wins: [customer, unpaid, invoice] silences [unpaid, invoice].
            if any(cp.terms < other.terms and other.tool != cp.tool for other in found):
                continue
            span = {ui for ui, u in enumerate(a.units) if u.role == "concept" and u.key in cp.terms}
            hit(cp, span, sum(a.concepts[t] == "fuzzy" for t in cp.terms))
    budget = RegexBudget()  # the regexes of one query share one time budget
    for cp in index.regex_patterns:
        if budget.search(cp.regex, a.text, cp.label):
            hit(cp, set(), 0)
    return PatternHits(by_tool, covered, budget.timeouts)


def score_keyword(a: QueryAnalysis, index: RouterIndex, patterns: PatternHits) -> dict[int, Signal]:
    """Share of the query's content mass that a tool's terms (or its matched patterns) explain.

    Concepts weigh their idf over tools (rare terms say more); words the lexicon does not know
    weigh LITERAL_MASS, except for search/detail tools, where they are what is searched for; one the
    tool's description uses, by its rarity there (routing.core.enrich.described: "net" for gst_summary)."""
    content = [(ui, u) for ui, u in enumerate(a.units) if u.role in ("concept", "literal") and u.told != "word"]  # a statement's own words ask nothing
    if not content:
        return {}
    candidates: set[int] = set(patterns.covered)
    for c in a.concepts:
        for t, _ in index.term_postings.get(c, ()):
            candidates.add(t)
    out: dict[int, Signal] = {}
    argument_kinds = index.domain.settings.weights.argument_kinds
    asked_kinds = {k for k, _ in a.actions} | ({"detail"} if record_number(a) else set())
    if search_asked(a, index):
        asked_kinds |= set(index.domain.settings.weights.name_kinds)
    seen_concepts: set[str] = set()
    masses = []
    for ui, u in content:
        if u.role == "concept":
            if u.key in seen_concepts:
                continue
            seen_concepts.add(u.key)
            masses.append((ui, u, index.term_idf.get(u.key, LITERAL_MASS)))
        else:
            masses.append((ui, u, LITERAL_MASS))
    for t in candidates:
        tool, terms = index.tools[t], index.tool_terms[t]
        cov, described = patterns.covered.get(t, set()), index.described_words[t] if index.described_words else None
        total = 0.0
        parts: dict[str, float] = {}
        evidence: list[str] = []
        fuzzy_hits = 0
        own = False
        for ui, u, mass in masses:
            if u.role == "literal" and tool.kind in argument_kinds and tool.kind in asked_kinds and ui not in cov:
                continue  # a name or search term the verb hands to the tool: neither explained nor diluting
            total += mass
            in_terms = u.role == "concept" and u.key in terms
            if ui in cov and not (in_terms and terms[u.key] >= 1.0):
                # A word the tool's own terms do not (fully) explain, explained by its pattern.
                parts["pattern"] = parts.get("pattern", 0.0) + mass
                continue
            if described and u.role == "literal" and u.key in described:  # a word of the tool's own description
                parts["description"] = parts.get("description", 0.0) + mass * described[u.key]
                evidence.append(f"{u.key} (description)")
                continue
            if in_terms:
                share = mass * terms[u.key]
                own = own or terms[u.key] >= 1.0
                parts[u.via] = parts.get(u.via, 0.0) + share
                evidence.append(u.key if u.via == "keyword" else f"{u.key} ({u.surface})")
                fuzzy_hits += u.via == "fuzzy"
        explained = sum(parts.values())
        if total <= 0 or explained <= 0:
            continue
        out[t] = Signal(value=explained / total, parts={k: v / total for k, v in parts.items()}, evidence=evidence,
                        fuzzy_hits=fuzzy_hits, own=own)
    return out


def score_action(a: QueryAnalysis, index: RouterIndex, weights: Weights) -> dict[str, tuple[float, str]]:
    """How well each kind of tool fits what the verbs (or, failing them, the query's shape) ask for:
    kind -> (fit 0..1, why). The same for every tool of a kind, so it is computed per kind.

    A strong verb ("list", "cari", "buat") decides: its kind fits fully, others not at all.
    Without one, every kind is neutral, and a weak verb for the kind ("show"), the domain's default
    kind for a bare noun, and a date range (for kinds that take one) each add a bonus. Two kinds
    are never assumed: a write (create / action) needs a verb that asks for it and a term of the
    lexicon saying what to write (unknown words alone are not one), and a detail view needs
    something to identify the record (a number or a name)."""
    # A verb for a kind no tool has ("pay" where nothing pays) decides nothing: it would rule out every tool.
    strong = {k for k, s in a.actions if s >= 1.0 and k in index.kinds}
    named = {k for k, _ in a.actions if k in index.kinds}
    has_identifier = any(u.role in ("number", "literal") for u in a.units)
    has_number = record_number(a)
    fit: dict[str, tuple[float, str]] = {}
    for kind in index.kinds:
        if strong:
            value, why = (1.0, ["verb"]) if kind in strong else (0.0, [])
            if has_number and kind in strong and kind not in weights.identifier_kinds and strong & set(weights.identifier_kinds):
                value = 1.0 - weights.kind_bonus  # "cek invoice 77": the number says which of the verb's kinds
        elif kind in weights.explicit_kinds and kind not in named:
            value, why = 0.0, []
        elif kind in weights.identifier_kinds and not has_identifier:
            value, why = 0.0, []
        else:
            value, why = weights.kind_neutral, []
            if kind in named:
                value, why = value + weights.kind_bonus, why + ["verb"]
            if not a.actions and not has_number and kind == weights.default_kind:
                value, why = value + weights.kind_bonus, why + [DEFAULT_KIND_REASON]
            if a.dates and a.concepts and kind in weights.date_kinds:  # a date alone asks for nothing ("aaj ka din kaisa hai?")
                value, why = value + weights.kind_bonus, why + ["date range"]
            if has_number and kind in weights.identifier_kinds:
                value, why = value + 2 * weights.kind_bonus, why + ["record number"]
            if kind in weights.name_kinds and search_asked(a, index):
                value, why = value + weights.kind_bonus, why + ["a name"]
        if kind in weights.explicit_kinds and not a.concepts:
            value, why = 0.0, []  # a write needs a word saying what to write: "cara bikin kopi" asks for no invoice
        fit[kind] = (min(value, 1.0), kind + (f" ({', '.join(why)})" if why else ""))
    return fit


def score_example(a: QueryAnalysis, index: RouterIndex) -> dict[int, Signal]:
    """How much the tool's example questions look like the query, in [0, 1]:

    mostly the tool's BM25 score over all its examples as one document, as a share of the best
    score the query's words could reach (words no example uses count against every tool), plus a
    little of the cosine to its nearest single example, which is also named as evidence."""
    if not (a.keys or a.extras) or not index.example_postings:
        return {}
    features = list(dict.fromkeys(index.example_features(a.keys, a.extras)))  # query order: the same sums in every process
    k1 = index.example_k1
    idf = index.example_idf
    scores: dict[int, float] = {}
    reachable = 0.0
    arrays = index.example_arrays  # many examples: the same numbers as array work (routing.core.example_arrays)
    if arrays is not None:  # the loop's sums without its postings, each feature's terms kept per feature
        unseen = (index.example_unseen_share * index.example_vec_unseen) ** 2
        reachable, words_only, squares = arrays.query_terms(idf, k1 + 1, index.example_unseen_share * index.unseen_idf * (k1 + 1),
                                                            index.example_vec_idf, unseen).read(features)
        sentences = sentence_features(a, index) if a.segments else []  # a question of several sentences
        return arrays.score(index, features, reachable, words_only, math.sqrt(squares), sentences)
    for f in features:
        w = idf.get(f)
        if w is None:
            if "+" not in f and f[0] not in "~#":  # an unseen word (unseen bigrams, stop words, shapes say nothing)
                reachable += index.example_unseen_share * index.unseen_idf * (k1 + 1)
            continue
        reachable += w * (k1 + 1)
        for t, tw in index.example_postings[f]:
            scores[t] = scores.get(t, 0.0) + tw
    sentences = sentence_features(a, index) if a.segments else []  # a question of several sentences
    vec_idf = index.example_vec_idf
    unseen = (index.example_unseen_share * index.example_vec_unseen) ** 2
    words_only = [f for f in features if "+" not in f and f[0] not in "~#"]
    if not scores:
        return {}
    if sentences:
        scores = fuse(scores, [_tool_document_scores(fs, index) for fs in sentences])
    leaders = heapq.nlargest(index.example_nearest_tools, scores, key=scores.__getitem__)
    qnorm = math.sqrt(sum(vec_idf[f] ** 2 if f in vec_idf else unseen for f in words_only))
    nearest: dict[int, tuple[float, int]] = {}
    for t in leaders:
        dots: dict[int, float] = {}
        for f in words_only:
            for e, ew in index.example_by_tool_feature.get((t, f), ()):
                dots[e] = dots.get(e, 0.0) + ew * vec_idf[f]
        if dots:
            e = max(dots, key=lambda x: (dots[x], -x))
            nearest[t] = (dots[e] / (qnorm or 1.0), e)
    share = index.example_tool_share
    out: dict[int, Signal] = {}
    for t, score in scores.items():
        cosine, e = nearest.get(t, (0.0, -1))
        value = min(1.0, share * score / (reachable or 1.0) + (1 - share) * min(cosine, 1.0))
        out[t] = Signal(value=value, parts={"example": value}, evidence=[f'"{index.example_text[e]}"'] if e >= 0 else [])
    return out


def _tool_document_scores(features: list[str], index: RouterIndex) -> dict[int, float]:
    scores: dict[int, float] = {}
    for f in features:
        for t, tw in index.example_postings.get(f, ()):
            scores[t] = scores.get(t, 0.0) + tw
    return scores


def score_semantic(a: QueryAnalysis, index: RouterIndex, encoder) -> dict[int, Signal]:
    """Embedding closeness of the query to each tool's examples and description, in [0, 1]
    (routing.semantic.signal). `encoder` is the router's hook; None (no embeddings) scores nothing."""
    if encoder is None:
        return {}
    return encoder.score(a, index)


@dataclass
class Scored:
    tool: int
    confidence: float
    raw: float
    breakdown: dict[str, float]
    evidence: list[str]
    pattern_params: dict
    match_type: str
    # (signal, why) where this candidate, leading, may be lifted to the tier thresholds' `high` at
    # classification (routing.core.sole: its terms point to it alone); () for none
    lift: tuple = ()


def combine(
    index: RouterIndex,
    weights: Weights,
    keyword: dict[int, Signal],
    action: dict[str, tuple[float, str]],
    pattern: dict[int, Signal],
    example: dict[int, Signal],
    semantic: dict[int, Signal],
    learned: dict[int, Signal] | None = None,
    *,
    top: int = 5,
    content_terms: int = 0,
    raw_only: bool = False,
) -> list[Scored] | list[tuple[int, float]]:
    """Weighted sum of the signals for every candidate; the best `top` get their full breakdown
    (`raw_only`: only (tool, raw sum) pairs, in the same order: the dense fusion's lexical list).

    A sum over 1 is scaled down so the breakdown still adds up to the confidence. Ranking is by
    confidence, then by name (A-Z); ties at the cap of 1.0 are broken the same way."""
    learned = learned or {}
    tools = index.tools
    raw: dict[int, float] = {}
    if isinstance(example, ExampleSignals) and math.isfinite(weights.fuzzy_penalty):
        # Many tools with only an example score: their sums as array work, Signals for the few that can rank.
        candidates = set(keyword) | set(pattern) | set(semantic) | set(learned)
        raw = example_only_raw(index, weights, action, example, candidates, top)
    else:
        candidates = set(keyword) | set(pattern) | {t for t, s in example.items() if s.value > 0} | set(semantic) | set(learned)
    for t in candidates:
        total = _weighted_sum(t, tools, weights, keyword, action, pattern, example, semantic, learned)
        if total > 0:
            raw[t] = total
    agreement: dict[int, Signal] = {}
    if weights.agreement > 0 and raw and content_terms >= AGREEMENT_MIN_TERMS:
        leader = _best(raw, tools, 1)[0]
        ruled_out = ruled_out_by_verbs(index, action, leader) if leader in keyword and keyword[leader].own else None
        sig = score_agreement(leader, keyword, example, ruled_out)
        # Only what it lifts below the cap of 1: a leader already there shows no agreement term.
        gain = min(weights.agreement * sig.value, max(0.0, 1.0 - raw[leader])) if sig is not None else 0.0
        if gain > 0:
            agreement[leader] = Signal(value=gain / weights.agreement, parts={"agreement": gain / weights.agreement}, evidence=sig.evidence)
            raw[leader] += gain  # the leader only rises: the ranking stays
    if raw_only:  # _best's rounded key is the rounded sum where the sum is at most 1
        return [(t, r if raw[t] <= 1.0 else round(raw[t], 4)) for t, r in _best(raw, tools, top, keyed=True)]
    return [_scored(t, raw[t], index, weights, keyword, action, pattern, example, semantic, learned, agreement)
            for t in _best(raw, tools, top)]


def scored_for(index: RouterIndex, weights: Weights, tools: list[int], keyword, action, pattern, example, semantic,
               learned=None) -> list[Scored]:
    """combine's Scored (weighted sum and breakdown) for the given tools, in the given order: used
    when the order comes from elsewhere (the z-score fusion of routing.semantic.dense)."""
    learned = learned or {}
    return [_scored(t, max(_weighted_sum(t, index.tools, weights, keyword, action, pattern, example, semantic, learned), 0.0),
                    index, weights, keyword, action, pattern, example, semantic, learned) for t in tools]


def stronger_for(index: RouterIndex, weights: Weights, than: list[Scored], keyword, action, pattern, example, semantic,
                 learned=None) -> list[Scored]:
    """At each place of `than`, scored_for's Scored of the same tool under these weights and signals where
    its confidence is higher, else `than`'s own: the same list as comparing the two scored_for lists, with
    the full Scored (breakdown, evidence) made only where it wins (Router._fused: the dense view)."""
    learned = learned or {}
    out = []
    for s in than:
        total = max(_weighted_sum(s.tool, index.tools, weights, keyword, action, pattern, example, semantic, learned), 0.0)
        if round(min(1.0, total), 4) > s.confidence:  # _scored's confidence
            s = _scored(s.tool, total, index, weights, keyword, action, pattern, example, semantic, learned)
        out.append(s)
    return out


def _weighted_sum(t: int, tools, weights: Weights, keyword, action, pattern, example, semantic, learned) -> float:
    """One candidate's weighted sum of its signals, less the typo penalty (before the cap of 1)."""
    k, p, m, lm = keyword.get(t), pattern.get(t), semantic.get(t), learned.get(t)
    # the example's value alone: its Signal (evidence) made only where a breakdown reads it
    e = example.value_or_none(t) if type(example) is ExampleSignals else getattr(example.get(t), "value", None)
    fuzzy_hits = max(k.fuzzy_hits if k else 0, p.fuzzy_hits if p else 0)
    return ((weights.keyword * k.value if k else 0.0)
            + (weights.pattern * p.value if p else 0.0)
            + weights.action * action.get(tools[t].kind, (0.0, ""))[0]
            + (weights.example * e if e is not None else 0.0)
            + (weights.semantic * m.value if m else 0.0)
            + (weights.learned * lm.value if lm else 0.0)
            - weights.fuzzy_penalty * fuzzy_hits)


_KIND_ARRAYS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def example_only_raw(index: RouterIndex, weights: Weights, action, example: ExampleSignals, others: set[int], top: int) -> dict[int, float]:
    """combine's sum for each tool with an example score and no other signal, `wa * fit + we * value`
    (the loop's sum adds 0.0 for the absent signals, and x + 0.0 == x), kept only where it can rank.

    The other candidates can only raise the top-th best sum, so _best's floor over all candidates
    is at least the floor these alone would set: a tool below that floor (and below the
    (top+1)-th best of these, so _best still sees more than `top` and still applies its floor,
    from the same top-th best) is never chosen."""
    import numpy as np

    fits = [action.get(k, (0.0, ""))[0] for k in index.kinds]
    if fits and fits.count(fits[0]) == len(fits):  # one fit for every kind: the same sums with it as a number
        base = weights.action * fits[0]
        fast = example.leaders_raw(base, weights.example, others, top)
        if fast is not None:
            return fast
        # 0.0 + 1.0 * v == v for the values (0 to 1, never -0.0): the array itself (Seal-Tools: no action weight)
        raw = example.values if base == 0.0 and weights.example == 1.0 else base + weights.example * example.values
    else:
        kind_of = _KIND_ARRAYS.get(index)
        if kind_of is None:  # index.tool_kind as an array, once per index (a list of 4,076 was converted each route)
            kind_of = _KIND_ARRAYS[index] = np.asarray(index.tool_kind, dtype=np.intp)
        raw = weights.action * np.array(fits)[kind_of] + weights.example * example.values
    mask = example.touched & (example.values > 0) & (raw > 0)
    if others:
        mask[list(others)] = False
    ids = mask.nonzero()[0]
    n = len(ids)
    if n > top:
        values = raw[ids]
        ranked = np.partition(values, (n - top - 1, n - top))  # the top-th and (top+1)-th best of these
        floor = round(min(float(ranked[n - top]), 1.0), 4) - 0.00005
        ids = ids[values >= min(floor, float(ranked[n - top - 1]))]
    return dict(zip(ids.tolist(), raw[ids].tolist()))


def _best(raw: dict[int, float], tools, top: int, *, keyed: bool = False) -> list:
    """The `top` best by rounded confidence, ties A-Z by name, without sorting every candidate
    (`keyed`: as (tool, its rounded confidence) pairs)."""
    if len(raw) <= top:
        chosen = list(raw.items())
    else:
        # Everything that could tie with the top-th best once rounded: found with a C-level pass.
        # the top-th largest: a C sort of a few dozen values beats heapq's Python-level heap
        kth = sorted(raw.values(), reverse=True)[top - 1] if len(raw) <= 8 * top else heapq.nlargest(top, raw.values())[-1]
        floor = round(min(kth, 1.0), 4) - 0.00005
        chosen = [(t, v) for t, v in raw.items() if v >= floor]
    # (-rounded, name, tool): names differ, so the tool number never decides (as the key without it)
    ranked = sorted([(-round(1.0 if 1.0 < v else v, 4), tools[t].name, t) for t, v in chosen])[:top]  # min(v, 1.0)
    return [(t, -r) for r, _, t in ranked] if keyed else [t for _, _, t in ranked]



def _scored(t, total, index, weights, keyword, action, pattern, example, semantic, learned, agreement=None) -> Scored:
    parts: dict[str, float] = {}
    evidence: list[str] = []
    k, p = keyword.get(t), pattern.get(t)
    # The signals in the breakdown's order; an absent one adds nothing (a tuple of all seven cost a third of the call).
    for sig, w, label in ((k, weights.keyword, "matched"), (p, weights.pattern, "pattern")):
        if sig is not None:
            _add_parts(parts, evidence, sig, w, label)
    fit, why = action.get(index.tools[t].kind, (0.0, ""))
    if fit > 0 and weights.action > 0:  # the kind's fit: no Signal made for it
        parts["action"] = parts.get("action", 0.0) + weights.action * fit
        evidence.append(f"kind: {why}")
    for sig, w, label in ((example.get(t), weights.example, "like"), (semantic.get(t), weights.semantic, "semantic"),
                          (learned.get(t), weights.learned, "learned"), (agreement.get(t) if agreement else None, weights.agreement, "agree")):
        if sig is not None:
            _add_parts(parts, evidence, sig, w, label)
    fuzzy_hits = max(k.fuzzy_hits if k is not None else 0, p.fuzzy_hits if p is not None else 0)
    if fuzzy_hits:
        parts["fuzzy_penalty"] = -weights.fuzzy_penalty * fuzzy_hits
    scale = 1.0 / total if total > 1.0 else 1.0
    breakdown = {k: round(v * scale, 4) for k, v in parts.items() if abs(v) > 1e-9}
    raw = round(total, 4)
    confidence = raw if total <= 1.0 else 1.0  # round(min(1.0, total), 4)
    # Make the rounded parts add up exactly to the rounded confidence.
    drift = confidence - sum(breakdown.values())
    drift = round(drift, 4) if drift else 0.0  # round(0.0, 4) is 0.0
    if drift and breakdown:
        biggest = max(breakdown, key=breakdown.__getitem__)
        breakdown[biggest] = round(breakdown[biggest] + drift, 4)
    return Scored(
        tool=t,
        confidence=confidence,
        raw=raw,
        breakdown=breakdown,
        evidence=evidence,
        pattern_params=(p.params if p is not None else {}),
        match_type=_match_type(breakdown),
    )


def _add_parts(parts: dict[str, float], evidence: list[str], sig: Signal, w: float, label: str) -> None:
    """One signal's weighted parts added into the breakdown, and its evidence (none where it weighs nothing)."""
    if w <= 0:
        return
    for name, share in sig.parts.items():
        parts[name] = parts.get(name, 0.0) + w * share
    if sig.evidence:
        evidence.append(f"{label}: " + ", ".join(dict.fromkeys(sig.evidence)))


def _match_type(breakdown: dict[str, float]) -> str:
    """The signal that carried the match: a pattern beats a typo fix; then the biggest of the
    lexical terms, the example questions (BM25, `example`) and the embeddings (`semantic`).
    Embeddings that carry with words beside them, or share at least half of the words' part, make
    it `hybrid`. The model trained on the examples (`learned`) counts with the examples."""
    if breakdown.get("pattern", 0) > 0:
        return "pattern"
    if breakdown.get("fuzzy", 0) > 0:
        return "fuzzy"
    lexical = breakdown.get("keyword", 0) + breakdown.get("synonym", 0)
    example = breakdown.get("example", 0) + breakdown.get("learned", 0)
    embedding = breakdown.get("semantic", 0)
    if embedding > 0 and embedding >= example and embedding >= lexical:
        return "hybrid" if lexical > 0 else "semantic"
    if lexical <= 0:
        return "example" if example > 0 else ("semantic" if embedding > 0 else "keyword")
    if example > lexical:
        return "example"
    if embedding >= 0.5 * lexical:
        return "hybrid"
    return "synonym" if breakdown.get("synonym", 0) > breakdown.get("keyword", 0) else "keyword"
