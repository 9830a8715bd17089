"""Threshold tuning on a labelled set: what each tier threshold does to accuracy and tier shares.

Every query is scored once (`score_cases`); a sweep then re-classifies the stored scores for
each threshold value with the design's own tier rule (`tier_rule`: routing.core.router.classify,
or a design's `classify_scored`), so sweeping 4 x 101 values costs a few hundred thousand
comparisons, not 404 routing passes, and a tier on this page is the tier routing gives.

What counts as right is routing.quality.evaluate.accuracy, the one definition `eval`, Coverage and
the bench use too. A sweep's best value maximises balanced accuracy when the set has negatives
(rows labelled oos / none / empty, golden `negative:`), so rejecting everything or nothing never
wins; then tier accuracy, answered right, and nearness to the file's value.

A design that does not rank with these four thresholds (the mirror routes by distance layers)
cannot be tuned here: `untunable_reason` says why in a sentence.
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
from routing.quality.evaluate import Accuracy, GoldenCase, accuracy

THRESHOLD_NAMES = ("high", "medium", "low", "margin")
SHOWN = (Status.ACTIVATED, Status.MULTIPLE_MATCHES, Status.WEAK_MATCHES)
SWEEP_STEP = 0.01


@dataclass(frozen=True)
class ScoredCase:
    case: GoldenCase
    analysis: QueryAnalysis | None  # None: the query could not be routed at all (empty, too long)
    scored: tuple[Scored, ...]  # the best few candidates, best first
    top_name: str | None
    top3: tuple[str, ...] = ()
    rule: Callable | None = field(default=None, compare=False, hash=False, repr=False)  # the design's tier rule

    def status(self, th: Thresholds) -> Status:
        if self.analysis is None:
            return Status.NOT_FOUND
        return (self.rule or classify)(list(self.scored), self.analysis, th)


@dataclass(frozen=True)
class SweepPoint:
    value: float
    valid: bool  # False where the value breaks low <= medium <= high
    tier_accuracy: float | None
    answered_right: float | None  # not rejected and right (what the thresholds move; top-1 they do not)
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


Evaluation = Accuracy  # the tuner's figures are evaluate.accuracy's


def untunable_reason(router) -> str | None:
    """Why this design cannot be tuned with the four tier thresholds, in a sentence; None if it can."""
    if callable(getattr(router, "analyze", None)) and callable(getattr(router, "score", None)):
        return None
    design = getattr(getattr(router.domain, "settings", None), "design", "") or "this design"
    reason = getattr(router, "untunable_reason", None)
    return reason or (f"Design `{design}` does not rank candidates with the four tier thresholds, "
                      "so there is nothing for these sliders to move.")


def tier_rule(router) -> Callable:
    """The design's rule from scores to a tier: its own `classify_scored`, else the core's classify."""
    return getattr(router, "classify_scored", None) or classify


def score_cases(
    router: Router,
    cases: Iterable[GoldenCase],
    *,
    default_today: date | str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[ScoredCase]:
    """Analyse and score every query once; classify later for any thresholds."""
    cases = list(cases)
    reason = untunable_reason(router)
    if reason:
        raise ValueError(reason)
    rule = tier_rule(router)
    out: list[ScoredCase] = []
    for i, case in enumerate(cases):
        if validate_query(case.query) is not None:
            out.append(ScoredCase(case, None, (), None, (), rule))
        else:
            extra = {"context": case.context} if case.context else {}  # a conversation turn (design intent_tiers)
            a = router.analyze(case.query, today=parse_today(case.today or default_today), **extra)
            scored = tuple(router.score(a))
            names = tuple(router.index.tools[x.tool].name for x in scored[:3])
            out.append(ScoredCase(case, a, scored, names[0] if names else None, names, rule))
        if progress is not None:
            progress(i + 1, len(cases))
    return out


def evaluate(scored: list[ScoredCase], th: Thresholds) -> Accuracy:
    """The figures at thresholds `th`: evaluate.accuracy over the re-classified stored scores."""
    return accuracy((sc.case, sc.status(th).value, sc.top_name, sc.top3) for sc in scored)


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
        points.append(SweepPoint(value, True, ev.tier_accuracy, ev.answered_right, ev.shares, ev.balanced))
    return Sweep(name, getattr(current, name), _best(points, getattr(current, name)), tuple(points))


def _best(points: list[SweepPoint], current: float) -> float:
    """Highest balanced accuracy (when the set has negatives), then tier accuracy, then answered right;
    among equals the value nearest the current one."""
    valid = [p for p in points if p.valid]
    if not valid:
        return current

    def key(p: SweepPoint):
        return (round(p.balanced or 0.0, 6), round(p.tier_accuracy or 0.0, 6), round(p.answered_right or 0.0, 6), -abs(p.value - current))

    return max(valid, key=key).value


def tune(scored: list[ScoredCase], current: Thresholds, *, step: float = SWEEP_STEP) -> TuningReport:
    return TuningReport(current, {n: sweep(scored, current, n, step=step) for n in THRESHOLD_NAMES})
