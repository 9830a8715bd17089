"""Plotly figure builders for the pages: why a tool won (score breakdown) and which days a query
means (date timeline). Pure functions of result dicts; the pages call st.plotly_chart on them.

Figures are built from plain dicts and validated once by go.Figure; colours are mid-saturation so
they read on light and dark themes (the pages draw with Streamlit's theme, transparent backgrounds).
"""
from __future__ import annotations

from datetime import date, timedelta
from typing import Iterable

import plotly.graph_objects as go

from ui.common import TIER_COLORS, confidence_text

# One colour per scoring signal, stable across charts; unknown signals take the spare colours.
SIGNAL_COLORS = {
    "keyword": "#4c78a8",
    "synonym": "#72b7b2",
    "fuzzy": "#9d755d",
    "pattern": "#f58518",
    "action": "#54a24b",
    "example": "#b279a2",
    "semantic": "#eeca3b",
    "learned": "#8c6bb1",
    "agreement": "#3b9ab2",
    "description": "#bab0ac",
    "fuzzy_penalty": "#e45756",
}
SPARE_COLORS = ("#79706e", "#ff9da6", "#83bcb6", "#d67195")
KIND_COLORS = {"calendar": "#2f6fdf", "rolling": "#e07b39"}
TODAY_COLOR = "#c23b3b"
# Which tier each threshold opens, so a threshold line has its tier's colour.
THRESHOLD_TIERS = (("high", "activated"), ("medium", "multiple_matches"), ("low", "weak_matches"))
TOTALS_RIGHT = 1.22  # the x axis ends here: room right of 1.0 for the confidences

_BASE_LAYOUT = {
    "paper_bgcolor": "rgba(0,0,0,0)",
    "plot_bgcolor": "rgba(0,0,0,0)",
    "bargap": 0.35,
    "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "left", "x": 0, "title": {"text": ""}},
}


def signal_order(candidates: list[dict]) -> list[str]:
    """Signals in a stable order: the known ones first (as in SIGNAL_COLORS), then the rest by name."""
    seen = {s for c in candidates for s in (c.get("score_breakdown") or {})}
    known = [s for s in SIGNAL_COLORS if s in seen]
    return known + sorted(seen - set(known))


def signal_color(signal: str, order: list[str]) -> str:
    if signal in SIGNAL_COLORS:
        return SIGNAL_COLORS[signal]
    extras = [s for s in order if s not in SIGNAL_COLORS]
    return SPARE_COLORS[extras.index(signal) % len(SPARE_COLORS)] if signal in extras else SPARE_COLORS[0]


def _parts(candidate: dict, order: list[str]) -> tuple[dict[str, float], dict[str, float], float]:
    """A candidate's positive parts clipped so that they end at its confidence, the full values,
    and what the negative parts (calibration, a spelling penalty) took off the positive sum."""
    breakdown = {s: float(v) for s, v in (candidate.get("score_breakdown") or {}).items()}
    positive = sum(v for v in breakdown.values() if v > 0)
    conf = min(max(float(candidate.get("confidence", 0.0)), 0.0), positive) if positive else 0.0
    solid, room = {}, conf
    for signal in order:
        value = breakdown.get(signal, 0.0)
        if value > 0:
            solid[signal] = min(value, room)
            room -= solid[signal]
    return solid, breakdown, positive - conf


def score_breakdown_figure(candidates: list[dict], thresholds: dict, *, chosen: Iterable[str] = (),
                           labels: dict[str, str] | None = None) -> go.Figure:
    """One horizontal bar per candidate (best on top) whose solid length is its confidence, stacked by
    the signals that gave it points, with the tier thresholds as vertical lines in their tier's colour.

    Where calibration (or a spelling penalty) took points off, the positive parts are drawn up to the
    confidence and the rest of them as a hatched, faint end: no bar reads as more than its confidence,
    and none is drawn left of zero. Each bar's confidence is written at the plot's right edge, inside
    it. Chosen tools are marked with a check in their label; `labels` gives a signal's legend words."""
    chosen = set(chosen)
    words = labels or {}
    names = [c["name"] for c in candidates]
    rows = [("✓ " if n in chosen else "") + n for n in names]
    order = signal_order(candidates)
    parts = [_parts(c, order) for c in candidates]
    data = []
    for signal in order:
        values = [round(solid.get(signal, 0.0), 4) for solid, _, _ in parts]
        full = [round(breakdown.get(signal, 0.0), 4) for _, breakdown, _ in parts]
        if not any(values) and not any(full):
            continue
        name = words.get(signal, signal.replace("_", " "))
        data.append({
            "type": "bar",
            "orientation": "h",
            "name": name,
            "x": values,
            "y": rows,
            "customdata": full,
            "marker": {"color": signal_color(signal, order)},
            "hovertemplate": f"%{{y}}<br>{name}: %{{customdata:+.3f}}<extra></extra>",
            "showlegend": any(values),
        })
    taken = [round(t, 4) for _, _, t in parts]
    if any(t > 0.0005 for t in taken):
        takers = [s for s in order if any(b.get(s, 0.0) < 0 for _, b, _ in parts)]
        what = " and ".join(words.get(s, s.replace("_", " ")) for s in takers) or "calibration"
        data.append({
            "type": "bar",
            "orientation": "h",
            "name": f"taken off by {what}",
            "x": taken,
            "y": rows,
            "marker": {"color": "rgba(0,0,0,0)", "line": {"color": "rgba(128,128,128,0.55)", "width": 1},
                       "pattern": {"shape": "/", "fgcolor": "rgba(128,128,128,0.55)", "bgcolor": "rgba(0,0,0,0)",
                                   "size": 6, "solidity": 0.25}},
            "hovertemplate": f"%{{y}}<br>taken off by {what}: %{{x:.3f}}<extra></extra>",
        })
    shapes, annotations = [], []
    for key, tier in THRESHOLD_TIERS:
        value = thresholds.get(key)
        if value is None:
            continue
        shapes.append({
            "type": "line", "xref": "x", "yref": "paper", "x0": value, "x1": value, "y0": 0, "y1": 1,
            "line": {"color": TIER_COLORS[tier], "width": 2, "dash": "dash"},
        })
        annotations.append({
            # "low" reads leftwards and the others rightwards, so close thresholds do not overlap.
            "x": value, "xref": "x", "y": 1, "yref": "paper", "yanchor": "bottom",
            "xanchor": "right" if key == "low" else "left", "showarrow": False,
            "text": f"{key} {value:.2f}", "font": {"color": TIER_COLORS[tier], "size": 11},
        })
    # The confidences sit right of 1.0, right-aligned on the plot area's own edge: inside it whatever
    # their length ("0.079" where 0.08 is a threshold), where no threshold line or bar reaches.
    for row, c in zip(rows, candidates):
        annotations.append({
            "x": 1, "xref": "paper", "xanchor": "right", "y": row, "yref": "y", "showarrow": False,
            "text": f"<b>{confidence_text(float(c.get('confidence', 0.0)), thresholds)}</b>", "font": {"size": 12},
        })
    layout = dict(
        _BASE_LAYOUT,
        legend={"orientation": "h", "yanchor": "top", "y": -0.12 - 0.4 / max(len(candidates), 1), "xanchor": "left", "x": 0},
        barmode="relative",
        height=120 + 34 * max(len(candidates), 1),
        margin={"l": 10, "r": 10, "t": 24, "b": 10},
        xaxis={"range": [-0.02, TOTALS_RIGHT], "title": {"text": ""}, "zeroline": True,
               "tickvals": [0, 0.5, 1.0], "tickformat": ".1f"},
        yaxis={"autorange": "reversed", "automargin": True},
        shapes=shapes,
        annotations=annotations,
    )
    return go.Figure({"data": data, "layout": layout})


def _day(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def date_timeline_figure(ranges: list[dict], today: date | str) -> go.Figure:
    """Each resolved range as a bar from its first to its last day (inclusive), coloured by kind
    (calendar / rolling); today as a vertical line. Unresolved ranges are left out (the page lists them)."""
    today = _day(today)
    resolved = [r for r in ranges if r.get("start") and r.get("end")]
    data, seen_kinds = [], set()
    labels = []
    for i, r in enumerate(resolved):
        start, end = _day(r["start"]), _day(r["end"])
        label = r.get("text") or f"range {i + 1}"
        # Two ranges with the same words still get their own row.
        while label in labels:
            label += " "
        labels.append(label)
        kind = r.get("kind", "calendar")
        days = (end - start).days + 1
        data.append({
            "type": "bar",
            "orientation": "h",
            "base": [start.isoformat()],
            "x": [days * 86_400_000],  # a date axis measures bar length in milliseconds
            "y": [label],
            "name": kind,
            "legendgroup": kind,
            "showlegend": kind not in seen_kinds,
            "marker": {"color": KIND_COLORS.get(kind, SPARE_COLORS[0])},
            "hovertemplate": f"{label}<br>{start.isoformat()} .. {end.isoformat()} ({days} day{'s' if days != 1 else ''})"
                             f"<br>{kind}, rule {r.get('rule', '')}<extra></extra>",
        })
        seen_kinds.add(kind)
    starts = [_day(r["start"]) for r in resolved] + [today]
    ends = [_day(r["end"]) for r in resolved] + [today]
    lo, hi = min(starts), min(max(ends), date.max - timedelta(days=1)) + timedelta(days=1)
    pad = max(timedelta(days=2), (hi - lo) / 20)
    # A range may reach the first or last day Python knows ("last 10000 years"): pad inside them.
    axis_lo = lo - pad if lo - date.min > pad else date.min
    axis_hi = hi + pad if date.max - hi > pad else date.max
    layout = dict(
        _BASE_LAYOUT,
        barmode="overlay",
        height=110 + 30 * max(len(resolved), 1),
        margin={"l": 10, "r": 10, "t": 30, "b": 30},
        xaxis={"type": "date", "range": [axis_lo.isoformat(), axis_hi.isoformat()]},
        yaxis={"autorange": "reversed", "automargin": True, "type": "category"},
        shapes=[{
            # Today is a whole day, [today, today+1), like every bar: a range that ends today ends at
            # the band's right edge, never past it; the band's edges are dotted for short axes.
            "type": "rect", "xref": "x", "yref": "paper", "y0": 0, "y1": 1,
            "x0": today.isoformat(), "x1": min(today + timedelta(days=1), date.max).isoformat(),
            "fillcolor": TODAY_COLOR, "opacity": 0.18, "line": {"color": TODAY_COLOR, "width": 1.5, "dash": "dot"},
        }],
        annotations=[{
            "x": f"{today.isoformat()} 12:00", "xref": "x", "y": 1, "yref": "paper", "yanchor": "bottom",
            "showarrow": False, "text": f"today {today.isoformat()}", "font": {"color": TODAY_COLOR, "size": 11},
        }],
    )
    return go.Figure({"data": data, "layout": layout})
