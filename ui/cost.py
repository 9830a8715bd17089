"""Monthly cost simulator for the catalog page: traffic mix and volume in, cost per path out, next to
the cost of sending every tool to the capable model on every message. Numbers come from
routing.paths.cost (prices and token figures from the domain's settings YAML)."""
from __future__ import annotations

import math

import plotly.graph_objects as go
import streamlit as st

from routing import LexiconError
from routing.paths.monthly import cost_profile, monthly_cost
from routing.paths.config import path_config
from routing.paths.money import format_money
from ui.common import PATH_COLORS, router_state

BASELINE_COLOR = "#c23b3b"
ROW_COLORS = {"known": PATH_COLORS["fast"], "novel": PATH_COLORS["llm"], "chat": "#6b7280"}


@st.cache_data(show_spinner=False, max_entries=32)
def _profile(domain: str, fingerprint: str, capable_share: float):
    return cost_profile(router_state(domain).router, capable_share=capable_share)


def _usd(x: float) -> str:
    """Dollars and cents from $1 up; below it three significant digits, so a tiny cost is not shown as $0.0000."""
    if x >= 1 or x == 0:
        return f"${x:,.2f}"
    text = f"{x:.{max(2, 2 - math.floor(math.log10(abs(x))))}f}".rstrip("0")
    return "$" + (text if len(text.split(".")[1]) >= 2 else f"{x:.2f}")


def render_cost_simulator(domain: str) -> None:
    state = router_state(domain)
    if state.router is None:
        st.info("The cost simulator needs a domain whose lexicon loads.")
        return
    try:
        cfg = path_config(state.router)
    except LexiconError as exc:
        st.warning("This domain's path settings have a problem, so costs cannot be estimated.", icon=":material/warning:")
        with st.expander("What is wrong (file, line, problem)"):
            for p in exc.problems:
                st.markdown(f"- `{p.file}` line {p.line or '?'}: {p.message}")
        return
    defaults = cfg.cost.get("default_mix") or {"known": 0.6, "novel": 0.3, "chat": 0.1}
    left, right = st.columns([1, 2], gap="large")
    with left:
        volume = st.number_input(
            "Messages per month", min_value=0, max_value=100_000_000, step=1000,
            value=int(cfg.cost.get("default_monthly_messages", 30000)), key=f"cost_volume_{domain}",
        )
        known = st.slider("Known questions (fast path), %", 0, 100, int(round(defaults.get("known", 0.6) * 100)), key=f"cost_known_{domain}")
        novel = st.slider("Novel questions (LLM path), %", 0, 100, int(round(defaults.get("novel", 0.3) * 100)), key=f"cost_novel_{domain}")
        chat = st.slider("Small talk (general chat), %", 0, 100, int(round(defaults.get("chat", 0.1) * 100)), key=f"cost_chat_{domain}")
        capable = st.slider(
            "Novel questions needing the capable model, %", 0, 100,
            int(round(float(cfg.cost.get("novel_capable_share", 0.5)) * 100)), key=f"cost_capable_{domain}",
            help="Analytical, multi-step or long questions go to the capable model; the rest to the cheap one.",
        )
    if known + novel + chat == 0:
        right.warning("Set at least one share of the traffic above zero.")
        return
    profile = _profile(domain, state.fingerprint, capable / 100)
    month = monthly_cost(profile, volume=int(volume), mix={"known": known, "novel": novel, "chat": chat})
    currency, rate = profile.currency, profile.usd_to_display

    def local(usd: float) -> str:
        return format_money(usd * rate, currency) if currency != "USD" else _usd(usd)

    with right:
        if known + novel + chat != 100:
            st.caption(f"The shares add up to {known + novel + chat}%; they are scaled to 100%.")
        a, b, c = st.columns(3)
        a.metric("Routed, per month", _usd(month.total_usd), local(month.total_usd), delta_color="off", delta_arrow="off", border=True)
        b.metric(
            "Every tool sent", _usd(month.baseline_usd), local(month.baseline_usd),
            delta_color="off", delta_arrow="off", border=True,
            help=f"All {profile.all_tools_count} API tools sent to {cfg.models['capable'].name} with every message.",
        )
        c.metric("Saved", f"{month.saved_share:.0%}", f"{_usd(month.saved_usd)} per month", delta_color="off", delta_arrow="off", border=True)
        fig = go.Figure()
        for row in month.rows:
            fig.add_bar(name=row["path"], x=["Routed"], y=[row["monthly_usd"]], marker_color=ROW_COLORS[row["key"]])
        fig.add_bar(name="every tool, capable model", x=["Every tool"], y=[month.baseline_usd], marker_color=BASELINE_COLOR)
        fig.update_layout(
            barmode="stack", height=300, margin=dict(l=10, r=10, t=10, b=10), yaxis_title="USD per month",
            legend=dict(orientation="h", y=-0.2),
        )
        st.plotly_chart(fig, key=f"cost_chart_{domain}", config={"displayModeBar": False})
    # The table gets the page's full width: in the right column its last columns were cut off.
    st.dataframe(
        [
            {
                "Path": r["path"],
                "Share": f"{r['share']:.0%}",
                "Messages": f"{r['messages']:,}",
                "Tokens / message": f"{r['tokens_per_message']:,}",
                "Cost / message": _usd(r["cost_per_message_usd"]),
                "Cached call": _usd(r["cached_cost_per_message_usd"]),
                "Per month": _usd(r["monthly_usd"]),
                "Per month, caching": _usd(r["monthly_cached_usd"]),
                f"Per month ({currency})": local(r["monthly_usd"]),
                "Latency": f"~{r['latency_ms']:,} ms",
            }
            for r in month.rows
        ],
        hide_index=True, width="stretch",
    )
    cheap, big = cfg.models["cheap"], cfg.models["capable"]
    st.caption(
        f"Prices from lexicons/{domain}/settings.yaml: {cheap.name} ${cheap.input_usd_per_1m:g} in / ${cheap.output_usd_per_1m:g} out, "
        f"{big.name} ${big.input_usd_per_1m:g} in / ${big.output_usd_per_1m:g} out per million tokens. Tokens are estimated "
        f"(about 4 characters each); {currency} at {rate:g} per USD. Planning figures, not a bill."
    )
    from ui.cost_targets import render_design_targets

    render_design_targets(state.router, capable_share=capable / 100)
