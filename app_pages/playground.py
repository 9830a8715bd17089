"""Playground: type a question, see which tool it routes to and why. A conversation of result cards."""
from __future__ import annotations

import streamlit as st

from ui.cards import failure_details, md_escape, render_result_card, status_badge
from ui.common import language_phrase, page_setup, require_router
from ui.parts import request_options
from ui.context import apply_shared_link, render_domain_and_today, render_threshold_sliders, sync_url
from ui.conversation import export_json, export_markdown, render_context_panel
from ui.examples import example_needs, no_examples_hint, playground_examples
from ui.signal_words import confidence_summary
from ui import redraw

CONVERSATION = "conversation"
PENDING = "_pending_query"
FULL_CARDS = 10  # older entries are listed compactly, so a long demo stays fast to redraw
CHART_CARDS = 4  # the browser takes ~0.15 s per Plotly chart: only the newest cards draw theirs

page_setup("playground")
linked = apply_shared_link("playground") or {}
linked_query = (linked.get("q") or "").strip() or None
render_domain_and_today()
if CONVERSATION not in st.session_state:
    st.session_state[CONVERSATION] = []
    st.session_state["_conversation_seq"] = 0

router = require_router(st.session_state.domain)
thresholds = render_threshold_sliders(router)
options = request_options(router)

st.title("Query-routing playground")
st.caption(
    f"Ask a question in {language_phrase(router.domain.settings.languages)}. The router picks the "
    f"{'power(s) an AI agent would switch on' if getattr(router, 'design', '') == 'power_gateway' else 'tool(s) an AI agent would call'}, "
    "says how sure it is, and shows why."
)
made = router.confidence_source() if hasattr(router, "confidence_source") else {}
if made.get("dense") or made.get("calibrated"):  # a fused or calibrated domain says how its confidence is made
    st.caption(f":material/tune: **How confidence is made**: {md_escape(confidence_summary(made))}", help=made["how"])


from ui.thinking import route_with_thinking  # noqa: E402 (the events panel fills as the router works)


def _ask(query: str) -> None:
    """An example clicked. A follow-up ("why is he declining") clicked before anything was asked in
    this domain first asks the question it follows, as a person would have."""
    before = example_needs(router.domain, query)
    st.session_state[PENDING] = [before, query] if before and not _mine() else [query]


def _clear() -> None:
    """Clear this domain's conversation (another domain's cards wait for its return)."""
    st.session_state[CONVERSATION] = [e for e in st.session_state[CONVERSATION] if e.get("domain") != router.name]


def _mine() -> list[dict]:
    """This domain's cards, newest first: switching domain shows that domain's conversation, and
    switching back (or Back in the browser) shows this one again, never a card nobody asked for."""
    return [e for e in st.session_state[CONVERSATION] if e.get("domain", router.name) == router.name]


def _route(query: str, *, again: bool = False) -> None:
    """Route one question and put its card on top; a failure becomes a friendly card. Asked again
    because the sidebar changed: the card asked with the earlier settings stays, and a card that
    was itself such a re-ask is replaced, so dragging a slider never piles up copies."""
    mine = _mine()
    if again and mine and mine[0].get("again"):
        st.session_state[CONVERSATION].remove(mine[0])
        mine = mine[1:]
    previous = next((e["result"] for e in mine if e.get("result")), None)
    # The conversation carries over (the cfo mode, a football player named earlier) within a domain;
    # the design's sidebar options (max depth, data mode) ride along in the same context.
    carry = getattr(router, "next_context", None)
    context = carry(previous) if carry and previous and previous.get("domain") == router.name else {}
    context = {**context, **options} or None
    try:
        result = route_with_thinking(router, query, today=st.session_state.today, thresholds=thresholds, context=context).to_dict()
        entry = {"query": query, "result": result, "session_thresholds": thresholds}
    except Exception as exc:  # never a traceback on the page: the card shows it in an expander
        entry = {"query": query, "result": None, "failure": failure_details(exc)}
    st.session_state["_conversation_seq"] += 1
    entry["id"] = st.session_state["_conversation_seq"]
    entry["domain"] = router.name
    entry["options"] = dict(options)
    entry["settings"] = _settings()
    entry["again"] = again
    st.session_state[CONVERSATION].insert(0, entry)


def _settings() -> tuple:
    """What a card was asked with; when the sidebar changes it, the question on top is asked again,
    so the card on top, the sidebar and the address bar always agree."""
    return (router.name, st.session_state.today.isoformat(), tuple(sorted((thresholds or {}).items())),
            tuple(sorted(options.items())))


examples = playground_examples(router.domain)
with st.container(key="query-box"):
    hint = f", e.g. “{examples[0]}”" if examples else ""
    typed = st.chat_input(f"Ask a question{hint} — press Enter", key="query", max_chars=1000)
if examples:
    with st.container(horizontal=True, gap="small", key="examples"):
        st.markdown("**Try:**")
        for i, example in enumerate(examples):
            st.button(example, key=f"example-{i}", on_click=_ask, args=(example,), type="secondary")
else:  # an imported catalog has no example questions to offer: say what to ask instead of an empty "Try:"
    st.caption(no_examples_hint(router.domain))

pending = st.session_state.pop(PENDING, None) or []
for earlier in pending[:-1]:
    _route(earlier)
query = typed or (pending[-1] if pending else None)
mine = _mine()
if query is None and linked_query and not (mine and mine[0]["query"] == linked_query):
    query = linked_query  # a link, or Back / Forward to another question
again = False
if query is None and mine and mine[0].get("settings", _settings()) != _settings():
    query, again = mine[0]["query"], True  # today, thresholds or options changed: ask the top question again, in place
if query is not None:
    _route(query.strip() or query, again=again)  # the router explains an empty or unreadable question itself
    if linked.get("power") and _mine():
        from ui.parts.power_gateway import activate_linked

        activate_linked(_mine()[0], router.name, linked["power"])

conversation = _mine()
redraw.start()


def _sync_url() -> None:
    """The address bar: the newest question, this sidebar, and the powers activated on its card."""
    latest_query = conversation[0]["query"] if conversation else None
    linked_power = ",".join((conversation[0].get("activations") or {}) if conversation else ())
    sync_url(latest_query, thresholds, options=options, extra={"power": linked_power})


redraw.register("url", _sync_url)  # Activate redraws these without a full rerun (ui/redraw.py)

if conversation:
    with st.container(horizontal=True, vertical_alignment="center", key="conversation-bar"):
        st.markdown(f"**Conversation** · {len(conversation)} question{'s' if len(conversation) != 1 else ''}, newest first")
        # Made when clicked: an activation since this run is in the file (Activate reruns only its card).
        st.download_button("JSON", lambda: export_json(conversation), file_name=f"conversation-{router.name}.json", mime="application/json",
                           key="export_json", icon=":material/download:", type="tertiary", on_click="ignore")
        st.download_button("Markdown", lambda: export_markdown(conversation), file_name=f"conversation-{router.name}.md", mime="text/markdown",
                           key="export_md", icon=":material/download:", type="tertiary", on_click="ignore")
        st.button("Clear", key="clear", on_click=_clear, icon=":material/delete_sweep:", type="tertiary")
    panel = st.empty()
    redraw.register("context", lambda: render_context_panel(conversation, router, panel))
    for i, entry in enumerate(conversation[:FULL_CARDS]):
        render_result_card(entry, key=str(entry["id"]), latest=i == 0, charts=i < CHART_CARDS)
    older = conversation[FULL_CARDS:]
    if older:
        with st.expander(f"{len(older)} earlier question{'s' if len(older) != 1 else ''}"):
            for entry in older:
                status = (entry.get("result") or {}).get("status", "")
                st.markdown(f"{status_badge(status)} &nbsp; {md_escape(entry['query'])}", unsafe_allow_html=True)
else:
    st.info(f"Type a question above{' or click an example' if examples else ''}. Each answer stays on screen as a card, newest first.",
            icon=":material/bolt:")
