"""Threshold tuning on a labelled set: what each tier threshold does to accuracy and tier shares.

Every query is scored once (`score_cases`); a sweep then re-classifies the stored scores for
each threshold value with the router's own `classify`, so sweeping 4 x 101 values costs a few
hundred thousand comparisons, not 404 routing passes.

What counts as right:
- top-1: the tier shows matches (activated / multiple / weak) and the first is the expected tool;
- tier: the expected status when the case has one; for a case labelled with a tool only, the fast
  path exactly when the top tool is right (activated if right, any other tier if wrong);
- balanced: with negatives (rows labelled oos / none / empty, golden `negative:`), the mean of
  in-scope accuracy (shown and right) and the share of negatives rejected (nothing shown). A sweep's
  best value maximises it when the set has negatives, so rejecting everything or nothing never wins.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from typing import Callable, Iterable

from routing.core.clock import parse_today
from routing.core.index import QueryAnalysis
from routing.core.model import Thresholds
from routing.core.router import Router, classify, validate_query
from routing.core.schema import Status
from routing.core.scoring import Scored
from routing.quality.evaluate import GoldenCase

THRESHOLD_NAMES = ("high", "medium", "low", "margin")
SHOWN = (Status.ACTIVATED, Status.MULTIPLE_MATCHES, Status.WEAK_MATCHES)
SWEEP_STEP = 0.01


@dataclass(frozen=True)
class ScoredCase:
    case: GoldenCase
    analysis: QueryAnalysis | None  # None: the query could not be routed at all (empty, too long)
    scored: tuple[Scored, ...]  # the best few candidates, best first
    top_name: str | None

    def status(self, th: Thresholds) -> Status:
        if self.analysis is None:
            return Status.NOT_FOUND
        return classify(list(self.scored), self.analysis, th)


@dataclass(frozen=True)
class SweepPoint:
    value: float
    valid: bool  # False where the value breaks low <= medium <= high
    tier_accuracy: float | None
    top1: float | None
    shares: dict[str, float]  # status -> share of all cases
    balanced: float | None = None  # balanced accuracy (in-scope right vs negatives rejected), with negatives


@dataclass(frozen=True)
class Sweep:
    name: str
    current: float
    best: float
    points: tuple[SweepPoint, ...]

    def at(self, value: float) -> SweepPoint:
        return min(self.points, key=lambda p: abs(p.value - value))


@dataclass(frozen=True)
class TuningReport:
    current: Thresholds
    sweeps: dict[str, Sweep] = field(default_factory=dict)

    @property
    def best(self) -> Thresholds:
        """Each threshold at its own best, the others held at their current values (and ordered)."""
        values = {n: s.best for n, s in self.sweeps.items()}
        return ordered_thresholds(values, self.current)


@dataclass(frozen=True)
class Evaluation:
    n: int
    n_labelled: int
    tier_accuracy: float | None
    top1: float | None
    counts: dict[str, int]
    balanced: float | None = None

    @property
    def shares(self) -> dict[str, float]:
        return {k: (v / self.n if self.n else 0.0) for k, v in self.counts.items()}


def score_cases(
    router: Router,
    cases: Iterable[GoldenCase],
    *,
    default_today: date | str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[ScoredCase]:
    """Analyse and score every query once; classify later for any thresholds."""
    cases = list(cases)
    out: list[ScoredCase] = []
    for i, case in enumerate(cases):
        if validate_query(case.query) is not None:
            out.append(ScoredCase(case, None, (), None))
        else:
            extra = {"context": case.context} if case.context else {}  # a conversation turn (design intent_tiers)
            a = router.analyze(case.query, today=parse_today(case.today or default_today), **extra)
            scored = tuple(router.score(a))
            top = router.index.tools[scored[0].tool].name if scored else None
            out.append(ScoredCase(case, a, scored, top))
        if progress is not None:
            progress(i + 1, len(cases))
    return out


def _tier_right(sc: ScoredCase, status: Status) -> bool | None:
    if sc.case.status:
        return status.value == sc.case.status
    if sc.case.tool:
        right_tool = sc.top_name == sc.case.tool
        return (status is Status.ACTIVATED) == right_tool
    return None


def evaluate(scored: list[ScoredCase], th: Thresholds) -> Evaluation:
    counts = {s.value: 0 for s in Status}
    tier_ok = tier_n = top_ok = top_n = neg_ok = neg_n = 0
    for sc in scored:
        status = sc.status(th)
        counts[status.value] += 1
        right = _tier_right(sc, status)
        if right is not None:
            tier_n += 1
            tier_ok += right
        if sc.case.tool:
            top_n += 1
            top_ok += status in SHOWN and sc.top_name == sc.case.tool
        elif sc.case.status == Status.NOT_FOUND.value:
            neg_n += 1
            neg_ok += status not in SHOWN
    return Evaluation(
        n=len(scored),
        n_labelled=top_n,
        tier_accuracy=tier_ok / tier_n if tier_n else None,
        top1=top_ok / top_n if top_n else None,
        counts=counts,
        balanced=(top_ok / top_n + neg_ok / neg_n) / 2 if top_n and neg_n else None,
    )


def ordered_thresholds(values: dict[str, float], base: Thresholds) -> Thresholds:
    """Thresholds from `values` (missing ones from `base`), rounded, with low <= medium <= high."""
    th = replace(base, **{k: round(float(v), 2) for k, v in values.items() if k in THRESHOLD_NAMES})
    low = min(th.low, th.medium, th.high)
    high = max(th.low, th.medium, th.high)
    medium = min(max(th.medium, low), high)
    return replace(th, low=low, medium=medium, high=high)


def is_ordered(th: Thresholds) -> bool:
    return th.low <= th.medium <= th.high


def sweep(scored: list[ScoredCase], current: Thresholds, name: str, *, step: float = SWEEP_STEP) -> Sweep:
    """Vary one threshold over [0, 1], the others held at `current`."""
    points: list[SweepPoint] = []
    n_steps = int(round(1 / step))
    for i in range(n_steps + 1):
        value = round(i * step, 4)
        th = replace(current, **{name: value})
        if not is_ordered(th):
            points.append(SweepPoint(value, False, None, None, {}))
            continue
        ev = evaluate(scored, th)
        points.append(SweepPoint(value, True, ev.tier_accuracy, ev.top1, ev.shares, ev.balanced))
    return Sweep(name, getattr(current, name), _best(points, getattr(current, name)), tuple(points))


def _best(points: list[SweepPoint], current: float) -> float:
    """Highest balanced accuracy (when the set has negatives), then tier accuracy, then top-1;
    among equals the value nearest the current one."""
    valid = [p for p in points if p.valid]
    if not valid:
        return current

    def key(p: SweepPoint):
        return (round(p.balanced or 0.0, 6), round(p.tier_accuracy or 0.0, 6), round(p.top1 or 0.0, 6), -abs(p.value - current))

    return max(valid, key=key).value


def tune(scored: list[ScoredCase], current: Thresholds, *, step: float = SWEEP_STEP) -> TuningReport:
    return TuningReport(current, {n: sweep(scored, current, n, step=step) for n in THRESHOLD_NAMES})
