"""The path indicator (fast path / LLM path) and the event timeline of a route result.

Both take `RouteResult.to_dict()`; every decision was made in routing.paths (plan, classify, cost, run), this only draws it.
The "Run on the LLM" button calls routing.paths.run.run_llm and shows the tool call, or the
UPSTREAM_DOWN reason with the request that would have been sent.
"""
from __future__ import annotations

import hashlib
import html
import json

import streamlit as st

from ui.common import PATH_COLORS

MODE_COLORS = {"cfo": "#2f6fdf", "bookkeeper": "#d0651a", "general_chat": "#6b7280"}
MODE_LABELS = {"cfo": "CFO", "bookkeeper": "Bookkeeper", "general_chat": "Chat"}
MODE_HELP = {
    "cfo": "CFO mode: questions about reports and analysis",
    "bookkeeper": "Bookkeeper mode: actions such as creating invoices or recording payments",
    "general_chat": "Chat mode: small talk, no business tool needed",
}
EVENT_LABELS = {
    "route_started": "Route started",
    "route_classified": "Classified",
    "tools_filtered": "Tools filtered",
    "pipeline_executing": "Pipeline executing",
    "enrichments_applying": "Enrichments applying",
    "mode_switch": "Mode switch",
    "llm_called": "LLM answered",
    "llm_failed": "LLM unavailable",
    "route_rejected": "Rejected",
}


def _badge(text: str, color: str) -> str:
    return (
        f"<span style='background:{color};color:#fff;border-radius:0.6rem;padding:0.1rem 0.55rem;"
        f"font-size:0.85rem;font-weight:600;white-space:nowrap'>{text}</span>"
    )


def mode_badge(mode: str | None) -> str:
    """HTML badge for a mode, in its colour (for conversation views). Outlined, not filled, so it is
    never mistaken for a tier badge (CFO blue is close to the "Multiple matches" blue)."""
    if not mode:
        return ""
    color = MODE_COLORS.get(mode, "#6b7280")
    title = html.escape(MODE_HELP.get(mode, f"{mode} mode"), quote=True)
    return (
        f"<span title='{title}' style='border:1.5px solid {color};color:{color};border-radius:0.6rem;"
        f"padding:0.05rem 0.5rem;font-size:0.85rem;font-weight:600;white-space:nowrap'>"
        f"{MODE_LABELS.get(mode, mode)} mode</span>"
    )


def _mode_switch_note(switch: dict | None) -> None:
    if switch:
        st.info(
            f"Mode switch: {MODE_LABELS.get(switch.get('from'), switch.get('from'))} → "
            f"{MODE_LABELS.get(switch.get('to'), switch.get('to'))} ({switch.get('reason', '')})",
            icon=":material/swap_horiz:",
        )


def _money(usd: float | None) -> str:
    if usd is None:
        return "-"
    return f"${usd:.6f}" if usd < 0.01 else f"${usd:,.4f}"


def _estimate_line(result: dict) -> str:
    est = result.get("estimate") or {}
    if not est:
        return ""
    cached = est.get("cached_cost_usd")
    cache = f" ({_money(cached)} with the prompt cached)" if cached is not None and cached < est.get("cost_usd", 0) else ""
    return f"≈ {est.get('tokens', 0):,} tokens · {_money(est.get('cost_usd'))}{cache} · ~{est.get('latency_ms', 0):,.0f} ms"


def _result_key(result: dict) -> str:
    raw = json.dumps([result.get("domain"), result.get("query"), result.get("today"), result.get("timing_ms")], default=str)
    return hashlib.sha1(raw.encode()).hexdigest()[:12]


def render_path_indicator(result: dict, *, key: str | None = None) -> None:
    """Fast path: lightning, intent, confidence, pipeline, enrichments. LLM path: brain, mode, tools, model.

    `key` makes the "Run on the LLM" button unique when one result is drawn twice on a page.
    """
    path = result.get("path")
    if path is None:
        return
    key = key or _result_key(result)
    mode = result.get("mode")  # None in a domain without conversation modes: no mode badge
    switch = next((e for e in result.get("events") or [] if e.get("type") == "mode_switch"), None)
    with st.container(border=True):
        if path == "fast":
            top = (result.get("matches") or [{}])[0]
            st.markdown(
                f"{_badge(':material/bolt: Fast path', PATH_COLORS['fast'])} &nbsp; "
                f"**{top.get('name', '?')}** · confidence **{top.get('confidence', 0):.2f}**"
                + (f" &nbsp; {mode_badge(mode)}" if mode in MODE_COLORS else ""),
                unsafe_allow_html=True,
            )
            reason = result.get("path_reason") or ""  # starts with the intent's name: keep its case
            st.caption(f"{reason}. The cheapest model ({result.get('model') or '-'}) only formats the answer; no tools are sent.")
            _mode_switch_note(switch)
            steps = result.get("pipeline") or []
            if steps:
                lines = []
                for i, step in enumerate(steps, 1):
                    params = ", ".join(f"{k}={v}" for k, v in (step.get("params") or {}).items())
                    still_open = ", ".join(step.get("open") or [])
                    lines.append(
                        f"{i}. `{step.get('tool')}`" + (f" ({params})" if params else "")
                        + (f" · *to ask: {still_open}*" if still_open else "")
                    )
                st.markdown("**Pipeline**\n\n" + "\n".join(lines))
                for note in result.get("pipeline_notes") or []:
                    st.caption(note[:1].upper() + note[1:])
            _enrichments(result, key)
        else:
            tools = result.get("tools_sent") or []
            tier = result.get("model_tier")
            st.markdown(
                f"{_badge(':material/psychology: LLM path', PATH_COLORS['llm'])} &nbsp; {mode_badge(mode)} &nbsp; "
                f"**{len(tools)} tools** · model **{result.get('model') or '-'}**" + (f" ({tier})" if tier else ""),
                unsafe_allow_html=True,
            )
            reasons = [x for x in (result.get("path_reason"), result.get("model_reason")) if x]
            st.caption(". ".join(x[:1].upper() + x[1:] for x in reasons) + ".")
            _mode_switch_note(switch)
            if tools:
                with st.expander(f"Tools sent to the model ({len(tools)})"):
                    st.markdown(" ".join(f"`{t}`" for t in tools))
            _enrichments(result, key)
        line = _estimate_line(result)
        if line:
            st.caption(f"Estimate per message: {line}")
        _llm_runner(result, key)


def _enrichments(result: dict, key: str = "") -> None:
    names = result.get("enrichments") or []
    if names:
        st.markdown("**Enrichments** " + " ".join(f"`{n}`" for n in names))
    from ui.enrichments import render_enrichment_results

    render_enrichment_results(result, key=key or _result_key(result))


def _llm_runner(result: dict, key: str) -> None:
    """A button that runs the path for real; the answer is kept in session_state across reruns."""
    slot = f"llm_run::{key}"
    label = "Run on the LLM" if result.get("path") == "llm" else "Format with the LLM"
    if st.button(label, key=f"btn::{key}", icon=":material/play_arrow:"):
        st.session_state[slot] = _run(result)
    answer = st.session_state.get(slot)
    if answer is None:
        return
    if answer.get("error"):
        err = answer["error"]
        st.warning(f"**{err.get('code')}**: {err.get('message')}", icon=":material/cloud_off:")
    llm = answer.get("llm") or {}
    call = llm.get("tool_call")
    if call:
        st.success(f"The model ({llm.get('model')}) called **{call.get('name')}**", icon=":material/call_made:")
        st.json(call.get("arguments") or {}, expanded=True)
    if llm.get("text"):
        st.markdown(f"> {llm['text']}")
    if llm.get("request"):
        with st.expander("The request" + (" that would have been sent" if answer.get("error") else " sent")):
            st.json(llm["request"], expanded=False)


def _run(result: dict) -> dict:
    from routing.paths.run import run_llm_for_dict
    from ui.common import router_state

    try:
        state = router_state(result["domain"])
        if state.router is None:
            return {"error": {"code": "LEXICON_INVALID", "message": "This domain's lexicon does not load."}}
        return run_llm_for_dict(state.router, result)
    except Exception as exc:  # the page never shows a traceback; the reason goes in the message
        return {"error": {"code": "UPSTREAM_DOWN", "message": f"The LLM call could not be prepared: {type(exc).__name__}"}}


def render_events(result: dict) -> None:
    """The events of a route, in order, as a compact timeline; a mode switch stands out."""
    events = result.get("events") or []
    if not events:
        return
    parts = []
    for e in events:
        etype = e.get("type", "?")
        label = EVENT_LABELS.get(etype, etype)
        detail = _event_detail(e)
        color = MODE_COLORS.get(e.get("to"), "#b45309") if etype == "mode_switch" else "#4b5563"
        weight = "700" if etype == "mode_switch" else "500"
        parts.append(
            f"<span style='border:1px solid {color};color:{color};border-radius:0.4rem;padding:0.05rem 0.45rem;"
            f"font-size:0.8rem;font-weight:{weight};white-space:nowrap'>{label}{(': ' + detail) if detail else ''}</span>"
        )
    st.markdown(" → ".join(parts), unsafe_allow_html=True)


def _event_detail(e: dict) -> str:
    t = e.get("type")
    if t == "route_classified":
        return " / ".join(str(x) for x in (e.get("status"), e.get("category")) if x)
    if t == "tools_filtered":
        return f"{e.get('count', 0)} tools"
    if t == "pipeline_executing":
        return f"{e.get('steps', 0)} steps"
    if t == "enrichments_applying":
        return ", ".join(e.get("enrichments") or []) or "none"
    if t == "mode_switch":
        return f"{MODE_LABELS.get(e.get('from'), e.get('from'))} → {MODE_LABELS.get(e.get('to'), e.get('to'))}"
    if t in ("llm_called", "llm_failed"):
        return str(e.get("tool") or e.get("reason") or "")
    return ""
