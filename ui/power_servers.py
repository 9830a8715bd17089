"""Catalog page, design `power_gateway`: each power's MCP server (servers.yaml) and whether it can
start on this machine: live (program found), missing (with the install hint the agent also gets)
or described only. Read from routing.mcp.launch.server_status; no server is started here."""
from __future__ import annotations

import streamlit as st

from ui.cards import md_escape

STATE_TEXT = {"live": "ready", "missing": "program missing", "described": "described only"}


def render_power_servers(router) -> None:
    from routing.mcp.launch import server_status

    rows = server_status(router)
    missing = [r for r in rows if r["state"] == "missing"]
    live = sum(r["state"] == "live" for r in rows)
    st.markdown(f"**Servers** · {live} of {len(rows)} powers start a real MCP server here"
                + (f"; **{len(missing)} cannot start** (program missing)" if missing else ""))
    for r in missing:
        st.warning(f"**{r['power']}**: {md_escape(r['message'])}", icon=":material/error:")
    st.dataframe(
        [{"Power": r["power"], "Server": r["server"] or "", "State": STATE_TEXT[r["state"]], "Tools listed": r["tools"]} for r in rows],
        hide_index=True, key="power-servers-table",
        column_config={"Server": st.column_config.TextColumn("Server", help="The program servers.yaml starts, or our own bundled child"),
                       "State": st.column_config.TextColumn("State", help="ready: the program is on this machine; program missing: "
                                                            "activation says so and names how to install it; described only: no server configured")},
    )
