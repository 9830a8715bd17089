"""The thinking panel: a route's events as they happen, in an st.status that fills while the router
works (Router.route(..., on_event=...)), then stays on the card with each event's time."""
from __future__ import annotations

import inspect

import streamlit as st

from ui.path_view import EVENT_LABELS


def _line(event: dict) -> str:
    etype = event.get("type", "?")
    detail = {k: v for k, v in event.items() if k not in ("type", "t_ms")}
    shown = ", ".join(f"{k}={v}" for k, v in detail.items() if v not in (None, [], ""))
    return f"`{event.get('t_ms', 0):7.2f} ms` **{EVENT_LABELS.get(etype, etype)}**" + (f" · {shown[:160]}" if shown else "")


def route_with_thinking(router, query, **kwargs):
    """router.route(query, **kwargs) with its events written into a live status panel as they arrive
    (a design whose route takes no listener is routed as is)."""
    if "on_event" not in inspect.signature(router.route).parameters:
        return router.route(query, **kwargs)
    with st.status("Thinking…", expanded=False) as panel:
        result = router.route(query, on_event=lambda e: panel.write(_line(e)), **kwargs)
        panel.update(label=f"Routed in {result.timing_ms:.1f} ms · {len(result.events)} events", state="complete")
    return result


def render_thinking(result: dict) -> None:
    """The events of a routed result with their times (a card drawn again after a rerun)."""
    events = [e for e in result.get("events") or [] if "t_ms" in e]
    if not events:
        return
    with st.expander(f"Thinking: {len(events)} events in {events[-1]['t_ms']:.1f} ms"):
        for e in events:
            st.markdown(_line(e))
