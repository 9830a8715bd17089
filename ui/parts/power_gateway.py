"""Card part of design `power_gateway`: the reply exactly as an agent receives it, an Activate
button per candidate power (a live child server where there is one; its tools are then listed),
and the token meter (this reply against every power's tools sent at start-up).

Live child servers are shared by the whole app (one per power, at most a few): a process-wide
pool per domain; a child stops after 10 minutes unused (a browser session can end without a
word), and every child stops when the domain's lexicon changes, on "Stop live servers", and at exit.
"""
from __future__ import annotations

import json
import threading

import streamlit as st

from routing.designs.power_gateway.design import agent_view
from ui.cards import md_escape
from ui.common import confidence_text, router_state
from ui.redraw import redraw

ACTIVATIONS = "activations"  # entry key: power name -> activate_power reply


class _Pools:
    """One BlockingPool per domain, rebuilt (old one closed) when the domain's lexicon changes."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pools: dict[str, tuple[str, object]] = {}

    def pool(self, gateway):
        from routing.mcp.proxy import BlockingPool

        with self._lock:
            held = self._pools.get(gateway.name)
            if held is not None and held[0] == gateway.domain.fingerprint:
                return held[1]
            if held is not None:
                held[1].close()
            pool = BlockingPool(gateway)
            self._pools[gateway.name] = (gateway.domain.fingerprint, pool)
            return pool

    def live(self, domain: str) -> list[str]:
        held = self._pools.get(domain)
        return held[1].live_powers() if held else []

    def close(self, domain: str) -> None:
        with self._lock:
            held = self._pools.pop(domain, None)
        if held is not None:
            held[1].close()


@st.cache_resource(show_spinner=False)
def live_pools() -> _Pools:
    return _Pools()


def _activate(entry: dict, domain: str, name: str) -> None:
    """Button callback: activate the power and keep the reply with the card."""
    gateway = router_state(domain).router
    try:
        reply = live_pools().pool(gateway).activate(name)
    except Exception as exc:  # noqa: BLE001 - shown on the card, never a traceback
        reply = {"status": "error", "error": {"code": "POWER_START_FAILED", "message": f"{name} could not be activated: {exc}"}}
    reply.pop("changed", None)
    activations = entry.setdefault(ACTIVATIONS, {})
    activations.pop(name, None)  # re-activated: it becomes the newest exchange
    activations[name] = reply


def activate_linked(entry: dict, domain: str, names: str) -> None:
    """A link's ?power=a,b: activate those powers on the card the link opens (unknown names get the
    same clear error the Activate button shows)."""
    for name in [n.strip() for n in str(names).split(",") if n.strip()][:3]:
        _activate(entry, domain, name)


def _stop(domain: str, entry: dict) -> None:
    live_pools().close(domain)
    for reply in (entry.get(ACTIVATIONS) or {}).values():
        if reply.get("live"):
            reply["stopped"] = True


def _token_meter(meter: dict) -> None:
    used, every = int(meter.get("response_tokens", 0)), int(meter.get("all_tools_tokens", 0))
    if not every:
        return
    pct = min(used / every, 1.0) * 100
    st.markdown(
        f"<div style='font-size:0.9rem;margin:0.3rem 0 0.25rem'><b>Token meter</b> · this reply puts <b>{used:,}</b> tokens "
        f"into the agent's context; loading every power's tools up front would take <b>{every:,}</b> "
        f"(<b>{1 - used / every:.0%} less</b>) <span style='opacity:0.65'>· {meter.get('encoding', '')} tokenizer</span></div>"
        f"<div style='height:0.55rem;margin-bottom:1rem;border-radius:0.25rem;background:rgba(194,59,59,0.25)' role='meter' "
        f"aria-valuenow='{used}' aria-valuemin='0' aria-valuemax='{every}' title='this reply / every tool'>"
        f"<div style='height:100%;width:{max(pct, 0.8):.1f}%;border-radius:0.25rem;background:#1e9e5a'></div></div>",
        unsafe_allow_html=True,
    )


def _candidates(result: dict) -> list[tuple[str, str, float | None]]:
    if result.get("power"):
        p = result["power"]
        desc = next((m.get("description", "") for m in result.get("matches") or [] if m["name"] == p["name"]), "")
        return [(p["name"], desc, p.get("confidence"))]
    return [(m["name"], m.get("description", ""), m.get("confidence")) for m in result.get("matches") or []]


def _render_activation(name: str, reply: dict, running: bool) -> None:
    if reply.get("status") != "activated":
        st.error(md_escape((reply.get("error") or {}).get("message", f"{name} could not be activated.")), icon=":material/error:")
        return
    tools = reply.get("tools") or []
    if reply.get("live") and (reply.get("stopped") or not running):
        st.info(f"**{name}**: its live server was stopped (by you, or after a while unused). Activate it again to restart it.",
                icon=":material/stop_circle:")
    elif reply.get("live"):
        st.success(f"**{name}** is active: a live MCP server is running and lists **{len(tools)} tools**.", icon=":material/bolt:")
    else:
        st.info(f"**{name}** is active, described only (no server configured here): **{len(tools)} tools** from its description.",
                icon=":material/description:")
    lines = []
    for t in tools:
        description, _, guidance = (t.get("description") or "").partition("--- EXPERT GUIDANCE ---")
        line = f"- `{t['name']}` — {md_escape(description.strip())}"
        if guidance.strip():
            line += f"  \n  <span style='opacity:0.75;font-size:0.9rem'>Guidance: {md_escape(guidance.strip())}</span>"
        lines.append(line)
    st.markdown("\n".join(lines), unsafe_allow_html=True)


def render(result: dict, entry: dict, *, key: str, latest: bool) -> None:
    if result.get("error"):
        return
    domain = result.get("domain", "")
    _token_meter(result.get("token_meter") or {})
    _gateway_part(result, entry, domain, key, latest)


@st.fragment
def _gateway_part(result: dict, entry: dict, domain: str, key: str, latest: bool) -> None:
    """A fragment: Activate (which may start a server for seconds) greys only this part of the card."""
    left, right = st.columns([3, 2], gap="medium")
    with right:
        activations = entry.get(ACTIVATIONS) or {}
        if activations:  # the newest exchange is activate_power: show that reply, not the earlier one
            name, reply = list(activations.items())[-1]
            st.markdown(f"**What the agent receives** · the `activate_power` reply for **{name}**, exactly")
            st.code(json.dumps(reply, indent=2, ensure_ascii=False), language="json", height=380 if latest else 200, wrap_lines=True)
            with st.expander("The `resolve_intent` reply before it", icon=":material/history:"):
                st.code(json.dumps(agent_view(result), indent=2, ensure_ascii=False), language="json", wrap_lines=True)
        else:
            st.markdown("**What the agent receives** · the `resolve_intent` reply, exactly")
            st.code(json.dumps(agent_view(result), indent=2, ensure_ascii=False), language="json", height=380 if latest else 200, wrap_lines=True)
    with left:
        _choices(result, entry, domain, key)
    # What an activation changes outside the card (its share link; on the newest card also the context
    # panel and the address bar) is drawn from here, in every run: Streamlit lets a fragment rerun
    # fill an outside slot only if the fragment wrote it in the full run too. No full rerun follows
    # an activation (it raced this run and greyed the whole page: ui/redraw.py).
    redraw(f"meta-{key}", *(("context", "url") if latest else ()))


def _choices(result: dict, entry: dict, domain: str, key: str) -> None:
    candidates = _candidates(result)
    if candidates:
        st.markdown("**Powers to switch on** · *Activate* starts the power's server (where there is one) and lists its tools")
        for name, description, confidence in candidates:
            text, button = st.columns([3, 2], vertical_alignment="center")
            conf = f" · confidence {confidence_text(confidence, result.get('thresholds'))}" if confidence is not None else ""
            text.markdown(f"**{name}**{conf}  \n{md_escape(description)}")
            button.button(f"Activate {name}", key=f"activate-{key}-{name}", on_click=_activate, args=(entry, domain, name),
                          icon=":material/power_settings_new:", width="stretch")
    elif result.get("available_powers"):
        names = [p["name"] for p in result["available_powers"]]
        pick, button = st.columns([3, 2], vertical_alignment="bottom")
        pick.selectbox("No power fits. Pick one yourself:", names, key=f"pick-{key}")
        button.button("Activate", key=f"activate-{key}-picked", on_click=lambda: _activate(entry, domain, st.session_state[f"pick-{key}"]),
                      icon=":material/power_settings_new:", width="stretch")
    running = live_pools().live(domain)
    for name, reply in (entry.get(ACTIVATIONS) or {}).items():
        _render_activation(name, reply, name in running)
    if running:
        st.button("Stop live servers", key=f"stop-{key}", on_click=_stop, args=(domain, entry), type="tertiary",
                  icon=":material/stop_circle:", help="Stops every live power server this app started.")
