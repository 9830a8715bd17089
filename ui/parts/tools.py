"""Card part of design `tools`: which path the question takes (fast pipeline or LLM) and why."""
from __future__ import annotations

from ui.common import router_state
import streamlit as st

from ui.path_view import render_path_indicator
from ui.thinking import render_thinking


def _has_modes(domain: str) -> bool:
    """A domain has modes when its tools declare a category (cfo: cfo / bookkeeper); a result of a
    domain without them shows no mode badge, whatever mode the path planner filled in."""
    router = router_state(domain).router
    return router is not None and any(getattr(t, "category", None) for t in router.domain.tools)


def render(result: dict, entry: dict, *, key: str, latest: bool) -> None:
    render_path_indicator(result, key=key, show_mode=_has_modes(str(result.get("domain", ""))))
    render_thinking(result)


def link_widgets(router, params: dict) -> dict:
    """The replay toggle as a link names it (?data_mode=replay; no data_mode: off)."""
    if "replay" not in router.data_modes:
        return {}
    return {f"data_mode_replay_{router.name}": params.get("data_mode") == "replay"}


def request_options(router) -> dict:
    """Sidebar: the data mode (replay runs the fast path's pipeline on recorded responses), in a domain that has one."""
    if "replay" not in router.data_modes:
        return {}
    replay = st.sidebar.toggle("Replay data", value=False, key=f"data_mode_replay_{router.name}",
                               help="Run the fast path's pipeline on recorded API responses (no network) and compute its enrichments.")
    return {"data_mode": "replay"} if replay else {}
