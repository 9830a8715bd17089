"""Enrichments computed on a tool's rows: ranking, currency formatting, trend, alerts."""
from __future__ import annotations

import statistics
from typing import Any

# ---------------------------------------------------------------- enrichments on data


def apply_enrichments(rows: list[dict], names: list[str], *, currency: str, amount_key: str = "amount", threshold: float | None = None) -> dict:
    """Apply enrichments to a tool's rows ([{..., amount}] in order): ranking sorts and ranks,
    currency_format adds `<amount_key>_display`, trend_analysis compares first and last,
    alert_evaluation flags rows at or above the threshold."""
    from routing.paths.money import format_money

    out = [dict(r) for r in rows]
    summary: dict[str, Any] = {}
    amounts = [float(r[amount_key]) for r in out if isinstance(r.get(amount_key), (int, float))]
    if "trend_analysis" in names and len(amounts) >= 2:
        first, last = amounts[0], amounts[-1]
        change = last - first
        summary["trend"] = {
            "change": change,
            "change_pct": round(change / first * 100, 1) if first else None,
            "direction": "up" if change > 0 else "down" if change < 0 else "flat",
            "mean": round(statistics.fmean(amounts), 2),
        }
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
