"""Impact preview: what an edit would change, before it is written.

Runs the domain's golden corpus (or, without one, every tool's example questions) through the
router as it is and through a router built from the edited lexicon in memory, and reports each
query that routes differently (another top tool, tier or suggested parameters) as fixed,
regressed or changed, with before / after, beside the YAML diff that would be written.

    report = preview_impact("accounting", [edit])
    report.summary      # "3 queries route differently: 2 fixed, 1 regressed"
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Iterable

from routing.core.errors import LexiconError, Problem
from routing.quality.evaluate import GoldenCase, judge, load_golden
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, load_domain
from routing.core.router import Router
from routing.editing.files import FileEdit
from routing.editing.edits import read_patterns, read_synonyms

__all__ = ["ImpactReport", "QueryChange", "RouteSummary", "impact_cases", "preview_impact", "probe_queries", "compare_routers"]


@dataclass(frozen=True)
class RouteSummary:
    """How one query routed: what a person compares before and after."""

    top: str | None
    status: str
    confidence: float
    params: tuple[tuple[str, Any], ...]
    verdict: str  # ok, or what the golden corpus says is wrong (wrong_tool, wrong_tier, ...)
    detail: str

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"

    @property
    def label(self) -> str:
        head = self.top or "no match"
        return f"{head} ({self.status.replace('_', ' ')}, {self.confidence:.2f})"

    def to_dict(self) -> dict:
        return {
            "top": self.top,
            "status": self.status,
            "confidence": self.confidence,
            "params": dict(self.params),
            "verdict": self.verdict,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class QueryChange:
    query: str
    kind: str  # fixed | regressed | changed
    expected: str  # the golden expectation in words ("" for a probe query without one)
    before: RouteSummary
    after: RouteSummary

    def to_dict(self) -> dict:
        return {"query": self.query, "kind": self.kind, "expected": self.expected, "before": self.before.to_dict(), "after": self.after.to_dict()}


@dataclass(frozen=True)
class ImpactReport:
    domain: str
    source: str  # where the queries came from: "golden.yaml" or "tool examples"
    n_queries: int
    changes: tuple[QueryChange, ...] = ()
    diffs: dict[str, str] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()
    passed_before: int = 0
    passed_after: int = 0

    @property
    def valid(self) -> bool:
        return not self.problems

    def count(self, kind: str) -> int:
        return sum(c.kind == kind for c in self.changes)

    @property
    def fixed(self) -> int:
        return self.count("fixed")

    @property
    def regressed(self) -> int:
        return self.count("regressed")

    @property
    def changed(self) -> int:
        return self.count("changed")

    @property
    def summary(self) -> str:
        if self.problems:
            n = len(self.problems)
            return f"The edit has {n} problem{'s' if n != 1 else ''} to fix before it can be previewed or saved."
        n = len(self.changes)
        if not n:
            return f"No query routes differently ({self.n_queries} checked from {self.source})."
        parts = [f"{k} {name}" for k, name in ((self.fixed, "fixed"), (self.regressed, "regressed"), (self.changed, "changed")) if k]
        verb = "query routes" if n == 1 else "queries route"
        return f"{n} {verb} differently: " + ", ".join(parts)

    def to_dict(self) -> dict:
        return {
            "domain": self.domain,
            "source": self.source,
            "n_queries": self.n_queries,
            "summary": self.summary,
            "fixed": self.fixed,
            "regressed": self.regressed,
            "changed": self.changed,
            "passed_before": self.passed_before,
            "passed_after": self.passed_after,
            "changes": [c.to_dict() for c in self.changes],
            "diffs": dict(self.diffs),
            "problems": [p.to_dict() for p in self.problems],
        }


def impact_cases(router: Router) -> tuple[list[GoldenCase], str]:
    """The domain's golden corpus; a domain without one is checked on its tools' examples."""
    golden = router.domain.root / "golden.yaml"
    if golden.exists():
        return load_golden(golden), "golden.yaml"
    cases = [GoldenCase(query=text, tool=t.name, group=t.name) for t in router.domain.tools for _, text in t.examples]
    return cases, "tool examples"


def probe_queries(edits: Iterable[FileEdit]) -> list[str]:
    """Queries the golden corpus may not contain but the edit is about: each added variant or
    canonical term, and each new pattern phrase."""
    out: list[str] = []
    for e in edits:
        if not e.changed:
            continue
        new_snapshot = _with_text(e)
        if e.file == "synonyms.yaml":
            before, after = read_synonyms(e.snapshot), read_synonyms(new_snapshot)
            for canon, variants in after.items():
                old = set(before.get(canon, []))
                if canon not in before:
                    out.append(canon.replace("_", " "))
                out += [v for v in variants if v not in old]
        elif e.file == "patterns.yaml":
            old = read_patterns(e.snapshot)
            out += [p["phrase"] for p in read_patterns(new_snapshot) if p not in old and isinstance(p.get("phrase"), str)]
    return list(dict.fromkeys(out))


def _with_text(edit: FileEdit):
    from dataclasses import replace

    return replace(edit.snapshot, text=edit.new_text)


def _summary(case: GoldenCase, result) -> RouteSummary:
    verdict, detail = judge(case, result)
    top = result.top
    cands = result.ranked_candidates
    confidence = top.confidence if top else (cands[0]["confidence"] if cands else 0.0)
    params = tuple(sorted((top.suggested_params or {}).items())) if top else ()
    return RouteSummary(top.name if top else None, result.status.value, round(float(confidence), 3), params, verdict, detail)


def _expected(case: GoldenCase) -> str:
    parts = []
    if case.tool:
        parts.append(case.tool)
    if case.tools:
        parts.append("one of " + ", ".join(case.tools))
    if case.status:
        parts.append(case.status.replace("_", " "))
    if case.params:
        parts.append(", ".join(f"{k}={v}" for k, v in case.params))
    return "; ".join(parts)


def compare_routers(
    before: Router, after: Router, cases: list[GoldenCase], *, today: date | str | None = None
) -> tuple[list[QueryChange], int, int]:
    """(changes, passed before, passed after) over `cases`."""
    changes: list[QueryChange] = []
    passed_before = passed_after = 0
    for case in cases:
        ref = case.today or today
        b = _summary(case, before.route(case.query, today=ref))
        a = _summary(case, after.route(case.query, today=ref))
        passed_before += b.ok
        passed_after += a.ok
        if (b.top, b.status, b.params) == (a.top, a.status, a.params):
            continue
        kind = "fixed" if a.ok and not b.ok else "regressed" if b.ok and not a.ok else "changed"
        changes.append(QueryChange(case.query, kind, _expected(case), b, a))
    order = {"regressed": 0, "fixed": 1, "changed": 2}
    changes.sort(key=lambda c: order[c.kind])  # regressions first: they are what must be looked at
    return changes, passed_before, passed_after


def preview_impact(
    domain: str,
    edits: list[FileEdit],
    *,
    root: Path | str | None = None,
    today: date | str | None = None,
    extra_queries: Iterable[str] = (),
    before: Router | None = None,
    cases: list[GoldenCase] | None = None,
) -> ImpactReport:
    """Validate the edits in memory and compare routing before and after over the golden corpus
    plus `extra_queries` and the edit's own probe queries. Nothing is written."""
    root = Path(root) if root is not None else DEFAULT_LEXICON_ROOT
    diffs = {e.file: e.diff() for e in edits if e.changed}
    before = before or Router(load_domain(domain, root))
    if cases is None:
        cases, source = impact_cases(before)
    else:
        source = "the given queries"
    known = {c.query for c in cases}
    extra = [q for q in [*extra_queries, *probe_queries(edits)] if q and q.strip() and q not in known]
    all_cases = list(cases) + [GoldenCase(query=q, group="probe") for q in dict.fromkeys(extra)]
    overrides: dict[str, Any] = {}
    try:
        for e in edits:
            overrides[e.file] = e.parsed()
        after = Router(load_domain(domain, root, overrides=overrides), date_lexicon=before.date_lexicon)
    except LexiconError as exc:
        return ImpactReport(domain, source, len(all_cases), diffs=diffs, problems=tuple(exc.problems))
    changes, passed_before, passed_after = compare_routers(before, after, all_cases, today=today)
    return ImpactReport(domain, source, len(all_cases), tuple(changes), diffs, (), passed_before, passed_after)
