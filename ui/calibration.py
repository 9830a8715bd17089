"""The reliability diagram: does a confidence of 0.8 come true 8 times in 10? (tuner page)

Drawn from the scores the tuner already has (routing.quality.tuning.ScoredCase), so it costs no
routing. The numbers come from routing.core.calibration.reliability_report.
"""
from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from routing.core.calibration import reliability_report, wants_calibration

BAR = "#4c78a8"
IDEAL = "#9ca3af"


def points_from_scored(scored) -> list[tuple[float, str | None, str | None]]:
    """(top confidence, top tool, expected tool / None for a negative) for every labelled case."""
    out = []
    for sc in scored:
        if not sc.case.tool and sc.case.status != "not_found":
            continue
        conf = sc.scored[0].confidence if sc.scored else 0.0
        out.append((conf, sc.top_name if sc.scored else None, sc.case.tool))
    return out


def reliability_figure(report: dict) -> go.Figure:
    bins = report["bins"]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", line=dict(color=IDEAL, dash="dash"), name="perfectly calibrated", hoverinfo="skip"))
    fig.add_trace(
        go.Bar(
            x=[(b["lo"] + b["hi"]) / 2 for b in bins],
            y=[b["accuracy"] for b in bins],
            width=[(b["hi"] - b["lo"]) * 0.9 for b in bins],
            marker_color=BAR,
            name="share right",
            customdata=[[b["n"], b["confidence"]] for b in bins],
            hovertemplate="confidence %{customdata[1]:.2f} (n=%{customdata[0]})<br>right %{y:.0%}<extra></extra>",
        )
    )
    fig.update_layout(
        title=dict(text=f"Reliability · expected calibration error {report['ece']:.3f}", x=0, font=dict(size=15)),
        height=320, margin=dict(l=10, r=10, t=40, b=10), showlegend=False,
        xaxis=dict(title="top confidence", range=[0, 1], tickformat=".1f"),
        yaxis=dict(title="share right", range=[0, 1], tickformat=".0%"),
    )
    return fig


def render_reliability(scored, router, *, key: str = "reliability") -> dict:
    """The diagram, the ECE and one plain sentence about what they mean for this domain."""
    report = reliability_report(points_from_scored(scored), getattr(router, "calibrator", None))
    st.subheader("Does the confidence mean what it says?")
    if not report["n"]:
        st.info("No labelled questions here: the diagram needs questions with an expected tool or negatives.")
        return report
    how = calibration_sentence(report, router)
    st.caption(
        f"Each bar: the questions whose top confidence falls in that band, and the share whose top tool was right "
        f"(a negative counts as wrong). On the dashed line, 0.8 means right 8 times in 10. {how}"
    )
    st.plotly_chart(reliability_figure(report), width="stretch", key=key, config={"displayModeBar": False})
    return report


def calibration_sentence(report: dict, router) -> str:
    """How this domain's confidence is made, in one sentence under the diagram: calibrated on its own
    questions, calibrated at build on synthetic questions (a catalog known by its descriptions), or
    not calibrated (and why, where `calibration: fit` is set already)."""
    if report["calibrated"]:
        return (f"This domain is calibrated from its own held-out questions (cross-validated error {report['fit_cv_ece']:.3f}, "
                f"{report['fit_cv_ece_raw']:.3f} before calibration).")
    made = router.confidence_source() if hasattr(router, "confidence_source") else {}
    synthetic = made.get("calibration") or {}
    if synthetic.get("from") == "synthetic":
        ece = (synthetic.get("model") or {}).get("ece")
        return (f"This domain's confidence is calibrated at build on {synthetic.get('questions', 0):,} synthetic questions and "
                f"{synthetic.get('negatives', 0):,} off-topic ones made from the catalog itself"
                + (f" (cross-validated error {ece:.3f} on those)" if ece is not None else "")
                + "; the bars show how it holds on these questions.")
    if wants_calibration(router.domain):
        return ("This domain is not calibrated: `calibration: fit` is set, but it has no labelled questions to fit on "
                "(keep Playground answers as tests, or add golden.yaml cases); its confidence is the weighted sum of the signals.")
    return "This domain is not calibrated: its confidence is the weighted sum of the signals (add `calibration: fit` to settings.yaml)."
