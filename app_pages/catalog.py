"""Catalog: what each domain knows (tools, synonyms, patterns), searchable, and what sending the
tools to a model costs: the whole catalog versus only the tools a question routes to."""
from __future__ import annotations

import json

import streamlit as st

from routing.paths.catalog import catalog_cost, function_schemas, search_catalog
from ui.cards import failure_details, md_escape, render_failure, status_badge
from ui.common import get_registry, page_setup, require_router, router_state
from ui.context import apply_shared_link, render_domain_and_today, sync_url
from ui.cost import render_cost_simulator
from ui.examples import playground_examples

page_setup("catalog")
linked = apply_shared_link("catalog")  # /catalog?domain=...&today=...&search=... opens on exactly that
if linked is not None:
    st.session_state["catalog_search"] = linked.get("search") or ""
render_domain_and_today()

st.title("Catalog")
st.caption("Every tool a domain offers, the words that lead to it, and what it costs to describe them to a model.")



NOUN = "tool"  # "power" where the domain is a gateway (set once the router is known)
# Where the router fills a parameter from, in words (the lexicon's `role`).
ROLE_TEXT = {"date_from": "the first day of a date in the question", "date_to": "the last day of a date in the question",
             "query": "the name or number in the question"}


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' if n != 1 else ''}"


def _tools(n: int) -> str:
    return _count(n, NOUN)


# Every domain's router is built for this table (seconds on a first visit): it is filled last, into a
# slot at the top, so the chosen domain's catalog shows at once instead of a blank page.
all_domains = st.container()


def _fill_all_domains() -> None:
    """The "All domains" table, into its slot at the top; called last (and before the gateway's stop)."""
    with all_domains:
        domains = []
        for name in get_registry().domains():
            state = router_state(name)
            if state.router is not None:
                d = state.router.domain
                domains.append({"domain": name, "description": d.settings.description, "languages": ", ".join(d.settings.languages),
                                "tools": len(d.tools), "synonym groups": len(d.synonyms), "patterns": len(d.patterns)})
            else:
                domains.append({"domain": name, "description": "⚠ lexicon does not load", "languages": "", "tools": None,
                                "synonym groups": None, "patterns": None})
        with st.expander(f"All domains ({len(domains)})", icon=":material/folder_open:", expanded=False):
            st.dataframe(domains, hide_index=True, key="domains-table")


router = require_router(st.session_state.domain)
domain = router.domain
NOUN = "power" if getattr(router, "design", "tools") == "power_gateway" else "tool"  # a gateway's entries are powers

# The placeholder's example in this domain's own words (accounting's "piutang" means nothing to a travel catalog).
variant = next((v for c, variants in domain.synonyms for v in variants if not v.startswith(c)), None)  # "faktur", not "invoices"
param = next((p.name for t in domain.tools for p in t.params), None)
hint = variant or param or (domain.tools[0].name if domain.tools else "")
needle = st.text_input(
    "Search the catalog", key="catalog_search", placeholder=f"a {NOUN}, a word in any language, a parameter…" + (f" e.g. {hint}" if hint else ""),
    icon=":material/search:", live=True,
)
sync_url(None, page="catalog", extra={"search": needle.strip()})
view = search_catalog(domain, needle)
if needle.strip():
    st.caption(
        f"“{md_escape(needle.strip())}” appears in {_tools(len(view.tools))}, {_count(len(view.synonyms), 'synonym group')} "
        f"and {_count(len(view.patterns), 'pattern')}."
    )

tools_tab, synonyms_tab, patterns_tab, cost_tab = st.tabs([
    f"{NOUN.capitalize()}s ({len(view.tools)})", f"Synonyms ({len(view.synonyms)})", f"Patterns ({len(view.patterns)})", "Token cost",
])

with tools_tab:
    if getattr(router, "design", "tools") == "power_gateway":  # which powers start a real server here
        from ui.power_servers import render_power_servers

        render_power_servers(router)
    if not view.tools:
        st.info(f"No {NOUN} mentions this. Clear the search to see them all.", icon=":material/search_off:")
    # A kind every entry shares says nothing (a gateway's powers are all "list", an imported catalog's tools all "chat").
    kinds = len({t.kind for t in domain.tools}) > 1
    for tool in view.tools:
        kind = f" · {tool.kind}" if kinds else ""
        with st.expander(f"**{tool.name}**{kind} — {tool.description}", expanded=bool(needle.strip()) and len(view.tools) <= 3):
            terms = " ".join(f"`{k}`" for k in tool.keywords)
            related = " ".join(f"`{k}`" for k in tool.related)
            about = f"**About:** {terms}" if terms else "**Known by:** the words of its name, description and parameters (no keywords)"
            st.markdown(about + (f" &nbsp; **Filters by:** {related}" if related else "")
                        + (f" &nbsp; **Category:** {tool.category}" if tool.category else ""))
            if tool.params:
                rows = ["| parameter | type | default | values | required | filled from |", "|---|---|---|---|---|---|"]
                for p in tool.params:
                    default = "" if p.default is None else f"`{p.default}`"
                    rows.append(f"| `{p.name}` | {p.type} | {default} | {', '.join(p.values)} | {'yes' if p.required else ''} | {ROLE_TEXT.get(p.role or '', p.role or '')} |")
                st.markdown("\n".join(rows))
            by_language: dict[str, list[str]] = {}
            for language, text in tool.examples:
                by_language.setdefault(language, []).append(text)
            for language, texts in by_language.items():
                st.markdown(f"**Examples ({language}):** " + " · ".join(f"“{md_escape(t)}”" for t in texts))

with synonyms_tab:
    st.caption("One canonical term and its variants in every language; all are treated alike. Edit them on the Lexicon editor page.")
    if not view.synonyms:
        st.info("No synonym mentions this. Clear the search to see them all, or add one on the Lexicon editor page." if needle.strip()
                else f"{domain.name} has no synonyms yet; add one on the Lexicon editor page.", icon=":material/search_off:")
    else:
        st.dataframe(
            [{"canonical": canonical, "variants": ", ".join(variants), "count": len(variants)} for canonical, variants in view.synonyms],
            hide_index=True, key="synonyms-table",
            column_config={
                "canonical": st.column_config.TextColumn("Canonical term"),
                "variants": st.column_config.TextColumn("Variants", width="large"),
                "count": st.column_config.NumberColumn("Variants (count)"),
            },
        )

with patterns_tab:
    st.caption("Idioms and compound phrases that point straight at a tool, with parameter hints.")
    if not view.patterns:
        st.info("No pattern mentions this. Clear the search to see them all." if needle.strip()
                else f"{domain.name} has no phrase patterns.", icon=":material/search_off:")
    else:
        st.dataframe(
            [{
                "pattern": p.label,
                "tool": p.tool,
                "parameters": ", ".join(f"{k}={v}" for k, v in p.params),
                "weight": p.weight,
            } for p in view.patterns],
            hide_index=True, key="patterns-table",
            column_config={
                "pattern": st.column_config.TextColumn("Pattern", width="large", help="phrase: these words in this order; terms: all these terms (or any of their variants) anywhere in the question; regex: a text pattern"),
                "tool": st.column_config.TextColumn("Tool"),
                "parameters": st.column_config.TextColumn("Parameter hints"),
                "weight": st.column_config.NumberColumn("Weight", help="How strongly a match points at the tool (1 = full)."),
            },
        )

with cost_tab:
    if getattr(router, "design", "tools") == "power_gateway":  # the gateway's own token table
        from ui.power_costs import render_power_costs

        render_power_costs(router)
        _fill_all_domains()
        st.stop()  # the last tab: the generic tool-schema estimate below does not apply
    st.markdown(
        "An agent that sends **every** tool definition with each message pays for all of them; a routed "
        "question needs only the tools it routes to. Tokens are estimated as JSON characters ÷ 4."
    )
    examples = playground_examples(domain)
    question = st.text_input("Route a question", value=examples[0] if examples else "", key="cost_query", max_chars=1000)
    whole = catalog_cost(domain, [])
    routed_names: list[str] = []
    result = None
    if question.strip():
        try:
            result = router.route(question, today=st.session_state.today).to_dict()
            # design intent_tiers names the tools its tier allows; design tools, the matched tools
            routed_names = list(result.get("allowed_tools") or []) or [m["name"] for m in result["matches"]] or list(result.get("tools_sent") or [])
        except Exception as exc:  # never a traceback: a friendly message, details in the expander
            render_failure("This question could not be routed.", failure_details(exc))
    cost = catalog_cost(domain, routed_names)
    left, right, third = st.columns(3)
    left.metric("Whole catalog", f"{whole.catalog_tokens:,} tokens", _tools(whole.catalog_tools), delta_color="off", delta_arrow="off", border=True)
    right.metric("Only the routed tools", f"{cost.routed_tokens:,} tokens", _tools(len(routed_names)), delta_color="off", delta_arrow="off", border=True)
    third.metric("Saved per message", f"{cost.saved_share:.0%}", f"{cost.saved_tokens:,} tokens fewer", delta_color="off", delta_arrow="off", border=True)
    if result is not None:
        st.markdown(
            f"{status_badge(result['status'])} &nbsp; routes to " + (", ".join(f"`{n}`" for n in routed_names) or "no tool"),
            unsafe_allow_html=True,
        )
        if not routed_names:
            st.caption("No tool routed: the model would need the whole catalog (or a clarifying question first).")
        sent = list(result.get("tools_sent") or [])
        if result["path"] == "llm" and sent:
            st.caption(
                f"This question takes the LLM path, where the agent sends its filtered set of {_tools(len(sent))} "
                f"(≈ {catalog_cost(domain, sent).routed_tokens:,} tokens) so the model can choose."
            )
    with st.expander("The function schemas that would be sent", icon=":material/data_object:"):
        schemas = function_schemas(domain, routed_names) if routed_names else function_schemas(domain)
        st.code(json.dumps(schemas, indent=2, ensure_ascii=False), language="json")

    st.subheader("Monthly cost")
    try:
        render_cost_simulator(st.session_state.domain)
    except Exception as exc:  # the simulator is a separate module; its failure must not take the page down
        render_failure("The cost simulator could not be drawn.", failure_details(exc))


_fill_all_domains()
