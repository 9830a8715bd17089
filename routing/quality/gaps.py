"""Why a query fell through, and the smallest lexicon edit that might close the gap.

For each query word the lexicon does not know (a token with role "literal"), the nearest known
form by edit similarity: a synonym variant or canonical term (suggest adding the word as a
variant of that canonical term), else a word of a tool's examples (named, for context).
"""
from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz, process

from routing.core.router import Router

MIN_SIMILARITY = 60.0  # below this the "nearest" term is noise; the editor offers the choice instead
MIN_WORD_LEN = 3  # shorter unknown words ("pt", "cv") are names or initials, not gaps


@dataclass(frozen=True)
class Gap:
    word: str  # the query word that matched nothing
    canonical: str | None  # the canonical term to add it under, if any is close
    near: str | None  # the known form it is closest to (a variant, a canonical term or an example word)
    similarity: float  # 0-100
    source: str  # synonym | example | none

    def to_dict(self) -> dict:
        return {"word": self.word, "canonical": self.canonical, "near": self.near, "similarity": round(self.similarity, 1), "source": self.source}


@dataclass(frozen=True)
class SynonymForms:
    forms: tuple[str, ...]  # every canonical term and variant, as written
    owner: tuple[str, ...]  # the canonical term of each form
    example_words: tuple[str, ...]


def synonym_forms(router: Router) -> SynonymForms:
    forms: list[str] = []
    owner: list[str] = []
    for canonical, variants in router.domain.synonyms:
        for form in (canonical.replace("_", " "), *variants):
            forms.append(form.casefold())
            owner.append(canonical)
    example_words = sorted({w for t in router.domain.tools for _, ex in t.examples for w in ex.casefold().split() if w.isalpha()})
    return SynonymForms(tuple(forms), tuple(owner), tuple(example_words))


def unknown_words(result: dict) -> list[str]:
    """The query words that matched nothing, from a route result's tokens, in order, once each."""
    seen: dict[str, None] = {}
    for tok in result.get("tokens") or []:
        if tok.get("role") == "literal" and len(tok.get("text", "")) >= MIN_WORD_LEN and not any(ch.isdigit() for ch in tok["text"]):
            seen.setdefault(tok["text"], None)
    return list(seen)


def nearest_term(word: str, forms: SynonymForms) -> Gap:
    if forms.forms:
        hit = process.extractOne(word, forms.forms, scorer=fuzz.ratio, score_cutoff=MIN_SIMILARITY)
        if hit is not None:
            form, score, i = hit
            return Gap(word, forms.owner[i], form, float(score), "synonym")
    if forms.example_words:
        hit = process.extractOne(word, forms.example_words, scorer=fuzz.ratio, score_cutoff=MIN_SIMILARITY)
        if hit is not None:
            return Gap(word, None, hit[0], float(hit[1]), "example")
    return Gap(word, None, None, 0.0, "none")


def find_gaps(router: Router, result: dict, *, forms: SynonymForms | None = None) -> list[Gap]:
    """One Gap per unknown word of a routed query (`RouteResult.to_dict()`)."""
    forms = forms or synonym_forms(router)
    return [nearest_term(w, forms) for w in unknown_words(result)]


def editor_prefill(domain: str, query: str, gap: Gap | None, canonical: str | None = None) -> dict:
    """The coverage -> editor handoff (st.session_state["editor_prefill"]): add the word as a variant."""
    return {
        "domain": domain,
        "kind": "synonym",
        "canonical": canonical or (gap.canonical if gap else None),
        "variant": gap.word if gap else "",
        "query": query,
    }


# ------------------------------------------------------------------ a coverage run


@dataclass(frozen=True)
class CoverageRow:
    query: str
    expected: str | None
    status: str
    top: str | None
    confidence: float
    path: str
    verdict: str  # as routing.evaluate.judge: ok | empty | wrong_tool | wrong_tier | ...
    detail: str
    timing_ms: float
    gaps: tuple[Gap, ...]
    # The question the router asks back when the matches are an ambiguous name's candidates
    # ("Which Diaz do you mean: ...?"): a clarification, so `top` is None (no tool was hit).
    asks: str = ""

    @property
    def fell_through(self) -> bool:
        return self.status in ("not_found", "needs_clarification")

    @property
    def wrong(self) -> bool:
        return self.verdict != "ok"

    def to_dict(self) -> dict:
        return {
            "query": self.query,
            "expected": self.expected,
            "status": self.status,
            "top": self.top,
            "asks": self.asks,
            "confidence": self.confidence,
            "path": self.path,
            "verdict": self.verdict,
            "detail": self.detail,
            "timing_ms": self.timing_ms,
            "unknown_words": " ".join(g.word for g in self.gaps),
            "suggestion": "; ".join(f"{g.word} -> {g.canonical}" for g in self.gaps if g.canonical),
        }


@dataclass(frozen=True)
class CoverageRun:
    domain: str
    rows: tuple[CoverageRow, ...]
    metrics: dict  # routing.evaluate.Report.metrics()


def run_coverage(router: Router, cases, *, default_today=None, progress=None) -> CoverageRun:
    """Route every case once; keep what a person needs to see and fix each one."""
    from routing.quality.evaluate import Outcome, Report, judge, top_three

    cases = list(cases)
    forms = synonym_forms(router)
    report = Report()
    rows: list[CoverageRow] = []
    for i, case in enumerate(cases):
        result = router.route(case.query, today=case.today or default_today, context=case.context)
        verdict, detail = _coverage_verdict(case, result, *judge(case, result))
        cands = result.ranked_candidates
        confidence = result.top.confidence if result.top else (cands[0]["confidence"] if cands else 0.0)
        top = result.top_tool  # an ambiguous name's candidates are not tools: the row asks instead
        asks = (result.clarifying_question or result.message) if result.asks_which_entity else ""
        report.outcomes.append(
            Outcome(case, verdict, detail, result.top.name if result.top else None, top_three(result), result.status.value, confidence, result.timing_ms, result.path.value)
        )
        gaps = tuple(find_gaps(router, result.to_dict(), forms=forms)) if result.status.value in ("not_found", "needs_clarification", "weak_matches") or verdict != "ok" else ()
        rows.append(CoverageRow(case.query, case.tool, result.status.value, top, confidence, result.path.value, verdict, detail, result.timing_ms, gaps, asks))
        if progress is not None:
            progress(i + 1, len(cases))
    return CoverageRun(router.name, tuple(rows), report.metrics())


def _coverage_verdict(case, result, verdict: str, detail: str) -> tuple[str, str]:
    """Coverage does not flatter: the expected tool found only as a weak match is "weak", not "ok",
    unless the case itself expects the weak tier. (eval's own judge, and its figures, are unchanged.)"""
    if verdict == "ok" and case.tool and not case.status and result.status.value == "weak_matches":
        conf = result.top.confidence if result.top else 0.0
        return "weak", f"{case.tool} found only as a weak match ({conf:.2f})"
    return verdict, detail


def confusion(rows: list[CoverageRow] | tuple[CoverageRow, ...], *, limit: int = 25) -> tuple[list[str], list[str], list[list[int]]]:
    """(expected labels, predicted labels, counts) over labelled rows; with many labels, those
    with the most errors first, at most `limit` of each."""
    labelled = [r for r in rows if r.expected]
    errors: dict[str, int] = {}
    for r in labelled:
        if r.top != r.expected:
            errors[r.expected] = errors.get(r.expected, 0) + 1
            errors[_got(r)] = errors.get(_got(r), 0) + 1
    labels = sorted({r.expected for r in labelled} | {_got(r) for r in labelled})
    if len(labels) > limit:
        labels = sorted(labels, key=lambda x: (-errors.get(x, 0), x))[:limit]
    keep = set(labels)
    y = [x for x in labels if any(r.expected == x for r in labelled)]
    x = labels
    counts = [[0] * len(x) for _ in y]
    yi = {v: i for i, v in enumerate(y)}
    xi = {v: i for i, v in enumerate(x)}
    for r in labelled:
        got = _got(r)
        if r.expected in yi and got in keep:
            counts[yi[r.expected]][xi[got]] += 1
    return y, x, counts


ASKED = "(asked which one)"  # the confusion column of rows that asked back about an ambiguous name


def _got(row: CoverageRow) -> str:
    return row.top or (ASKED if row.asks else "(none)")
