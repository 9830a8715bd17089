"""Plotly figures and shared widgets for the coverage and threshold-tuner pages.

Figures are built from plain rows (routing.quality.gaps.CoverageRow / routing.quality.tuning.Sweep), so a test
can inspect their data without a browser.
"""
from __future__ import annotations

import traceback

import plotly.graph_objects as go
import streamlit as st

from routing.quality.gaps import CoverageRow, confusion
from routing.quality.tuning import Sweep
from ui.common import PATH_COLORS, TIER_COLORS, TIER_LABELS, domain_names

STATUS_ORDER = ("activated", "multiple_matches", "weak_matches", "needs_clarification", "not_found")
# Mid-saturation so both read on light and dark themes, and unlike any tier colour.
SERIES_COLORS = {"tier_accuracy": "#db2777", "top1": "#0f9d8a", "top3": "#5eb8ad"}
NEUTRAL_BAR = "#4c78a8"
# Zero cells almost transparent, so an empty cell looks empty on either theme (plain "Blues" is white).
CONFUSION_SCALE = [[0.0, "rgba(76,120,168,0.06)"], [0.001, "rgba(76,120,168,0.6)"], [1.0, "rgba(37,99,235,1)"]]
# Plotly's mode bar only gets in the way on these charts.
CHART_CONFIG = {"displayModeBar": False}
MARK_ROW = 16  # px between the rows of a sweep chart's marker labels (best, in file, slider)
MARK_ROWS = 3  # rows kept for them on every chart, so four charts side by side stay aligned


def _layout(fig: go.Figure, title: str, height: int = 300) -> go.Figure:
    fig.update_layout(title=dict(text=title, x=0, font=dict(size=15)), height=height, margin=dict(l=10, r=10, t=40, b=10), showlegend=False)
    return fig


def status_figure(rows: list[CoverageRow]) -> go.Figure:
    counts = {s: sum(r.status == s for r in rows) for s in STATUS_ORDER}
    fig = go.Figure(
        go.Bar(
            x=[TIER_LABELS[s] for s in STATUS_ORDER],
            y=[counts[s] for s in STATUS_ORDER],
            marker_color=[TIER_COLORS[s] for s in STATUS_ORDER],
            text=[counts[s] for s in STATUS_ORDER],
            textposition="outside",
            customdata=list(STATUS_ORDER),
        )
    )
    return _layout(fig, "Tier of each query")


def path_figure(rows: list[CoverageRow]) -> go.Figure:
    counts = {p: sum(r.path == p for r in rows) for p in ("fast", "llm")}
    fig = go.Figure(
        go.Pie(
            labels=["Fast path", "LLM path"],
            values=[counts["fast"], counts["llm"]],
            marker=dict(colors=[PATH_COLORS["fast"], PATH_COLORS["llm"]]),
            hole=0.55,
            sort=False,
            textinfo="label+percent",
        )
    )
    return _layout(fig, "Fast vs LLM path")


def tool_hits_figure(rows: list[CoverageRow], limit: int = 30, *, noun: str = "tool") -> go.Figure:
    hits: dict[str, int] = {}
    for r in rows:
        if r.top:
            hits[r.top] = hits.get(r.top, 0) + 1
    ranked = sorted(hits.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    fig = go.Figure(go.Bar(x=[v for _, v in ranked][::-1], y=[k for k, _ in ranked][::-1], orientation="h", marker_color=NEUTRAL_BAR))
    title = f"Top {noun} per query" + (f" (the {limit} most hit)" if len(hits) > limit else "")
    fig.update_xaxes(title_text="queries")
    return _layout(fig, title, height=max(300, 22 * len(ranked) + 60))


def latency_figure(rows: list[CoverageRow]) -> go.Figure:
    fig = go.Figure(go.Histogram(x=[r.timing_ms for r in rows], nbinsx=40, marker_color="#6b7280"))
    fig.update_xaxes(title_text="milliseconds per query")
    fig.update_yaxes(title_text="queries")
    return _layout(fig, "Routing latency")


def confusion_figure(rows: list[CoverageRow], *, noun: str = "tool") -> go.Figure:
    y, x, z = confusion(rows)
    fig = go.Figure(go.Heatmap(
        z=z, x=x, y=y, colorscale=CONFUSION_SCALE, colorbar=dict(title=dict(text="queries")),
        hovertemplate="expected %{y}<br>got %{x}<br>%{z} queries<extra></extra>",
    ))
    fig.update_xaxes(title_text=f"top {noun}", tickangle=-45, automargin=True)
    fig.update_yaxes(title_text=f"expected {noun}", autorange="reversed", automargin=True)
    return _layout(fig, f"Expected vs top {noun}", height=max(360, 18 * len(y) + 160))


def accuracy_figure(metrics: dict) -> go.Figure:
    names = [("top1", "Top-1"), ("top3", "Top-3"), ("tier_accuracy", "Tier accuracy")]
    shown = [(label, metrics.get(key)) for key, label in names if metrics.get(key) is not None]
    fig = go.Figure(
        go.Bar(
            x=[label for label, _ in shown],
            y=[v * 100 for _, v in shown],
            text=[f"{v:.1%}" for _, v in shown],
            textposition="outside",
            marker_color=[SERIES_COLORS[k] for k, _ in names if metrics.get(k) is not None],
        )
    )
    fig.update_yaxes(range=[0, 110], title_text="%")
    return _layout(fig, "Accuracy on the labelled queries")


def sweep_figure(sweep: Sweep, chosen: float, *, legend: bool = True) -> go.Figure:
    """Tier accuracy, top-1 and the share of each tier against one threshold; current, chosen and best
    marked. Four sweeps share one legend: pass legend=False to all but one."""
    pts = [p for p in sweep.points if p.valid]
    xs = [p.value for p in pts]
    fig = go.Figure()
    for status in STATUS_ORDER:
        fig.add_trace(
            go.Scatter(
                x=xs, y=[p.shares.get(status, 0.0) for p in pts], name=TIER_LABELS[status], mode="lines",
                line=dict(color=TIER_COLORS[status], width=1.5, dash="dot"), stackgroup=None, opacity=0.6,
            )
        )
    fig.add_trace(go.Scatter(x=xs, y=[p.answered_right for p in pts], name="Answered right", mode="lines", line=dict(color=SERIES_COLORS["top1"], width=3)))
    fig.add_trace(go.Scatter(x=xs, y=[p.tier_accuracy for p in pts], name="Tier accuracy", mode="lines", line=dict(color=SERIES_COLORS["tier_accuracy"], width=3)))
    # The markers' labels sit in a row each above the plot, where no line runs: on the 100 % line
    # (where accuracy often is) a label is struck through, and close values would overlap.
    # (value, label, line, label colour: darker than the line, to read on a light page)
    marks = [(sweep.best, "in file = best" if abs(sweep.best - sweep.current) < 1e-9 else "best", dict(color="#16a34a", width=2), "#15803d")]
    if abs(sweep.best - sweep.current) >= 1e-9:
        marks.append((sweep.current, "in file", dict(color="#9ca3af", dash="dash"), "#6b7280"))
    if abs(chosen - sweep.current) > 1e-9:
        marks.append((chosen, "slider", dict(color="#f59e0b", width=2), "#b45309"))
    for row, (x, text, line, colour) in enumerate(marks):
        fig.add_vline(x=x, line=line)
        fig.add_annotation(
            x=x, xref="x", y=1, yref="paper", yanchor="bottom", yshift=2 + MARK_ROW * row, showarrow=False,
            text=text, font=dict(size=12, color=colour), xanchor="left" if x <= 0.5 else "right",
        )
    fig.update_yaxes(range=[0, 1.05], tickformat=".0%")
    fig.update_xaxes(range=[0, 1], title_text=sweep.name)
    fig = _layout(fig, f"Sweeping {sweep.name}", height=320 + MARK_ROW * MARK_ROWS)
    top = 34 + MARK_ROW * MARK_ROWS  # the title, then the rows of the marker labels
    fig.update_layout(showlegend=legend, legend=dict(orientation="h", y=-0.3), margin=dict(t=top),
                      title=dict(y=1, yref="container", yanchor="top", pad=dict(t=8)))
    return fig


# ------------------------------------------------------------------ shared widgets


def domain_picker(key: str, keep: tuple[str, ...] = ()) -> str:
    """A domain select box mirrored into st.session_state.domain (shared by every page), and the
    address bar: /coverage?domain=cfo opens cfo; a change of domain is a new history entry. The
    page's own parameters named in `keep` stay in the address (the page writes them itself); a link's
    parameters are left in st.session_state[f"_linked_{key}"] for the page to apply."""
    from ui.context import apply_shared_link, write_url

    linked = apply_shared_link(key)
    if linked is not None:
        st.session_state[f"_linked_{key}"] = linked
    names = domain_names()
    if not names:
        st.error("No lexicon domains found. Import one below or check the lexicons folder.")
        return ""
    if st.session_state.get("domain") not in names:
        st.session_state.domain = names[0]
    if st.session_state.get(key) != st.session_state.domain:
        st.session_state[key] = st.session_state.domain

    def copy() -> None:
        st.session_state.domain = st.session_state[key]

    # In the sidebar, like on every page: one place, one choice.
    st.sidebar.selectbox("Domain", names, key=key, on_change=copy,
                         help="Which lexicon (tools, synonyms, patterns) this page works on.")
    own = {k: st.query_params.get(k) for k in keep if st.query_params.get(k)}
    write_url(key, {"domain": st.session_state.domain, **own})
    return st.session_state.domain


def friendly_failure(message: str, exc: BaseException) -> None:
    """A plain message, and the details in an expander: never a raw traceback on the page."""
    st.error(message, icon=":material/error:")
    with st.expander("Technical details"):
        st.code("".join(traceback.format_exception(exc)), language="text")


def progress_reporter(start_text: str, verb: str):
    """A progress bar and the callback routing.quality.evaluate / routing.quality.tuning call per question."""
    bar = st.progress(0.0, text=start_text)

    def tick(i: int, n: int) -> None:
        if i == n or i % 25 == 0:  # redraw every 25 questions: drawing costs more than routing
            bar.progress(i / n, text=f"{verb} {i:,} of {n:,} questions…")

    tick.clear = bar.empty  # the caller removes the bar when the run is over
    return tick
