"""Golden corpora and evaluation metrics.

A golden file (`lexicons/<domain>/golden.yaml`, Duckling-style) groups phrasings under one
expected answer:

    today: 2026-01-22              # the reference date for every case (a case may override it)
    cases:
      - expect: {tool: invoice_list, status: activated, params: {status: unpaid}}
        queries: [outstanding invoices, faktur yang belum dibayar]
      - expect: {status: multiple_matches, tools: [invoice_list, invoice_search]}
        queries: [show invoices]
    negative: [launch my rocket to Mars]   # must be not_found

`tool` is the expected top match; `tools` must all be among the top three; `status` the tier;
`params` must be among the top match's suggested parameters; `dates` lists expected ranges.
`error` is the expected error code (null: none). A key of `expect` that names one of the design's
own result fields (RouteResult.design_fields, e.g. `intent: deep`, `depth: L1`) is checked too.
A case block may give a `context:` mapping passed to route (conversation, request options).
`path`, `category` and `model` (the model tier) check the path a tools-design result takes.

A design may keep its corpus as named lists of `{q: ..., expect: NAME}` entries instead (the
mirror's `slang:` and `plain:`): each entry is a case expecting NAME as its top match, grouped by
the list's name.

`accuracy` is the one definition of the figures (top-1, top-3, tier accuracy, balanced accuracy,
tier counts): `eval`, the Coverage page, the threshold tuner and the bench all compute through it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Iterable

from routing.core.errors import LexiconError, Problem
from routing.core.router import Router
from routing.core.schema import RouteResult, Status
from routing.core.yamlio import LineList, read_yaml

STATUSES = {s.value for s in Status}
SHOWN_STATUSES = (Status.ACTIVATED.value, Status.MULTIPLE_MATCHES.value, Status.WEAK_MATCHES.value)
LABEL_COLUMNS = ("expected_tool", "tool", "label", "category", "intent", "expected")


@dataclass(frozen=True)
class GoldenCase:
    query: str
    tool: str | None = None
    tools: tuple[str, ...] = ()
    status: str | None = None
    params: tuple[tuple[str, Any], ...] = ()
    dates: tuple[tuple[str, str], ...] = ()
    today: str | None = None
    line: int = 0
    group: str = ""
    error: str | None = None  # expected error code; "" = expect none (not checked when None)
    fields: tuple[tuple[str, Any], ...] = ()  # expected values of other result fields
    context: dict | None = field(default=None, compare=False, hash=False)  # passed to route
    path: str | None = None
    category: str | None = None
    model: str | None = None

    @property
    def id(self) -> str:
        return f"L{self.line}:{self.query}"


@dataclass(frozen=True)
class Outcome:
    case: GoldenCase
    verdict: str  # ok | empty | wrong_tool | wrong_tier | wrong_params | wrong_dates | not_in_top3
    detail: str
    top: str | None
    top3: tuple[str, ...]
    status: str
    confidence: float
    timing_ms: float
    path: str

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    def metrics(self) -> dict:
        times = sorted(o.timing_ms for o in self.outcomes)
        acc = accuracy((o.case, o.status, o.top, o.top3) for o in self.outcomes)
        paths: dict[str, int] = {}
        for o in self.outcomes:
            paths[o.path] = paths.get(o.path, 0) + 1
        return {
            "n": acc.n,
            "n_labelled": acc.n_labelled,
            "top1": _round(acc.top1),
            "answered_right": _round(acc.answered_right),
            "top3": _round(acc.top3),
            "tier_accuracy": _round(acc.tier_accuracy),
            "balanced": _round(acc.balanced),
            "passed": _ratio(sum(o.ok for o in self.outcomes), len(self.outcomes)),
            "status_counts": {k: v for k, v in sorted(acc.counts.items()) if v},
            "path_counts": dict(sorted(paths.items())),
            "p50_ms": round(percentile(times, 50), 3),
            "p99_ms": round(percentile(times, 99), 3),
            "failures": [
                {"query": o.case.query, "verdict": o.verdict, "detail": o.detail}
                for o in self.outcomes
                if not o.ok
            ],
        }


@dataclass(frozen=True)
class Accuracy:
    """The figures of one run (fractions, unrounded; None where no case says what to expect)."""
    n: int
    n_labelled: int  # cases with an expected tool
    top1: float | None  # the best candidate is the expected tool, whatever the tier
    top3: float | None
    tier_accuracy: float | None
    balanced: float | None  # with negatives: mean of in-scope answered right and negatives rejected
    counts: dict[str, int]  # every status -> number of cases
    answered_right: float | None = None  # not rejected (a tier that shows matches) and the expected tool first

    @property
    def shares(self) -> dict[str, float]:
        return {k: (v / self.n if self.n else 0.0) for k, v in self.counts.items()}


def tier_right(case: GoldenCase, status: str, top: str | None) -> bool | None:
    """Whether a case got the right tier. A case with an expected tier: that tier. A case labelled
    with a tool only: any tier that shows the tool first is right, and a wrong tool must not take
    the fast path (activated). None: the case says nothing about the tier."""
    if case.status:
        return status == case.status
    if case.tool:
        if top == case.tool:
            return status in SHOWN_STATUSES
        return status != Status.ACTIVATED.value
    return None


def accuracy(rows: Iterable[tuple[GoldenCase, str, str | None, tuple[str, ...]]]) -> Accuracy:
    """The one evaluation: rows of (case, status routed, top match shown or None, top three names)."""
    counts = {s.value: 0 for s in Status}
    n = tier_ok = tier_n = top_ok = answered_ok = top3_ok = top_n = neg_ok = neg_n = 0
    for case, status, top, top3 in rows:
        n += 1
        counts[status] = counts.get(status, 0) + 1
        shown_top = top if status in SHOWN_STATUSES else None
        right = tier_right(case, status, shown_top)
        if right is not None:
            tier_n += 1
            tier_ok += right
        if case.tool:
            top_n += 1
            top_ok += bool(top3) and top3[0] == case.tool  # top-1: the best candidate, whatever the tier
            answered_ok += shown_top == case.tool  # answered right: not rejected, and right
            top3_ok += case.tool in top3
        elif case.status == Status.NOT_FOUND.value:
            neg_n += 1
            neg_ok += status not in SHOWN_STATUSES
    return Accuracy(
        n=n,
        n_labelled=top_n,
        top1=top_ok / top_n if top_n else None,
        top3=top3_ok / top_n if top_n else None,
        tier_accuracy=tier_ok / tier_n if tier_n else None,
        balanced=(answered_ok / top_n + neg_ok / neg_n) / 2 if top_n and neg_n else None,
        counts=counts,
        answered_right=answered_ok / top_n if top_n else None,
    )


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 4)


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def percentile(sorted_values: list[float], pct: float) -> float:
    if not sorted_values:
        return 0.0
    if len(sorted_values) == 1:
        return sorted_values[0]
    k = (len(sorted_values) - 1) * pct / 100.0
    lo = int(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


# ------------------------------------------------------------------ loading


def load_golden(path: Path | str) -> list[GoldenCase]:
    path = Path(path)
    label = str(path)
    return golden_cases(read_yaml(path, label), label)


def golden_cases(data, label: str) -> list[GoldenCase]:
    """The cases of a parsed golden file (routing.core.yamlio data, with line numbers)."""
    if not isinstance(data, dict):
        raise LexiconError([Problem(label, 1, "a golden file must have cases: and negative:")])
    today = data.get("today")
    out: list[GoldenCase] = []
    problems: list[Problem] = []
    cases = data.get("cases") or []
    for i, block in enumerate(cases):
        line = cases.line_of(i) if isinstance(cases, LineList) else 0
        if not isinstance(block, dict) or not isinstance(block.get("expect"), dict):
            problems.append(Problem(label, line, "each case needs expect: and queries:"))
            continue
        e = block["expect"]
        status = e.get("status")
        if status is not None and status not in STATUSES:
            problems.append(Problem(label, line, f"unknown status {status!r}"))
        queries = block.get("queries") or []
        if isinstance(queries, str):
            queries = [queries]
        elif not isinstance(queries, list):
            problems.append(Problem(label, line, "queries: must be a list of questions"))
            continue
        qlines = queries if isinstance(queries, LineList) else None
        case_today = block.get("today") or today
        if case_today:
            try:
                date.fromisoformat(str(case_today))
            except ValueError:
                problems.append(Problem(label, line, f"today: {case_today!r} is not a date (YYYY-MM-DD)"))
                continue
        expected_dates = e.get("dates") or []
        if not all(isinstance(d, dict) and "start" in d and "end" in d for d in expected_dates):
            problems.append(Problem(label, line, "each expected date needs start: and end:"))
            continue
        known_keys = {"tool", "tools", "status", "params", "dates", "error", "path", "category", "model"}
        expected_error = ("" if e["error"] is None else str(e["error"])) if "error" in e else None
        context = block.get("context")
        if context is not None and not isinstance(context, dict):
            problems.append(Problem(label, line, "context: must be a mapping"))
            continue
        for j, q in enumerate(queries):
            out.append(
                GoldenCase(
                    query=str(q),
                    tool=e.get("tool"),
                    tools=tuple(e.get("tools") or ()),
                    status=status,
                    params=tuple((e.get("params") or {}).items()),
                    dates=tuple((str(d["start"]), str(d["end"])) for d in expected_dates),
                    today=str(block.get("today") or today or "") or None,
                    line=qlines.line_of(j) if qlines is not None else line,
                    group=str(block.get("group") or e.get("tool") or status or ""),
                    error=expected_error,
                    fields=tuple((k, v) for k, v in e.items() if k not in known_keys),
                    context=dict(context) if context else None,
                    path=e.get("path"),
                    category=e.get("category"),
                    model=e.get("model"),
                )
            )
    out += _named_lists(data, label, today, problems)
    neg = data.get("negative") or []
    for j, q in enumerate(neg):
        out.append(
            GoldenCase(
                query=str(q),
                status=Status.NOT_FOUND.value,
                today=str(today) if today else None,
                line=neg.line_of(j) if isinstance(neg, LineList) else 0,
                group="negative",
            )
        )
    if problems:
        raise LexiconError(problems)
    return out


def _named_lists(data: dict, label: str, today, problems: list[Problem]) -> list[GoldenCase]:
    """Cases from lists of `{q: question, expect: name}` (the mirror's `slang:` / `plain:`)."""
    out: list[GoldenCase] = []
    for part, entries in data.items():
        if part in ("cases", "negative", "today") or not isinstance(entries, list):
            continue
        if not entries or not all(isinstance(e, dict) and "q" in e for e in entries):
            continue  # not a list of questions (some other key a design keeps)
        for j, e in enumerate(entries):
            line = entries.line_of(j) if isinstance(entries, LineList) else 0
            want = e.get("expect")
            if not isinstance(want, str) or not str(e["q"]).strip():
                problems.append(Problem(label, line, f"each entry of {part}: needs q: and expect: (the name it must reach)"))
                continue
            out.append(GoldenCase(query=str(e["q"]), tool=want, today=str(today) if today else None, line=line, group=str(part)))
    return out


def load_labelled_csv(path: Path | str, *, text_col: str = "text", label_col: str | None = "auto") -> list[GoldenCase]:
    """Queries from a CSV (or a plain text file, one query a line): the importer's reader
    (routing.quality.importer.read_queries), so every page and command reads a file the same way.
    A missing text column raises ValueError naming the columns the file has."""
    from routing.quality.importer import read_queries  # imported here: the importer imports this module

    path = Path(path)
    return read_queries(path.read_bytes(), is_csv=path.suffix.lower() == ".csv", text_col=text_col, label_col=label_col)


# ------------------------------------------------------------------ running


def top_three(result: RouteResult) -> tuple[str, ...]:
    """The three best names of a result: its ranked candidates, else its matches."""
    return tuple(c["name"] for c in result.ranked_candidates[:3]) or tuple(m.name for m in result.matches[:3])


def judge(case: GoldenCase, result: RouteResult) -> tuple[str, str]:
    """(verdict, detail): what went wrong, named the way a person would."""
    top = result.top.name if result.top else None
    ranked = list(top_three(result))
    if case.tool and top is None:
        return "empty", f"expected {case.tool}, got no match ({result.status.value})"
    if case.tool and top != case.tool:
        return "wrong_tool", f"expected {case.tool}, got {top} ({result.status.value})"
    missing = [t for t in case.tools if t not in ranked]
    if missing:
        return "not_in_top3", f"expected {missing} among the top three, got {ranked}"
    if case.status and result.status.value != case.status:
        return "wrong_tier", f"expected {case.status}, got {result.status.value} (top {top} {result.top.confidence if result.top else 0:.2f})"
    if case.params and result.top:
        got = result.top.suggested_params
        wrong = {k: (v, got.get(k)) for k, v in case.params if str(got.get(k)) != str(v)}
        if wrong:
            return "wrong_params", "; ".join(f"{k}: expected {v}, got {g}" for k, (v, g) in wrong.items())
    if case.error is not None:
        got_error = result.error.code if result.error else ""
        if got_error != case.error:
            return "wrong_error", f"expected error {case.error or 'none'}, got {got_error or 'none'}"
    own = result.design_fields.to_dict() if case.fields and result.design_fields is not None else {}
    if own:  # only a design's own fields are checked (other keys of expect are left to their own tests)
        wrong_fields = [(k, v, own[k]) for k, v in case.fields if k in own and own[k] != v]
        if wrong_fields:
            return "wrong_field", "; ".join(f"{k}: expected {v!r}, got {g!r}" for k, v, g in wrong_fields)
    if case.dates:
        got_dates = [(d.get("start"), d.get("end")) for d in result.dates]
        if list(case.dates) != got_dates:
            return "wrong_dates", f"expected {list(case.dates)}, got {got_dates}"
    for name, want in (("path", case.path), ("category", case.category), ("model", case.model)):
        got = _path_field(result, name)
        if want is not None and got != want:
            return f"wrong_{name}", f"expected {name} {want}, got {got}"
    return "ok", ""


def _path_field(result: RouteResult, name: str):
    """path / category / model tier of a result, wherever the result keeps it."""
    if name == "path":
        return result.path.value
    if name == "model":
        got = getattr(result, "model_tier", None)
        return got if got is not None else (result.extra or {}).get("model_tier")
    return getattr(result, name, None)


def run_cases(router: Router, cases: Iterable[GoldenCase], *, default_today: str | None = None, progress=None) -> Report:
    report = Report()
    cases = list(cases)
    for i, case in enumerate(cases):
        result = router.route(case.query, today=case.today or default_today, context=case.context)
        verdict, detail = judge(case, result)
        cands = result.ranked_candidates
        report.outcomes.append(
            Outcome(
                case=case,
                verdict=verdict,
                detail=detail,
                top=result.top.name if result.top else None,
                top3=top_three(result),
                status=result.status.value,
                confidence=result.top.confidence if result.top else (cands[0]["confidence"] if cands else 0.0),
                timing_ms=result.timing_ms,
                path=result.path.value,
            )
        )
        if progress is not None:
            progress(i + 1, len(cases))
    return report


def golden_path(router: Router) -> Path:
    return router.domain.root / "golden.yaml"
