"""The lexicon editor page and its left-column sections (synonyms, patterns, vague words,
thresholds); the draft lives in ui.editor_state, review / save / history in ui.editor_review. Every decision is a call into routing.editing.store / routing.editing.impact;
this module only keeps the user's draft in st.session_state and lays out widgets.

Draft model, per domain: the files as loaded (snapshots), a committed draft per section, and the
"effective" draft = committed + what the table widgets currently hold. Actions (add a variant,
change the search) commit the effective draft first, so nothing typed is lost.
"""
from __future__ import annotations

import traceback

import pandas as pd
import streamlit as st

from routing.editing import store
from ui.common import domain_names, router_state, show_lexicon_problem
from ui.editor_review import render_history, render_review, render_try
from ui.parts import design_part
from ui.editor_state import (
    THRESHOLD_HELP,
    _add_term,
    _add_variant,
    _commit_patterns,
    _commit_synonyms,
    _k,
    _remove_variants,
    _say,
    _show_said,
    load,
    ss,
)
from ui.editor_tables import (
    MATCH_KINDS,
    PAT_COLUMNS,
    merge_patterns,
    merge_synonyms,
    pattern_rows,
    synonym_rows,
)

# ---------------------------------------------------------------- sections (left column)


def _table_records(edited: pd.DataFrame) -> list[dict]:
    return [{k: (None if (isinstance(v, float) and pd.isna(v)) else v) for k, v in row.items()} for row in edited.to_dict("records")]


def render_synonyms(domain: str) -> None:
    draft = ss[_k(domain, "syn")]
    canonicals = list(draft)
    # Placeholders in this domain's own words (accounting's "faktur" means nothing to the powers domain).
    own = next((list(v) for v in draft.values() if v), [])
    st.caption("One canonical term (its English word) and its variants in every language. A variant belongs to one term only.")
    if canonicals:
        with st.container(border=True):
            st.markdown("**Add a variant**")
            c1, c2, c3 = st.columns([2, 3, 1.5], vertical_alignment="bottom")
            if ss.get(_k(domain, "add_canon")) not in canonicals:
                ss[_k(domain, "add_canon")] = canonicals[0]
            c1.selectbox("Canonical term", canonicals, key=_k(domain, "add_canon"))
            c2.text_input("New variant (any language)", key=_k(domain, "add_variant"), placeholder=f"e.g. {', '.join(own[:3])}" if own else "a word or phrase")
            c3.button("Add", key=_k(domain, "add_btn"), on_click=_add_variant, args=(domain,), type="primary", width="stretch", icon=":material/add:", help="Add the variant to the draft (nothing is written until you save)")
            _show_said(domain, "syn")
    else:  # an imported catalog starts with none: no empty picker, the way to add the first term is open
        st.info("No synonyms yet: this domain routes on its tools' own words (an imported catalog, on each tool's name, "
                "description and parameters). Add a term your users say and the words they use for it.",
                icon=":material/playlist_add:")
    with st.expander("Add a canonical term, or remove variants" if canonicals else "Add a canonical term", expanded=not canonicals):
        c1, c2, c3 = st.columns([2, 3, 1.5], vertical_alignment="bottom")
        c1.text_input("New canonical term", key=_k(domain, "new_term"), placeholder="a term the tools speak of")
        c2.text_input("Its variants, separated by commas", key=_k(domain, "new_term_variants"), placeholder="word, other word")
        c3.button("Add term", key=_k(domain, "add_term_btn"), icon=":material/add:", on_click=_add_term, args=(domain,), width="stretch")
        if canonicals:
            c1, c2, c3 = st.columns([2, 3, 1.5], vertical_alignment="bottom")
            if ss.get(_k(domain, "rm_canon")) not in canonicals:
                ss[_k(domain, "rm_canon")] = canonicals[0]
            rm = c1.selectbox("Term", canonicals, key=_k(domain, "rm_canon"))
            c2.multiselect("Variants to remove", draft.get(rm, []), key=_k(domain, "rm_variants"))
            c3.button("Remove", key=_k(domain, "rm_btn"), on_click=_remove_variants, args=(domain,), width="stretch")
        else:
            _show_said(domain, "syn")

    search = st.text_input(
        "Search terms and variants",
        key=_k(domain, "syn_search"),
        placeholder=f"type to filter, e.g. {own[-1]}" if own else "type to filter",
        on_change=_commit_synonyms,
        args=(domain,),
    )
    shown = synonym_rows(draft, search)
    table_key = _k(domain, f"syn_table:{ss[_k(domain, 'syn_ver')]}:{search}")
    edited = st.data_editor(
        pd.DataFrame(shown, columns=["key", "Term", "Variants", "Count"]),
        key=table_key,
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_order=["Term", "Variants", "Count"],
        column_config={
            "Term": st.column_config.TextColumn("Canonical term", required=True, width="medium"),
            "Variants": st.column_config.TextColumn("Variants (comma-separated)", width="large"),
            "Count": st.column_config.NumberColumn("#", disabled=True, width="small", help="number of variants (as loaded in this table)"),
        },
    )
    ss[_k(domain, "syn_eff")] = merge_synonyms(draft, shown, _table_records(edited))
    st.caption(f"{len(shown)} of {len(draft)} terms shown. Edit a cell, add a row at the bottom, or select rows and delete them.")


def render_patterns(domain: str, tool_names: list[str]) -> None:
    draft = ss[_k(domain, "pat")]
    st.caption(
        "A phrase (words in order), terms (canonical terms in any order) or a regex that points to a tool, "
        "with optional parameter hints such as `status=unpaid` and an order (`customer, invoice`: where the question "
        "names those terms, they come in that order). Regexes that could hang are refused."
    )
    c1, c2 = st.columns([3, 2])
    search = c1.text_input("Search patterns", key=_k(domain, "pat_search"), placeholder="text, tool or parameter", on_change=_commit_patterns, args=(domain,))
    tool = c2.selectbox("Tool", ["All tools", *tool_names], key=_k(domain, "pat_tool"), on_change=_commit_patterns, args=(domain,))
    tool = None if tool == "All tools" else tool
    shown = pattern_rows(draft, search, tool)
    table_key = _k(domain, f"pat_table:{ss[_k(domain, 'pat_ver')]}:{search}:{tool}")
    tool_column = (
        st.column_config.SelectboxColumn("Tool", options=tool_names, required=True)
        if tool_names
        else st.column_config.TextColumn("Tool", required=True)
    )
    edited = st.data_editor(
        pd.DataFrame(shown, columns=list(PAT_COLUMNS)),
        key=table_key,
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_order=["Match by", "Text", "Tool", "Parameter hints", "Weight", "Order"],
        height=38 + 35 * 10,  # a fixed height: adding a row scrolls inside, never moves the rows under the cursor
        column_config={
            "Match by": st.column_config.SelectboxColumn("Match by", options=list(MATCH_KINDS), required=True, default="phrase", width="small"),
            "Text": st.column_config.TextColumn("Phrase / terms / regex", required=True, width="medium", help="terms: canonical terms separated by commas"),
            "Tool": tool_column,
            "Parameter hints": st.column_config.TextColumn("Parameter hints", width="small", help="name=value, separated by commas, e.g. status=unpaid"),
            "Weight": st.column_config.NumberColumn("Weight", min_value=0.0, max_value=1.0, step=0.05, default=1.0, width="small"),
            "Order": st.column_config.TextColumn("Order", width="small",
                                                 help="terms separated by commas: where the question names them, they come in this order (the first is what it asks for)"),
        },
    )
    records = _table_records(edited)
    ss[_k(domain, "pat_eff")] = merge_patterns(draft, shown, records)
    half = [r for r in records if _blank_cell(r.get("key")) and (_blank_cell(r.get("Tool")) or _blank_cell(r.get("Text")))]
    if half:
        st.warning(f"{len(half)} new row{'s' if len(half) != 1 else ''} still need{'' if len(half) != 1 else 's'} both a tool and its phrase/terms/regex "
                   "before anything can be previewed or saved.", icon=":material/edit:")
    st.caption(f"{len(shown)} of {len(draft)} patterns shown.")


def _blank_cell(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def render_vague(domain: str) -> None:
    settings = ss[_k(domain, "set0")]
    vague = settings.get("vague") if isinstance(settings.get("vague"), dict) else {}
    ver = ss[_k(domain, "set_ver")]
    st.caption("A question made only of these words (plus stop words and verbs) gets the clarifying question instead of a guess.")
    current = [str(w) for w in vague.get("words") or []]
    st.multiselect(
        "Vague words (type a new word and press Enter to add it)",
        options=current,
        default=current,
        accept_new_options=True,
        key=_k(domain, f"vague_words:{ver}"),
    )
    st.text_input("Clarifying question", value=str(vague.get("question") or ""), key=_k(domain, f"vague_q:{ver}"))


def render_thresholds(domain: str) -> None:
    settings = ss[_k(domain, "set0")]
    th = settings.get("thresholds") if isinstance(settings.get("thresholds"), dict) else {}
    ver = ss[_k(domain, "set_ver")]
    st.caption("Confidence tiers: activated ≥ high with the margin; multiple matches ≥ medium; weak matches ≥ low. Keep low ≤ medium ≤ high.")
    cols = st.columns(4)
    defaults = {"high": 0.85, "medium": 0.5, "low": 0.3, "margin": 0.1}
    for col, name in zip(cols, store.THRESHOLD_KEYS):
        value = th.get(name, defaults[name])
        col.number_input(
            name.capitalize(),
            min_value=0.0,
            max_value=1.0,
            step=0.01,
            format="%.2f",
            value=float(value) if isinstance(value, (int, float)) else defaults[name],
            key=_k(domain, f"th_{name}:{ver}"),
            help=THRESHOLD_HELP[name],
        )


# ---------------------------------------------------------------- the page


def _apply_prefill() -> str:
    """The coverage page's handoff: open the synonym form prefilled; return its query."""
    prefill = ss.pop("editor_prefill", None)
    if not isinstance(prefill, dict):
        return ss.get("ed:prefill_query", "")
    domain = prefill.get("domain") or ss.domain
    if domain in domain_names():
        ss.domain = domain
    load(ss.domain)
    canonical, variant = prefill.get("canonical"), prefill.get("variant") or ""
    if canonical in ss[_k(ss.domain, "syn")]:
        ss[_k(ss.domain, "add_canon")] = canonical
    ss[_k(ss.domain, "add_variant")] = variant
    ss["ed:prefill_query"] = prefill.get("query") or ""
    ss.pop(_k(ss.domain, "extra_queries"), None)
    if ss["ed:prefill_query"]:  # the question that fell through, routed live, so a save shows its effect
        ss[_k(ss.domain, "try_query")] = ss["ed:prefill_query"]
    if variant:
        _say(ss.domain, "syn-ok", f"From Coverage: add “{variant}” under a canonical term, then preview the impact on the right.")
    else:  # every word is known: a synonym cannot help, a phrase pattern (or an example) can
        _say(ss.domain, "syn-ok", "From Coverage: every word of this question is known, so a synonym will not help. "
             "Add a phrase pattern for it on the Patterns tab; the question is routed live on the right.")
    return ss["ed:prefill_query"]


def _on_domain_change() -> None:
    ss.domain = ss["ed:domain_select"]


def render_editor_page() -> None:
    st.title("Lexicon editor")
    st.caption("Edit the words that decide routing. Every change is checked, previewed on the golden questions, and written back without disturbing the rest of the file (comments and layout kept).")
    names = domain_names()
    if not names:
        st.error("No domains found in the lexicon folder.")
        return
    from ui.context import apply_shared_link, write_url

    apply_shared_link("editor")  # /editor?domain=cfo opens cfo's lexicon
    prefill_query = _apply_prefill()
    if ss.get("domain") not in names:
        ss.domain = names[0]
    ss["ed:domain_select"] = ss.domain
    st.sidebar.selectbox("Domain", names, key="ed:domain_select", on_change=_on_domain_change,
                         help="Which lexicon (tools, synonyms, patterns) to edit; the same choice as on every page.")
    domain = ss.domain
    write_url("editor", {"domain": domain})
    if st.sidebar.button("Reload from disk", key=_k(domain, "reload_btn"), icon=":material/refresh:", width="stretch"):
        load(domain, force=True)
        st.rerun()
    state = router_state(domain)
    show_lexicon_problem(state)
    # A design routed by other files (the mirror's rewrites and sample questions) shows those, never
    # an empty synonym table: its UI part says where its words live.
    own_view = getattr(design_part(getattr(state.router, "design", "tools")), "render_lexicon", None) if state.router is not None else None
    if own_view is not None:
        left, right = st.columns([5, 3], gap="large")
        with left:
            own_view(state.router, domain)
            with st.expander("History of saves"):
                render_history(domain)
        with right, st.container(border=True):
            render_try(domain)
        return
    load(domain)
    errors = ss[_k(domain, "load_errors")]
    for file, problems in errors.items():
        st.error(f"{file} cannot be edited until it parses again: fix it by hand, then Reload from disk.", icon=":material/error:")
        for p in problems:
            st.markdown(f"- `{p.file}` line {p.line or '?'}: {p.message}")
    tool_names = [t.name for t in state.router.domain.tools] if state.router is not None else []
    left, right = st.columns([5, 3], gap="large")
    with left:
        tabs = st.tabs(["Synonyms", "Patterns", "Vague words", "Thresholds", "History"])
        sections = [
            ("synonyms.yaml", lambda: render_synonyms(domain)),
            ("patterns.yaml", lambda: render_patterns(domain, tool_names)),
            ("settings.yaml", lambda: render_vague(domain)),
            ("settings.yaml", lambda: render_thresholds(domain)),
            (None, lambda: render_history(domain)),
        ]
        for tab, (file, render) in zip(tabs, sections):
            with tab:
                if file in errors:
                    st.info(f"{file} does not parse; see the problem above.")
                else:
                    render()
    with right:
        with st.container(border=True):
            render_review(domain, prefill_query)
        with st.container(border=True):
            render_try(domain)


def render_safely(render) -> None:
    """A friendly message instead of a traceback; details for whoever reports it."""
    try:
        render()
    except Exception as exc:  # noqa: BLE001 - the page must never show a raw traceback
        if type(exc).__name__ in ("RerunException", "StopException"):
            raise
        st.error("Something went wrong in the editor; nothing was written. Reload from disk and try again.", icon=":material/error:")
        with st.expander("Details"):
            st.code(traceback.format_exc())
