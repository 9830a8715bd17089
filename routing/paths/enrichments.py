"""Enrichments computed on the data a pipeline returned (both paths): trend analysis and anomaly
detection on a series, currency formatting of amounts, ranking of a list, alert evaluation of
thresholds. Each result is {name, summary, data}; nothing here reads the clock or the network."""
from __future__ import annotations

import statistics
from typing import Any, Iterable

from routing.paths.money import format_inr, format_money

# A point further than this many robust deviations (median absolute deviation, scaled to a standard
# deviation) from the series' median is an anomaly; a series needs this many points to judge.
ANOMALY_Z = 3.0
ANOMALY_MIN_POINTS = 5
_MAD_SCALE = 1.4826


def display_money(amount: float, currency: str) -> str:
    """₹1,23,45,678 for INR (Indian grouping, no paise for reports); Rp 1,234,567 for IDR."""
    if (currency or "").upper() == "INR":
        return format_inr(amount, symbol="₹", decimals=0)
    return format_money(amount, currency, decimals=0)


def trend(values: list[float]) -> dict:
    """Direction, change first -> last (absolute and %), least-squares slope per step."""
    n = len(values)
    first, last = values[0], values[-1]
    change = last - first
    xs = range(n)
    mx, my = (n - 1) / 2, statistics.fmean(values)
    denom = sum((x - mx) ** 2 for x in xs) or 1.0
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, values)) / denom
    return {
        "direction": "up" if change > 0 else "down" if change < 0 else "flat",
        "change": round(change, 2),
        "change_pct": round(change / abs(first) * 100, 1) if first else None,
        "slope_per_period": round(slope, 2),
        "mean": round(my, 2),
    }


def anomalies(values: list[float]) -> list[int]:
    """Indexes of points far from the median (robust z-score over ANOMALY_Z)."""
    if len(values) < ANOMALY_MIN_POINTS:
        return []
    med = statistics.median(values)
    mad = statistics.median(abs(v - med) for v in values) * _MAD_SCALE
    if mad == 0:
        return []
    return [i for i, v in enumerate(values) if abs(v - med) / mad > ANOMALY_Z]


def _series(responses: Iterable[dict]) -> list[dict]:
    return [r["series"] for r in responses if isinstance(r.get("series"), dict) and len(r["series"].get("points") or []) >= 2]


def _is_money(key: str, value: Any) -> bool:
    """A figure the currency formatter shows as money (the same rule compute_enrichments applies)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not key.endswith(("_pct", "days", "invoices", "items"))


def _ranked_rows(rows: Any) -> list[dict]:
    return [x for x in rows or [] if isinstance(x, dict) and isinstance(x.get("amount"), (int, float)) and not isinstance(x.get("amount"), bool)]


def detect_enrichments(responses: Iterable[dict]) -> list[dict]:
    """Which enrichments the data calls for, by the shape of what the tools returned (no tags, no
    words): a dated series of two or more points -> trend_analysis; money figures or rows with
    amounts -> currency_format;
    a list of two or more rows with amounts -> ranking; values with an above / below limit ->
    alert_evaluation. Returns [{name, because}] in a fixed order, one per enrichment found."""
    responses = [r for r in responses if isinstance(r, dict)]
    found: dict[str, str] = {}
    for s in _series(responses):
        if all(isinstance(p, dict) and p.get("period") and isinstance(p.get("value"), (int, float)) for p in s["points"]):
            found.setdefault("trend_analysis", f"a dated series ({s.get('metric')}, {len(s['points'])} points)")
    for s in _series(responses):
        if s.get("unit") == "money":
            found.setdefault("currency_format", f"a money series ({s.get('metric')})")
    for r in responses:
        money = [k for k, v in (r.get("figures") or {}).items() if _is_money(k, v)]
        if money:
            found.setdefault("currency_format", f"{len(money)} money figure(s) from {r.get('tool')}")
        elif _ranked_rows(r.get("rows")):
            found.setdefault("currency_format", f"rows with amounts from {r.get('tool')}")
    for r in responses:
        rows = _ranked_rows(r.get("rows"))
        if len(rows) >= 2:
            found.setdefault("ranking", f"a list of {len(rows)} rows with amounts from {r.get('tool')}")
    for r in responses:
        checks = [c for c in r.get("checks") or [] if isinstance(c, dict) and "value" in c and ("below" in c or "above" in c)]
        if checks:
            found.setdefault("alert_evaluation", f"{len(checks)} value(s) against a limit from {r.get('tool')}")
    order = ("currency_format", "trend_analysis", "ranking", "alert_evaluation")
    return [{"name": n, "because": found[n]} for n in order if n in found]


def compute_enrichments(responses: list[dict], names: list[str], *, currency: str) -> list[dict]:
    """Apply the named enrichments to a pipeline's responses ([{tool, figures?, series?, rows?, checks?}]).
    Returns [{name, summary, data}]: one per enrichment that found data to work on."""
    out: list[dict] = []
    if "trend_analysis" in names:
        for s in _series(responses):
            values = [float(p["value"]) for p in s["points"]]
            t = trend(values)
            money = s.get("unit") != "percent"
            shown = display_money(t["change"], currency) if money else f"{t['change']:+.1f} points"
            pct = f" ({t['change_pct']:+.1f}%)" if t["change_pct"] is not None else ""
            summary = f"{s['metric'].replace('_', ' ')} {t['direction']} {shown}{pct} from {s['points'][0]['period']} to {s['points'][-1]['period']}"
            out.append({"name": "trend_analysis", "summary": summary, "data": dict(t, metric=s["metric"], points=s["points"])})
            odd = anomalies(values)
            if odd:
                med = statistics.median(values)
                listed = ", ".join(f"{s['points'][i]['period']} ({display_money(values[i], currency) if money else values[i]}, median {display_money(med, currency) if money else med})" for i in odd)
                out.append({
                    "name": "anomaly_detection",
                    "summary": f"{len(odd)} unusual {s['metric'].replace('_', ' ')} value(s): {listed}",
                    "data": {"metric": s["metric"], "points": [s["points"][i] for i in odd], "median": med, "threshold_z": ANOMALY_Z},
                })
    if "ranking" in names:
        for r in responses:
            rows = [dict(x) for x in r.get("rows") or [] if isinstance(x.get("amount"), (int, float))]
            if not rows:
                continue
            rows.sort(key=lambda x: (-abs(float(x["amount"])), str(x.get("name"))))
            for i, x in enumerate(rows, 1):
                x["rank"] = i
                x["amount_display"] = display_money(x["amount"], currency)
            top = rows[0]
            out.append({"name": "ranking", "summary": f"{r['tool']}: {len(rows)} ranked, first {top.get('name')} ({display_money(top['amount'], currency)})", "data": {"tool": r["tool"], "rows": rows}})
    if "alert_evaluation" in names:
        for r in responses:
            for c in r.get("checks") or []:
                value = float(c["value"])
                fired = ("below" in c and value < float(c["below"])) or ("above" in c and value > float(c["above"]))
                limit = f"below {c['below']}" if "below" in c else f"above {c['above']}"
                summary = (f"ALERT: {c.get('message') or c['metric']} ({c['metric']} = {c['value']}, alert when {limit})" if fired
                           else f"ok: {c['metric']} = {c['value']} (alert when {limit})")
                out.append({"name": "alert_evaluation", "summary": summary, "data": {"tool": r["tool"], "metric": c["metric"], "value": c["value"], "limit": limit, "fired": fired}})
    if "currency_format" in names:
        shown: dict[str, str] = {}
        for r in responses:
            for k, v in (r.get("figures") or {}).items():
                if isinstance(v, (int, float)) and not isinstance(v, bool) and not k.endswith(("_pct", "days", "invoices", "items")):
                    shown[f"{r['tool']}.{k}"] = display_money(v, currency)
        if shown:
            first = next(iter(shown.items()))
            out.append({"name": "currency_format", "summary": f"{len(shown)} amounts in {currency}, e.g. {first[0]} = {first[1]}", "data": {"currency": currency, "amounts": shown}})
    return out


def apply_enrichments(rows: list[dict], names: list[str], *, currency: str, amount_key: str = "amount", threshold: float | None = None) -> dict:
    """Enrichments on one list of rows ([{..., amount}] in order): ranking sorts and ranks,
    currency_format adds `<amount_key>_display`, trend_analysis compares first and last,
    alert_evaluation flags rows at or above the threshold."""
    out = [dict(r) for r in rows]
    summary: dict[str, Any] = {}
    amounts = [float(r[amount_key]) for r in out if isinstance(r.get(amount_key), (int, float))]
    if "trend_analysis" in names and len(amounts) >= 2:
        summary["trend"] = trend(amounts)
    if "ranking" in names:
        out.sort(key=lambda r: -float(r.get(amount_key) or 0))
        for i, r in enumerate(out, 1):
            r["rank"] = i
    if "alert_evaluation" in names and threshold is not None:
        for r in out:
            r["alert"] = isinstance(r.get(amount_key), (int, float)) and r[amount_key] >= threshold
        summary["alerts"] = sum(1 for r in out if r.get("alert"))
    if "currency_format" in names:
        for r in out:
            if isinstance(r.get(amount_key), (int, float)):
                r[f"{amount_key}_display"] = format_money(r[amount_key], currency)
        if "trend" in summary:
            summary["trend"]["change_display"] = format_money(summary["trend"]["change"], currency)
    return {"rows": out, "summary": summary}
