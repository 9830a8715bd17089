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

from ui.common import PATH_COLORS, confidence_text

MODE_COLORS = {"cfo": "#2f6fdf", "bookkeeper": "#d0651a", "general_chat": "#6b7280"}
MODE_LABELS = {"cfo": "CFO", "bookkeeper": "Bookkeeper", "general_chat": "Chat"}
MODE_HELP = {
    "cfo": "CFO mode: questions about reports and analysis",
    "bookkeeper": "Bookkeeper mode: actions such as creating invoices or recording payments",
    "general_chat": "Chat mode: small talk, no business tool needed",
}
UPSTREAM_WORDS = {
    "UPSTREAM_DOWN": "No AI model can be reached from here; below is what would have been sent",
    "LEXICON_INVALID": "This domain's lexicon does not load",
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


def render_path_indicator(result: dict, *, key: str | None = None, show_mode: bool = True) -> None:
    """How the question would run, in plain words (technical names on hover). Fast path: a fixed
    pipeline of API calls, the model only words the answer. LLM path: a model chooses among tools.

    `key` makes the "Run on the LLM" button unique when one result is drawn twice on a page.
    """
    path = result.get("path")
    if path is None:
        return
    key = key or _result_key(result)
    mode = result.get("mode") if show_mode else None  # only a domain with modes shows one
    switch = next((e for e in result.get("events") or [] if e.get("type") == "mode_switch"), None)
    with st.container(border=True, key=f"path-{key}"):
        if path == "fast":
            steps = result.get("pipeline") or []
            st.markdown(
                f"<span title='Fast path: {html.escape(result.get('path_reason') or '', quote=True)}'>"
                f"{_badge(':material/bolt: Fast path', PATH_COLORS['fast'])}</span> &nbsp; "
                f"**How it runs:** {len(steps)} API call{'s' if len(steps) != 1 else ''}, no AI model chooses"
                + (f" &nbsp; {mode_badge(mode)}" if mode in MODE_COLORS else ""),
                unsafe_allow_html=True,
            )
            st.caption(
                f"The question matches a known tool, so its steps run directly; the cheapest model "
                f"({result.get('model') or '-'}) only words the answer and no tools are sent to it.",
                help=result.get("path_reason") or None,
            )
            _mode_switch_note(switch)
            if steps:
                lines = []
                # The API's names (from/to) beside the tool's (date_from/date_to) where the value is the same.
                suggested = {str(v): k for k, v in ((result.get("matches") or [{}])[0].get("suggested_params") or {}).items()}
                for i, step in enumerate(steps, 1):
                    params = ", ".join(
                        f"{k}={v}" + (f" ({suggested[str(v)]})" if str(v) in suggested and suggested[str(v)] != k else "")
                        for k, v in (step.get("params") or {}).items()
                    )
                    still_open = ", ".join(step.get("open") or [])
                    lines.append(
                        f"{i}. `{step.get('tool')}`" + (f" ({params})" if params else "")
                        + (f" · *to ask: {still_open}*" if still_open else "")
                    )
                st.markdown("**Steps**\n\n" + "\n".join(lines),
                            help="The API calls of the tool's pipeline, with the values taken from the question "
                                 "(the API's own parameter names).")
                for note in result.get("pipeline_notes") or []:
                    st.caption(note[:1].upper() + note[1:])
            _enrichments(result, key)
        else:
            tools = result.get("tools_sent") or []
            tier = result.get("model_tier")
            tier_words = {"cheap": "a small, cheap model", "capable": "a larger, more capable model"}.get(tier, "a model")
            st.markdown(
                f"<span title='LLM path: {html.escape(result.get('path_reason') or '', quote=True)}'>"
                f"{_badge(':material/psychology: LLM path', PATH_COLORS['llm'])}</span> &nbsp; "
                + (f"{mode_badge(mode)} &nbsp; " if mode in MODE_COLORS else "")
                + f"**How it runs:** {tier_words} (**{result.get('model') or '-'}**"
                + (f", {tier}" if tier else "") + ")"
                + (f" chooses among **{len(tools)} tools**" if tools else " replies; no tools are sent"),
                unsafe_allow_html=True,
            )
            reasons = [x for x in (result.get("path_reason"), result.get("model_reason")) if x]
            st.caption(". ".join(x[:1].upper() + x[1:] for x in reasons) + ".")
            _mode_switch_note(switch)
            if tools:
                total = len(result.get("available") or [])
                label = f"The {len(tools)} tools the model would choose from"
                with st.expander(label + (f" (of the domain's {total})" if total and total != len(tools) else "")):
                    if mode in MODE_COLORS and total and total != len(tools):
                        st.caption(f"Only the tools of {MODE_LABELS.get(mode, mode)} mode are sent; fewer tools make a cheaper, surer choice.")
                    st.markdown(" ".join(f"`{t}`" for t in tools))
            _enrichments(result, key)
        line = _estimate_line(result)
        if line:
            st.caption(f"Model cost per message (estimate): {line}",
                       help="From the domain's model prices in settings.yaml: tokens sent and received, price, and "
                            "expected time including the pipeline's API calls. Nothing was sent.")
        _llm_runner(result, key)


def _enrichments(result: dict, key: str = "") -> None:
    names = result.get("enrichments") or []
    if names:
        st.markdown(
            "**Then** " + ", ".join(n.replace("_", " ") for n in names),
            help="Post-processing steps on the answer (the domain's enrichments): " + ", ".join(names),
        )
    from ui.enrichments import render_enrichment_results

    render_enrichment_results(result, key=key or _result_key(result))


STAND_IN = "local-stand-in"  # the model name routing.paths.fake_model answers with


def _llm_runner(result: dict, key: str) -> None:
    llm_runner(result, key)


def llm_runner(result: dict, key: str, *, label: str | None = None) -> dict | None:
    """A button that runs the design's LLM path for real (the request asks for the LLM: nothing is
    sent before it is pressed); the answer is kept in session_state across reruns and returned."""
    slot = f"llm_run::{key}"
    label = label or ("Run on the LLM" if result.get("path") == "llm" else "Format with the LLM")
    if st.button(label, key=f"btn::{key}", icon=":material/play_arrow:"):
        st.session_state[slot] = _run(result)
    answer = st.session_state.get(slot)
    if answer is None:
        return None
    llm = answer.get("llm") or {}
    if str(llm.get("model") or "").startswith(STAND_IN):
        st.info("Answered by the **local stand-in model** (`python -m routing fake-llm`): a deterministic word-overlap "
                "policy for demos and tests, not a language model.", icon=":material/science:")
    if answer.get("error"):
        err = answer["error"]
        plain = UPSTREAM_WORDS.get(err.get("code"), "The model could not be asked")
        st.warning(f"{plain}. {err.get('message')}", icon=":material/cloud_off:")
        st.caption(f"Error code `{err.get('code')}`")
    call = llm.get("tool_call")
    if call:
        st.success(f"The model ({llm.get('model')}) called **{call.get('name')}**", icon=":material/call_made:")
        st.json(call.get("arguments") or {}, expanded=True)
    mi = llm.get("match_intent")
    if mi:
        listed = ", ".join(f"**{i['name']}** ({confidence_text(i['confidence'], result.get('thresholds'))})" for i in mi.get("intents") or []) or "no intent"
        agree = {True: " — agrees with the model's guess", False: " — not the model's guess"}.get(mi.get("agrees"), "")
        st.markdown(f":material/manage_search: match_intent answered (the router's own ranking): {listed}{agree}")
    if llm.get("text"):
        st.markdown(f"> {llm['text']}")
    if call and answer.get("enrichment_results") and str(answer.get("enrichments_source", "")).startswith("detected"):
        st.markdown("**Enrichments " + html.escape(answer["enrichments_source"].split(":")[0]) + "**")
        for e in answer["enrichment_results"]:
            st.caption(f"{e['name'].replace('_', ' ')}: {e['summary']}")
    _measured(llm)
    if llm.get("request"):
        with st.expander("The request" + (" that would have been sent" if answer.get("error") else " sent")):
            st.json(llm["request"], expanded=False)
    return answer


def _measured(llm: dict) -> None:
    """Cost, cache hit and latency read from the reply (not estimated), when a model answered."""
    m = llm.get("measured")
    if m:
        cache = f"{m['cached_tokens']} of them cached (a cache hit)" if m.get("cache_hit") else "none cached"
        st.caption(f":material/receipt_long: **Measured** from the reply's usage and the clock: {m['input_tokens']} tokens in ({cache}), "
                   f"{m['output_tokens']} out, ${m['cost_usd']:.6f} priced as {m.get('priced_as')}, {m.get('latency_ms')} ms.")
    elif llm.get("usage"):
        u = llm["usage"]
        st.caption(f":material/receipt_long: **Measured** from the reply: {u.get('prompt_tokens')} tokens in ({u.get('cached_tokens', 0)} cached), "
                   f"{u.get('completion_tokens')} out, {llm.get('latency_ms')} ms.")


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
