"""Carrying a conversation on: choosing a candidate of a card, what the conversation carries (the
context panel), and the conversation as JSON and Markdown."""
from __future__ import annotations

import json
import re

import streamlit as st

from ui.common import TIER_LABELS, router_state

PENDING = "_pending_query"  # the playground routes what is put here on its next run (a list of questions)
CHOSEN = "chosen"  # entry key: the candidate a person chose to carry on with


def _choose(entry: dict, name: str) -> None:
    entry[CHOSEN] = name


def _ask_instead(query: str) -> None:
    st.session_state[PENDING] = [query]


def with_player(query: str, mention: str, name: str) -> str:
    """The question with the ambiguous mention replaced by the chosen player's full name."""
    rx = re.compile(r"(?<!\w)" + re.escape(mention) + r"(?!\w)", re.IGNORECASE)
    out, n = rx.subn(name, query, count=1)
    return out if n else f"{query} ({name})"


def render_choices(result: dict, entry: dict, *, key: str) -> None:
    """Multiple / weak matches: choose one and the card shows the call the agent makes (the tool
    and its parameters). An ambiguous player: choose one and the question is asked about them."""
    error = result.get("error") or {}
    if error.get("code") == "AMBIGUOUS_ENTITY":
        players = (error.get("details") or {}).get("candidates") or []
        if players:
            with st.container(horizontal=True, key=f"choose-player-{key}"):
                st.markdown("**Which one?**", width="content")
                for p in players:
                    st.button(f"{p['name']} ({p.get('team', '')})", key=f"player-{key}-{p['id']}", icon=":material/person:",
                              on_click=_ask_instead, args=(with_player(str(result.get("query", "")), p.get("mention") or "", p["name"]),))
        return
    if result.get("design") not in (None, "tools") or result.get("status") not in ("multiple_matches", "weak_matches"):
        return
    matches = result.get("matches") or []
    if len(matches) < 1:
        return
    with st.container(horizontal=True, key=f"choose-tool-{key}"):
        st.markdown("**Carry on with:**", width="content")
        for m in matches:
            st.button(m["name"], key=f"choose-{key}-{m['name']}", on_click=_choose, args=(entry, m["name"]),
                      type="primary" if entry.get(CHOSEN) == m["name"] else "secondary", icon=":material/call_made:")
    chosen = next((m for m in matches if m["name"] == entry.get(CHOSEN)), None)
    if chosen is not None:
        call = {"tool": chosen["name"], "arguments": chosen.get("suggested_params") or {}}
        missing = [p for p in chosen.get("key_params") or [] if p not in call["arguments"]]
        st.markdown(f"The agent calls **`{chosen['name']}`** with the parameters the router filled in"
                    + (f"; it still needs {', '.join(f'`{p}`' for p in missing)} from the person." if missing else "."))
        st.code(json.dumps(call, indent=2, ensure_ascii=False), language="json")


def carried(conversation: list[dict], router) -> dict:
    """What the conversation carries into the next question, in words a person reads."""
    out: dict[str, str] = {}
    latest = next((e for e in conversation if e.get("result")), None)
    if latest is None:
        return out
    carry = getattr(router, "next_context", None)
    ctx = carry(latest["result"]) if carry else {}
    roster = getattr(router, "roster", None)
    if ctx.get("player_ids") and roster is not None:
        names = [p.name for p in (roster.by_id(i) for i in ctx["player_ids"]) if p is not None]
        if names:
            out["Players"] = ", ".join(names)
    if ctx.get("mode"):
        out["Mode"] = str(ctx["mode"])
    for k, label in (("max_depth", "Max depth"), ("data_mode", "Data mode")):
        if (latest.get("options") or {}).get(k):
            out[label] = str(latest["options"][k])
    powers = [n for n, r in (latest.get("activations") or {}).items() if r.get("status") == "activated"]
    if powers:
        out["Active powers"] = ", ".join(powers)
    if latest.get(CHOSEN):
        out["Chosen tool"] = latest[CHOSEN]
    return out


def render_context_panel(conversation: list[dict], router, slot=None) -> None:
    """What the next question carries, as chips; into `slot` (an st.empty) when given, which is
    cleared when nothing is carried."""
    facts = carried(conversation, router)
    if not facts:
        if slot is not None:
            slot.empty()
        return
    if slot is not None:
        slot = slot.container()
    chips = " ".join(f"<span style='white-space:nowrap;border:1px solid rgba(128,128,128,0.35);border-radius:0.8rem;"
                     f"padding:0.1rem 0.55rem;margin-right:0.3rem'><span style='opacity:0.7'>{k}</span> <b>{v}</b></span>"
                     for k, v in facts.items())
    (slot or st).markdown(f"<div style='font-size:0.9rem;margin:0.2rem 0 0.5rem'>The next question carries: {chips}</div>",
                          unsafe_allow_html=True)


def export_json(conversation: list[dict]) -> str:
    """The conversation, oldest first, as the agent saw it: each question, its result and what was chosen."""
    turns = []
    for e in reversed(conversation):
        turn = {"query": e.get("query"), "result": e.get("result"), "options": e.get("options") or {}}
        if e.get(CHOSEN):
            turn["chosen"] = e[CHOSEN]
        if e.get("activations"):
            turn["activations"] = e["activations"]
        if e.get("failure"):
            turn["failure"] = e["failure"].splitlines()[-1] if e["failure"] else ""
        turns.append(turn)
    return json.dumps({"turns": turns}, ensure_ascii=False, indent=2, default=str)


def export_markdown(conversation: list[dict]) -> str:
    lines = ["# Conversation", ""]
    for i, e in enumerate(reversed(conversation), 1):
        r = e.get("result") or {}
        lines.append(f"## {i}. {e.get('query', '')}")
        lines.append("")
        if not r:
            lines += ["Could not be routed.", ""]
            continue
        lines.append(f"- **Tier:** {TIER_LABELS.get(r.get('status', ''), r.get('status', ''))} · domain {r.get('domain')} · today {r.get('today')}")
        for m in r.get("matches") or []:
            params = ", ".join(f"{k}={v}" for k, v in (m.get("suggested_params") or {}).items())
            lines.append(f"- `{m['name']}` · confidence {float(m.get('confidence', 0)):.3f}" + (f" · {params}" if params else ""))
        for d in r.get("dates") or []:
            if d.get("start"):
                lines.append(f"- “{d['text']}” → {d['start']} .. {d['end']}")
        if r.get("error"):
            lines.append(f"- {r['error'].get('message')} (`{r['error'].get('code')}`)")
        if r.get("clarifying_question"):
            lines.append(f"- Asks: {r['clarifying_question']}")
        if e.get(CHOSEN):
            lines.append(f"- Carried on with `{e[CHOSEN]}`")
        for name, reply in (e.get("activations") or {}).items():
            lines.append(f"- Activated power `{name}`: {len(reply.get('tools') or [])} tools")
        lines.append("")
    return "\n".join(lines)
