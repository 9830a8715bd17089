"""Enrichment results of a route (routing.paths.enrichments, computed on the pipeline's data): a small
chart for a trend, a banner for a fired alert, a ranked table, the amounts as people read them."""
from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from ui.common import PATH_COLORS


def render_enrichment_results(result: dict, *, key: str) -> None:
    items = result.get("enrichment_results") or []
    if not items:
        # Only a domain with recorded responses can run its pipeline: the result says which modes it has.
        if result.get("enrichments") and result.get("path") == "fast" and result.get("data_mode") is None and "replay" in (result.get("data_modes") or ()):
            st.caption("Enrichments are computed on data: choose the replay data mode in the sidebar to run the pipeline on recorded responses.")
        return
    st.markdown("**Enrichment results** (computed on the pipeline's data)")
    for i, item in enumerate(items):
        name, data, summary = item.get("name"), item.get("data") or {}, item.get("summary", "")
        if name == "alert_evaluation":
            if data.get("fired"):
                st.error(summary, icon=":material/notifications_active:")
            else:
                st.caption(summary[:1].upper() + summary[1:])
        elif name == "anomaly_detection":
            st.warning(summary, icon=":material/troubleshoot:")
        elif name == "trend_analysis":
            st.markdown(f"`trend_analysis` {summary}")
            points = data.get("points") or []
            if len(points) >= 2:
                fig = go.Figure(go.Scatter(x=[p["period"] for p in points], y=[p["value"] for p in points],
                                           mode="lines+markers", line=dict(color=PATH_COLORS["fast"], width=2)))
                fig.update_layout(height=170, margin=dict(l=10, r=10, t=10, b=10), showlegend=False,
                                  yaxis_title=str(data.get("metric", "")).replace("_", " "))
                st.plotly_chart(fig, key=f"trend::{key}::{i}", config={"displayModeBar": False})
        elif name == "ranking":
            st.markdown(f"`ranking` {summary}")
            rows = [{"#": r.get("rank"), "name": r.get("name"), "amount": r.get("amount_display", r.get("amount"))} for r in data.get("rows") or []]
            st.dataframe(rows, hide_index=True, key=f"rank::{key}::{i}")
        elif name == "currency_format":
            with st.expander(f"Amounts ({data.get('currency', '')})"):
                st.dataframe([{"figure": k, "amount": v} for k, v in (data.get("amounts") or {}).items()], hide_index=True, key=f"money::{key}::{i}")
        else:
            st.markdown(f"`{name}` {summary}")
