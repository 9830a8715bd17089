"""The counts of a coverage job (routing.quality.coverage_run): each chunk's counts, kept in the
manifest, and the summary merged from them, so a summary of a million questions never re-reads them.
Over time: per day when the run spans up to two months, per week up to ~16 months, else per month."""
from __future__ import annotations

import bisect
from collections import Counter

VERSION = 1
UNCOVERED = ("not_found", "weak_matches")  # what the topics group
ROUTED = ("activated", "multiple_matches")  # a tool was found
# Latency histogram bins (ms), log-spaced: percentiles of a million questions without keeping them.
_BINS = [round(0.01 * (10 ** (i / 20)), 6) for i in range(0, 121)]


def chunk_stats(columns: dict) -> dict:
    """What the summary needs of one chunk, so the summary never re-reads a million rows."""
    status, top, day = columns["status"], columns["top"], columns["day"]
    tiers = Counter(status)
    tools = Counter(t for t, s in zip(top, status) if t and s in ROUTED)
    paths = Counter(columns["path"])
    errors = Counter(e for e in columns["error"] if e)
    labelled = [c for c in columns["correct"] if c is not None]
    # top-1: the best candidate is the expected tool, whatever the tier (`correct` is answered right:
    # the tool shown, so not rejected, and right)
    best = sum(1 for lab, t3, c in zip(columns["label"], columns["top3"], columns["correct"])
               if c is not None and (t3 or "").split("|")[0] == lab)
    days: dict[str, Counter] = {}
    day_tools: dict[str, Counter] = {}
    for d, s, t in zip(day, status, top):
        if d:
            days.setdefault(d, Counter())[s] += 1
            if t and s in ROUTED:
                day_tools.setdefault(d, Counter())[t] += 1
    hist = [0] * (len(_BINS) + 1)
    for ms in columns["ms"]:
        hist[bisect.bisect_left(_BINS, ms)] += 1
    return {
        "tiers": dict(tiers), "tools": dict(tools), "paths": dict(paths), "errors": dict(errors),
        "labelled": len(labelled), "correct": sum(labelled), "best_correct": best,
        "days": {d: dict(c) for d, c in days.items()}, "day_tools": {d: dict(c) for d, c in day_tools.items()},
        "ms_sum": round(sum(columns["ms"]), 3), "ms_hist": hist,
    }


def _merge(into: dict, more: dict) -> None:
    for k, v in more.items():
        into[k] = into.get(k, 0) + v


def period_of(day: str, period: str) -> str:
    from datetime import date, timedelta

    d = date.fromisoformat(day)
    if period == "week":
        return (d - timedelta(days=d.weekday())).isoformat()
    if period == "month":
        return d.replace(day=1).isoformat()
    return day


def choose_period(days: list[str]) -> str:
    from datetime import date

    if not days:
        return "day"
    span = (date.fromisoformat(max(days)) - date.fromisoformat(min(days))).days
    return "day" if span <= 62 else "week" if span <= 500 else "month"


def _percentile(hist: list[int], pct: float) -> float:
    total = sum(hist)
    if not total:
        return 0.0
    want = total * pct / 100.0
    seen = 0
    for i, n in enumerate(hist):
        seen += n
        if seen >= want:
            return _BINS[min(i, len(_BINS) - 1)]
    return _BINS[-1]


def summarise(manifest: dict, *, engine: str, workers: int, routed_now: int, elapsed_now: float) -> dict:
    tiers: dict = {}
    tools: dict = {}
    paths: dict = {}
    errors: dict = {}
    days: dict[str, dict] = {}
    day_tools: dict[str, dict] = {}
    hist = [0] * (len(_BINS) + 1)
    labelled = correct = 0
    best: int | None = 0  # None once a part (of an older run) does not say
    ms_sum = 0.0
    for part in manifest["parts"].values():
        s = part["stats"]
        _merge(tiers, s["tiers"]), _merge(tools, s["tools"]), _merge(paths, s["paths"]), _merge(errors, s["errors"])
        for d, c in s["days"].items():
            _merge(days.setdefault(d, {}), c)
        for d, c in s["day_tools"].items():
            _merge(day_tools.setdefault(d, {}), c)
        hist = [a + b for a, b in zip(hist, s["ms_hist"])]
        labelled += s["labelled"]
        correct += s["correct"]
        best = best + s["best_correct"] if best is not None and "best_correct" in s else None
        ms_sum += s["ms_sum"]
    n = sum(tiers.values())
    period = choose_period(list(days))
    by_period: dict[str, dict] = {}
    tools_by_period: dict[str, dict] = {}
    for d, c in days.items():
        _merge(by_period.setdefault(period_of(d, period), {}), c)
    for d, c in day_tools.items():
        _merge(tools_by_period.setdefault(period_of(d, period), {}), c)
    job = manifest["job"]
    uncovered = sum(tiers.get(s, 0) for s in UNCOVERED)
    return {
        "kind": "routing-coverage-summary",
        "version": VERSION,
        "domain": job["domain"],
        "fingerprint": job["fingerprint"],
        "input": job["input"],
        "today": job["today"],
        "columns": job["columns"],
        "engine": engine,
        "workers": workers,
        "rows": n,
        "elapsed_s": manifest.get("elapsed_s"),
        "throughput_qps": round(routed_now / elapsed_now, 1) if elapsed_now and routed_now else None,
        "tiers": dict(sorted(tiers.items(), key=lambda kv: -kv[1])),
        "paths": dict(sorted(paths.items(), key=lambda kv: -kv[1])),
        "tools": dict(sorted(tools.items(), key=lambda kv: (-kv[1], kv[0]))),
        "errors": errors,
        "labelled": {"n": labelled, "top1": round(best / labelled, 4) if labelled and best is not None else None,
                     "answered_right": round(correct / labelled, 4) if labelled else None},
        "latency_ms": {"mean": round(ms_sum / n, 4) if n else 0.0, "p50": _percentile(hist, 50), "p99": _percentile(hist, 99)},
        "over_time": {
            "period": period,
            "tiers": [{"period": p, **by_period[p]} for p in sorted(by_period)],
            "tools": [{"period": p, **tools_by_period[p]} for p in sorted(tools_by_period)],
        },
        "uncovered": uncovered,
        "uncovered_share": round(uncovered / n, 4) if n else 0.0,
        "files": {"parquet": "results.parquet", "csv": "results.csv"},
    }
