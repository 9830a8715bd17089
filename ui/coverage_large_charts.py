"""Plotly figures of a large coverage run's summary (routing.quality.coverage_run.summarise): tiers
and tools over time, the topics of what is not covered as a sized chart, one topic's trend. Built
from the summary dict alone, so a test can read their data without a browser."""
from __future__ import annotations

import plotly.graph_objects as go

from ui.common import TIER_COLORS, TIER_LABELS
from ui.coverage_charts import NEUTRAL_BAR, STATUS_ORDER

TOOL_COLORS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac", "#eeca3b")


def _layout(fig: go.Figure, title: str, height: int = 320, legend: bool = True) -> go.Figure:
    fig.update_layout(title=dict(text=title, x=0, font=dict(size=15)), height=height, margin=dict(l=10, r=10, t=40, b=10),
                      showlegend=legend, legend=dict(orientation="h", y=-0.15))
    return fig


def tiers_figure(summary: dict, tiers: list[str]) -> go.Figure:
    """Tiers over time (stacked, one bar per period) when the run had times, else one bar per tier."""
    periods = summary["over_time"]["tiers"]
    fig = go.Figure()
    if periods:
        x = [p["period"] for p in periods]
        for s in [t for t in STATUS_ORDER if t in tiers]:
            fig.add_bar(x=x, y=[p.get(s, 0) for p in periods], name=TIER_LABELS[s], marker_color=TIER_COLORS[s], customdata=[s] * len(x))
        fig.update_layout(barmode="stack")
        return _layout(fig, f"Tiers over time (per {summary['over_time']['period']})")
    shown = [s for s in STATUS_ORDER if s in tiers]
    fig.add_bar(x=[TIER_LABELS[s] for s in shown], y=[summary["tiers"].get(s, 0) for s in shown],
                marker_color=[TIER_COLORS[s] for s in shown], customdata=shown)
    return _layout(fig, "Tiers (the run had no time column)", legend=False)


def tools_figure(summary: dict, tools: list[str]) -> go.Figure:
    """Questions routed to each chosen tool, over time when the run had times, else in total."""
    periods = summary["over_time"]["tools"]
    fig = go.Figure()
    if periods:
        x = [p["period"] for p in periods]
        for i, t in enumerate(tools):
            fig.add_scatter(x=x, y=[p.get(t, 0) for p in periods], name=t, mode="lines+markers", line=dict(color=TOOL_COLORS[i % len(TOOL_COLORS)]))
        return _layout(fig, f"Tools over time (per {summary['over_time']['period']})")
    fig.add_bar(x=tools, y=[summary["tools"].get(t, 0) for t in tools], marker_color=NEUTRAL_BAR)
    return _layout(fig, "Questions per tool", legend=False)


def topics_figure(topics: list[dict], chosen: int | None = None) -> go.Figure:
    """The topics as a treemap: each tile's area is how many questions the topic holds."""
    fig = go.Figure(go.Treemap(
        ids=[f"t{t['id']}" for t in topics],
        labels=[t["name"] for t in topics],
        parents=[""] * len(topics),
        values=[t["size"] for t in topics],
        customdata=[t["id"] for t in topics],
        text=[("a new tool" if t["fix"]["kind"] == "new_tool" else f"→ {t['fix']['tool']}") for t in topics],
        texttemplate="<b>%{label}</b><br>%{value:,} questions<br>%{text}",
        hovertemplate="%{label}<br>%{value:,} questions (%{percentRoot:.1%})<br>fix: %{text}<extra></extra>",
        marker=dict(colors=["#e45756" if t["id"] == chosen else ("#f2b07e" if t["fix"]["kind"] == "new_tool" else "#8fb5d9") for t in topics]),
        sort=True,
    ))
    return _layout(fig, "Topics of what is not covered (area = questions)", height=420, legend=False)


def topic_trend_figure(topic: dict, period: str) -> go.Figure:
    fig = go.Figure(go.Bar(x=[p["period"] for p in topic["trend"]], y=[p["n"] for p in topic["trend"]], marker_color="#e45756"))
    return _layout(fig, f"“{topic['name']}” per {period}", height=240, legend=False)
