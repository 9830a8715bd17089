"""The scoring signals. Each is a small function of the same shape:

    signal(analysis, index) -> {tool_index: Signal}

where `Signal.value` is in [0, 1] and `Signal.parts` splits it among breakdown names. `combine`
weighs them with the domain's `scoring:` weights into a confidence whose breakdown adds up to it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .index import LITERAL_MASS, QueryAnalysis, RouterIndex
from .lexicon import Weights
from .patterns import search_with_timeout

SEARCH_KINDS = ("search", "detail")


@dataclass
class Signal:
    value: float = 0.0
    parts: dict[str, float] = field(default_factory=dict)  # breakdown name -> share of value
    evidence: list[str] = field(default_factory=list)
    params: dict = field(default_factory=dict)
    fuzzy_hits: int = 0


@dataclass
class PatternHits:
    by_tool: dict[int, Signal]
    covered: dict[int, set[int]]  # tool -> unit indexes explained by its patterns
    timeouts: list[str]


def match_patterns(a: QueryAnalysis, index: RouterIndex) -> PatternHits:
    """Phrase patterns match content keys in order; term patterns a set of concepts; regexes the text."""
    by_tool: dict[int, Signal] = {}
    covered: dict[int, set[int]] = {}
    timeouts: list[str] = []
    # Phrases match in order over every word but dates and numbers, stop words included: they
    # carry direction in idioms ("who owes me" vs "who do i owe").
    content = [(ui, u) for ui, u in enumerate(a.units) if u.role not in ("date", "number")]
    seq = [u.key for _, u in content]

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
            n = len(cp.keys)
            if tuple(seq[pos : pos + n]) == cp.keys:
                span = [content[pos + j][0] for j in range(n)]
                hit(cp, set(span), sum(a.units[ui].via == "fuzzy" for ui in span))
    if index.term_patterns:
        present = set(a.concepts)
        for cp in index.term_patterns:
            if cp.terms <= present:
                span = {ui for ui, u in enumerate(a.units) if u.role == "concept" and u.key in cp.terms}
                hit(cp, span, sum(a.concepts[t] == "fuzzy" for t in cp.terms))
    for cp in index.regex_patterns:
        matched, timed_out = search_with_timeout(cp.regex, a.text)
        if timed_out:
            timeouts.append(cp.label)
        elif matched:
            hit(cp, set(), 0)
    return PatternHits(by_tool, covered, timeouts)


def score_keyword(a: QueryAnalysis, index: RouterIndex, patterns: PatternHits) -> dict[int, Signal]:
    """Share of the query's content mass that a tool's terms (or its matched patterns) explain.

    Concepts weigh their idf over tools (rare terms say more); words the lexicon does not know
    weigh LITERAL_MASS, except for search/detail tools, where they are what is searched for."""
    content = [(ui, u) for ui, u in enumerate(a.units) if u.role in ("concept", "literal")]
    if not content:
        return {}
    candidates: set[int] = set(patterns.covered)
    for c in a.concepts:
        for t, _ in index.term_postings.get(c, ()):
            candidates.add(t)
    out: dict[int, Signal] = {}
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
        tool = index.tools[t]
        terms = index.tool_terms[t]
        cov = patterns.covered.get(t, set())
        total = 0.0
        parts: dict[str, float] = {}
        evidence: list[str] = []
        fuzzy_hits = 0
        for ui, u, mass in masses:
            if u.role == "literal" and tool.kind in SEARCH_KINDS and ui not in cov:
                continue  # the search term itself: neither explained nor diluting
            total += mass
            in_terms = u.role == "concept" and u.key in terms
            if ui in cov and not (in_terms and terms[u.key] >= 1.0):
                # A word the tool's own terms do not (fully) explain, explained by its pattern.
                parts["pattern"] = parts.get("pattern", 0.0) + mass
                continue
            if in_terms:
                share = mass * terms[u.key]
                parts[u.via] = parts.get(u.via, 0.0) + share
                evidence.append(u.key if u.via == "keyword" else f"{u.key} ({u.surface})")
                fuzzy_hits += u.via == "fuzzy"
        explained = sum(parts.values())
        if total <= 0 or explained <= 0:
            continue
        out[t] = Signal(
            value=explained / total,
            parts={k: v / total for k, v in parts.items()},
            evidence=evidence,
            fuzzy_hits=fuzzy_hits,
        )
    return out


def score_action(a: QueryAnalysis, index: RouterIndex, candidates: set[int], weights: Weights) -> dict[int, Signal]:
    """How well the tool's kind fits what the verbs (or, failing them, the query's shape) ask for.

    A strong verb ("list", "cari", "buat") decides: its kind fits fully, others not at all.
    Without one, every kind is neutral, and a weak verb for the kind ("show"), the domain's default
    kind for a bare noun, and a date range (for kinds that take one) each add a bonus. Two kinds
    are never assumed: a write (create / action) needs a verb that asks for it, and a detail view
    needs something to identify the record (a number or a name)."""
    strong = {k for k, s in a.actions if s >= 1.0}
    named = {k for k, _ in a.actions}
    has_identifier = any(u.role in ("number", "literal") for u in a.units)
    has_number = any(u.role == "number" for u in a.units)
    fit: dict[str, tuple[float, list[str]]] = {}
    out: dict[int, Signal] = {}
    for t in candidates:
        kind = index.tools[t].kind
        if kind not in fit:
            if strong:
                value, why = (1.0, ["verb"]) if kind in strong else (0.0, [])
            elif kind in weights.explicit_kinds and kind not in named:
                value, why = 0.0, []
            elif kind in weights.identifier_kinds and not has_identifier:
                value, why = 0.0, []
            else:
                value, why = weights.kind_neutral, []
                if kind in named:
                    value, why = value + weights.kind_bonus, why + ["verb"]
                if not a.actions and not has_number and kind == weights.default_kind:
                    value, why = value + weights.kind_bonus, why + ["default kind"]
                if a.dates and kind in weights.date_kinds:
                    value, why = value + weights.kind_bonus, why + ["date range"]
                if has_number and kind in weights.identifier_kinds:
                    value, why = value + 2 * weights.kind_bonus, why + ["record number"]
            fit[kind] = (min(value, 1.0), why)
        value, why = fit[kind]
        if value > 0:
            out[t] = Signal(value=value, parts={"action": value}, evidence=[f"{kind}" + (f" ({', '.join(why)})" if why else "")])
    return out


def score_example(a: QueryAnalysis, index: RouterIndex) -> dict[int, Signal]:
    """Cosine similarity (idf-weighted bags of content keys) to the tool's nearest example question."""
    keys = set(a.keys)
    if not keys or not index.example_postings:
        return {}
    dots: dict[int, float] = {}
    qnorm2 = 0.0
    for k in keys:
        idf = index.example_idf.get(k)
        if idf is None:
            qnorm2 += index.unseen_idf**2 * 0.25  # an unseen word counts, at a quarter of its weight
            continue
        qnorm2 += idf * idf
        for e, w in index.example_postings[k]:
            dots[e] = dots.get(e, 0.0) + idf * w
    if not dots:
        return {}
    qnorm = math.sqrt(qnorm2)
    best: dict[int, tuple[float, int]] = {}
    norms = index.example_norm
    tools = index.example_tool
    for e, dot in dots.items():
        sim = dot / (qnorm * norms[e])
        t = tools[e]
        if sim > best.get(t, (0.0, -1))[0]:
            best[t] = (sim, e)
    return {
        t: Signal(value=min(sim, 1.0), parts={"example": min(sim, 1.0)}, evidence=[f'"{index.example_text[e]}"'])
        for t, (sim, e) in best.items()
    }


@dataclass
class Scored:
    tool: int
    confidence: float
    raw: float
    breakdown: dict[str, float]
    evidence: list[str]
    pattern_params: dict
    match_type: str


def combine(
    index: RouterIndex,
    weights: Weights,
    keyword: dict[int, Signal],
    action: dict[int, Signal],
    pattern: dict[int, Signal],
    example: dict[int, Signal],
    semantic: dict[int, Signal],
) -> list[Scored]:
    """Weighted sum of the signals; a sum over 1 is scaled down so the breakdown still adds up."""
    candidates = set(keyword) | set(pattern) | {t for t, s in example.items() if s.value > 0} | set(semantic)
    out: list[Scored] = []
    for t in candidates:
        parts: dict[str, float] = {}
        evidence: list[str] = []
        for sig, w, label in (
            (keyword.get(t), weights.keyword, "matched"),
            (pattern.get(t), weights.pattern, "pattern"),
            (action.get(t), weights.action, "kind"),
            (example.get(t), weights.example, "like"),
            (semantic.get(t), weights.semantic, "semantic"),
        ):
            if sig is None or w <= 0:
                continue
            for name, share in sig.parts.items():
                parts[name] = parts.get(name, 0.0) + w * share
            if sig.evidence:
                evidence.append(f"{label}: " + ", ".join(dict.fromkeys(sig.evidence)))
        fuzzy_hits = max((keyword.get(t) or Signal()).fuzzy_hits, (pattern.get(t) or Signal()).fuzzy_hits)
        if fuzzy_hits:
            parts["fuzzy_penalty"] = -weights.fuzzy_penalty * fuzzy_hits
        raw = sum(parts.values())
        if raw <= 0:
            continue
        scale = 1.0 / raw if raw > 1.0 else 1.0
        breakdown = {k: round(v * scale, 4) for k, v in parts.items() if abs(v) > 1e-9}
        confidence = round(min(1.0, raw), 4)
        # Make the rounded parts add up exactly to the rounded confidence.
        drift = round(confidence - sum(breakdown.values()), 4)
        if drift and breakdown:
            biggest = max(breakdown, key=lambda k: breakdown[k])
            breakdown[biggest] = round(breakdown[biggest] + drift, 4)
        out.append(
            Scored(
                tool=t,
                confidence=confidence,
                raw=round(raw, 4),
                breakdown=breakdown,
                evidence=evidence,
                pattern_params=(pattern.get(t).params if t in pattern else {}),
                match_type=_match_type(breakdown),
            )
        )
    out.sort(key=lambda s: (-s.confidence, index.tools[s.tool].name))
    return out


def _match_type(breakdown: dict[str, float]) -> str:
    """The signal that carried the match: a pattern beats a typo fix beats a synonym beats a keyword."""
    if breakdown.get("pattern", 0) > 0:
        return "pattern"
    if breakdown.get("fuzzy", 0) > 0:
        return "fuzzy"
    lexical = breakdown.get("keyword", 0) + breakdown.get("synonym", 0)
    semantic = breakdown.get("example", 0) + breakdown.get("semantic", 0)
    if lexical <= 0:
        return "semantic"
    if semantic > lexical:
        return "hybrid"
    return "synonym" if breakdown.get("synonym", 0) > breakdown.get("keyword", 0) else "keyword"
