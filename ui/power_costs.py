"""Catalog page, Token cost tab, for a power_gateway domain: real token counts of each tier's reply
and the weighted cost per query against every power's tools sent at start-up
(routing.designs.power_gateway.cost; the same table as `python -m routing cost --domain D`)."""
from __future__ import annotations

import streamlit as st

from routing.designs.power_gateway.cost import cost_table
from ui.common import router_state

TIER_NAMES = {"activated": "Activated", "multiple_matches": "Multiple matches", "weak_matches": "Weak matches", "not_found": "Not found"}


@st.cache_data(show_spinner="Counting tokens…", max_entries=8)
def _table(domain: str, fingerprint: str) -> dict:
    return cost_table(router_state(domain).router)


def render_power_costs(router) -> None:
    t = _table(router.name, router.domain.fingerprint)
    st.markdown(
        "An agent without the gateway loads **every power's tools** at start-up. With it, the agent holds two small "
        "tools and, per request, only the reply of its tier (plus the chosen power's tools when it must pick one). "
        f"Tokens are counted with the real `{t['encoding']}` tokenizer; tier shares are measured on the "
        f"{t['queries']} requests of the validation set."
    )
    a, b, c = st.columns(3)
    a.metric("Every tool at start-up", f"{t['all_tools_tokens']:,} tokens", f"{t['all_tools_count']} tools", delta_color="off", delta_arrow="off", border=True)
    b.metric("With the gateway, per request", f"{t['per_query_tokens']:,.0f} tokens", f"incl. {t['gateway_tools_tokens']} for its own 2 tools",
             delta_color="off", delta_arrow="off", border=True)
    c.metric("Saved per request", f"{t['saved_share']:.0%}", f"{t['all_tools_tokens'] - t['per_query_tokens']:,.0f} tokens fewer",
             delta_color="off", delta_arrow="off", border=True)
    st.dataframe(
        [{
            "Tier": TIER_NAMES.get(r["tier"], r["tier"]),
            "Share of requests": f"{r['share']:.0%}",
            "Reply tokens (avg)": round(r["reply_tokens"]),
            "Follow-up activate_power (avg)": round(r["follow_up_tokens"]),
            "Weighted tokens": round(r["weighted_tokens"]),
        } for r in t["tiers"]],
        hide_index=True, width="stretch", key="power-cost-tiers",
    )
    st.caption("Weighted tokens = share × (reply + follow-up). Per request = the gateway's own tools + the sum of the weighted tokens.")
    with st.expander("Tokens of each power's tools", icon=":material/list:"):
        st.dataframe([{"Power": p["power"], "Tools": p["tools"], "Tokens": p["tokens"]} for p in t["powers"]],
                     hide_index=True, width="stretch", key="power-cost-powers")
