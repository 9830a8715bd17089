"""The lexicon editor page's sections. Every decision is a call into routing.editing.store / routing.editing.impact;
this module only keeps the user's draft in st.session_state and lays out widgets.

Draft model, per domain: the files as loaded (snapshots), a committed draft per section, and the
"effective" draft = committed + what the table widgets currently hold. Actions (add a variant,
change the search) commit the effective draft first, so nothing typed is lost.
"""
from __future__ import annotations

import html
import traceback
from datetime import datetime
from pathlib import Path

import pandas as pd
import streamlit as st

from routing.editing import store
from routing.core.errors import LexiconError
from routing.editing.impact import ImpactReport, preview_impact
from ui.cards import status_badge
from ui.common import domain_names, get_registry, router_state, show_lexicon_problem
from ui.editor_tables import (
    MATCH_KINDS, merge_patterns, merge_synonyms, pattern_rows, rebase_patterns, rebase_synonyms, split_list, synonym_rows,
    variant_problem,
)

ss = st.session_state
THRESHOLD_HELP = {
    "high": "Activated needs at least this confidence (and the margin).",
    "medium": "Multiple matches from this confidence up.",
    "low": "Weak matches from this confidence up; below it: not found.",
    "margin": "How far the top match must lead the runner-up to be activated alone.",
}


def _k(domain: str, name: str) -> str:
    return f"ed:{domain}:{name}"


def lexicon_root() -> Path:
    """The folder the app routes over (the registry's), so a save is what the playground sees."""
    return get_registry().root


# ---------------------------------------------------------------- draft state


def load(domain: str, *, force: bool = False) -> None:
    """Read the editable files into snapshots and committed drafts (again, when forced)."""
    if not force and _k(domain, "snaps") in ss:
        return
    snaps: dict[str, store.FileSnapshot] = {}
    errors: dict[str, list] = {}
    parsed: dict[str, object] = {}
    readers = {"synonyms.yaml": store.read_synonyms, "patterns.yaml": store.read_patterns, "settings.yaml": store.read_settings}
    for file, reader in readers.items():
        try:
            snap = store.read_file(domain, file, lexicon_root())
            parsed[file] = reader(snap)
            snaps[file] = snap
        except LexiconError as exc:
            errors[file] = list(exc.problems)
    ss[_k(domain, "snaps")] = snaps
    ss[_k(domain, "load_errors")] = errors
    ss[_k(domain, "syn")] = parsed.get("synonyms.yaml", {})
    ss[_k(domain, "syn0")] = parsed.get("synonyms.yaml", {})
    ss[_k(domain, "pat")] = parsed.get("patterns.yaml", [])
    ss[_k(domain, "pat0")] = parsed.get("patterns.yaml", [])
    ss[_k(domain, "set0")] = parsed.get("settings.yaml", {})
    for section in ("syn_ver", "pat_ver", "set_ver"):
        ss[_k(domain, section)] = ss.get(_k(domain, section), 0) + 1
    for stale in ("preview", "conflict", "syn_eff", "pat_eff", "say"):
        ss.pop(_k(domain, stale), None)


def _commit_synonyms(domain: str) -> None:
    if _k(domain, "syn_eff") in ss:
        ss[_k(domain, "syn")] = ss[_k(domain, "syn_eff")]


def _commit_patterns(domain: str) -> None:
    if _k(domain, "pat_eff") in ss:
        ss[_k(domain, "pat")] = ss[_k(domain, "pat_eff")]


def _say(domain: str, kind: str, text: str) -> None:
    ss[_k(domain, "say")] = (kind, text)


def _show_said(domain: str, where: str) -> None:
    said = ss.get(_k(domain, "say"))
    if said and said[0].startswith(where):
        kind, text = said
        (st.error if kind.endswith("error") else st.success)(text)


# ---------------------------------------------------------------- callbacks


def _add_variant(domain: str) -> None:
    _commit_synonyms(domain)
    draft = {k: list(v) for k, v in ss[_k(domain, "syn")].items()}
    canonical = ss.get(_k(domain, "add_canon"))
    typed = str(ss.get(_k(domain, "add_variant")) or "")
    # "faktur, nota baru" is two variants: each is checked, and all are added or none.
    variants = split_list(typed) if "," in typed else [" ".join(typed.split())]
    stopwords = _stopwords(domain)
    trial = {k: list(v) for k, v in draft.items()}
    for variant in variants or [""]:
        problem = variant_problem(variant, stopwords) or store.synonym_problem(trial, canonical, variant)
        if problem:
            _say(domain, "syn-error", f"Not added: {problem}.")
            return
        trial[canonical].append(variant)
    ss[_k(domain, "syn")] = trial
    ss[_k(domain, "syn_ver")] += 1
    ss[_k(domain, "add_variant")] = ""
    shown = ", ".join(f"“{v}”" for v in variants)
    _say(domain, "syn-ok", f"Added {shown} to “{canonical}”. Not saved yet: preview the impact on the right, then save.")


def _stopwords(domain: str) -> frozenset[str]:
    router = router_state(domain).router
    return frozenset(router.domain.words.stopwords) if router is not None else frozenset()


def _add_term(domain: str) -> None:
    _commit_synonyms(domain)
    draft = {k: list(v) for k, v in ss[_k(domain, "syn")].items()}
    term = " ".join(str(ss.get(_k(domain, "new_term")) or "").split())
    variants = split_list(ss.get(_k(domain, "new_term_variants")))
    if not term:
        _say(domain, "syn-error", "Not added: the new canonical term is empty.")
        return
    if term in draft:
        _say(domain, "syn-error", f"Not added: “{term}” is already a canonical term; add variants to it instead.")
        return
    for v in variants:
        owner = variant_problem(v, _stopwords(domain)) or store.synonym_problem({**draft, term: []}, term, v)
        if owner:
            _say(domain, "syn-error", f"Not added: {owner}.")
            return
    draft[term] = variants
    ss[_k(domain, "syn")] = draft
    ss[_k(domain, "syn_ver")] += 1
    ss[_k(domain, "new_term")] = ""
    ss[_k(domain, "new_term_variants")] = ""
    _say(domain, "syn-ok", f"Added the canonical term “{term}”. Tools use it once a tool's keywords or a pattern name it.")


def _remove_variants(domain: str) -> None:
    _commit_synonyms(domain)
    draft = {k: list(v) for k, v in ss[_k(domain, "syn")].items()}
    canonical = ss.get(_k(domain, "rm_canon"))
    gone = ss.get(_k(domain, "rm_variants")) or []
    if canonical not in draft or not gone:
        _say(domain, "syn-error", "Pick a canonical term and at least one variant to remove.")
        return
    draft[canonical] = [v for v in draft[canonical] if v not in gone]
    ss[_k(domain, "syn")] = draft
    ss[_k(domain, "syn_ver")] += 1
    ss[_k(domain, "rm_variants")] = []
    _say(domain, "syn-ok", f"Removed {', '.join('“' + g + '”' for g in gone)} from “{canonical}”. Not saved yet.")


# ---------------------------------------------------------------- sections (left column)


def _table_records(edited: pd.DataFrame) -> list[dict]:
    return [{k: (None if (isinstance(v, float) and pd.isna(v)) else v) for k, v in row.items()} for row in edited.to_dict("records")]


def render_synonyms(domain: str) -> None:
    draft = ss[_k(domain, "syn")]
    canonicals = list(draft)
    st.caption("One canonical term (its English word) and its variants in every language. A variant belongs to one term only.")
    with st.container(border=True):
        st.markdown("**Add a variant**")
        c1, c2, c3 = st.columns([2, 3, 1.5], vertical_alignment="bottom")
        if ss.get(_k(domain, "add_canon")) not in canonicals:
            ss[_k(domain, "add_canon")] = canonicals[0] if canonicals else None
        c1.selectbox("Canonical term", canonicals, key=_k(domain, "add_canon"))
        c2.text_input("New variant (any language)", key=_k(domain, "add_variant"), placeholder="e.g. faktur, bill ka, nota")
        c3.button("Add", key=_k(domain, "add_btn"), on_click=_add_variant, args=(domain,), type="primary", width="stretch", icon=":material/add:", help="Add the variant to the draft (nothing is written until you save)")
        _show_said(domain, "syn")
    with st.expander("Add a canonical term, or remove variants"):
        c1, c2, c3 = st.columns([2, 3, 1.5], vertical_alignment="bottom")
        c1.text_input("New canonical term", key=_k(domain, "new_term"), placeholder="e.g. discount")
        c2.text_input("Its variants, separated by commas", key=_k(domain, "new_term_variants"), placeholder="e.g. diskon, potongan")
        c3.button("Add term", key=_k(domain, "add_term_btn"), icon=":material/add:", on_click=_add_term, args=(domain,), width="stretch")
        c1, c2, c3 = st.columns([2, 3, 1.5], vertical_alignment="bottom")
        if ss.get(_k(domain, "rm_canon")) not in canonicals:
            ss[_k(domain, "rm_canon")] = canonicals[0] if canonicals else None
        rm = c1.selectbox("Term", canonicals, key=_k(domain, "rm_canon"))
        c2.multiselect("Variants to remove", draft.get(rm, []), key=_k(domain, "rm_variants"))
        c3.button("Remove", key=_k(domain, "rm_btn"), on_click=_remove_variants, args=(domain,), width="stretch")

    search = st.text_input(
        "Search terms and variants",
        key=_k(domain, "syn_search"),
        placeholder="type to filter, e.g. tagihan",
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
        "with optional parameter hints such as `status=unpaid`. Regexes that could hang are refused."
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
        pd.DataFrame(shown, columns=["key", "Tool", "Match by", "Text", "Parameter hints", "Weight"]),
        key=table_key,
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_order=["Match by", "Text", "Tool", "Parameter hints", "Weight"],
        height=38 + 35 * 10,  # a fixed height: adding a row scrolls inside, never moves the rows under the cursor
        column_config={
            "Match by": st.column_config.SelectboxColumn("Match by", options=list(MATCH_KINDS), required=True, default="phrase", width="small"),
            "Text": st.column_config.TextColumn("Phrase / terms / regex", required=True, width="medium", help="terms: canonical terms separated by commas"),
            "Tool": tool_column,
            "Parameter hints": st.column_config.TextColumn("Parameter hints", width="small", help="name=value, separated by commas, e.g. status=unpaid"),
            "Weight": st.column_config.NumberColumn("Weight", min_value=0.0, max_value=1.0, step=0.05, default=1.0, width="small"),
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


def _settings_draft(domain: str) -> dict:
    ver = ss[_k(domain, "set_ver")]
    settings = ss[_k(domain, "set0")]
    vague = settings.get("vague") if isinstance(settings.get("vague"), dict) else {}
    th = settings.get("thresholds") if isinstance(settings.get("thresholds"), dict) else {}
    out: dict = {}
    words = ss.get(_k(domain, f"vague_words:{ver}"))
    if words is not None and list(words) != [str(w) for w in vague.get("words") or []]:
        out["vague_words"] = list(words)
    question = ss.get(_k(domain, f"vague_q:{ver}"))
    if question is not None and question != str(vague.get("question") or ""):
        out["question"] = question
    changed_th = {}
    for name in store.THRESHOLD_KEYS:
        value = ss.get(_k(domain, f"th_{name}:{ver}"))
        if value is not None and round(float(value), 4) != round(float(th.get(name, -1) if isinstance(th.get(name), (int, float)) else -1), 4):
            changed_th[name] = round(float(value), 4)
    if changed_th:
        out["thresholds"] = changed_th
    return out


def render_history(domain: str) -> None:
    entries = store.history(domain, lexicon_root())
    if not entries:
        st.info("No saves yet. Each save keeps the previous version here, and the last one can be undone.")
        return
    rows = [
        {
            "Saved": datetime.fromtimestamp(e.saved_at).strftime("%Y-%m-%d %H:%M:%S"),
            "What": e.action or "edit",
            "Files": ", ".join(e.files),
            "From": e.source,
            "Undone": "yes" if e.undone else "",
        }
        for e in entries
        if e.complete
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    nothing_to_undo = all(e.undone for e in entries if e.complete)
    last = next((e for e in entries if e.complete and not e.undone), None)
    mine = last is not None and last.id in ss.get("ed:my_saves", [])
    if last is not None and not mine:
        st.warning(
            f"The last save ({last.action or 'edit'}, {', '.join(last.files)}, "
            f"{datetime.fromtimestamp(last.saved_at).strftime('%H:%M:%S')}, from {last.source}) was not made in this "
            "session: undoing it would undo someone else's work.", icon=":material/group:")
    label = "Undo my last save" if mine or last is None else "Undo their save anyway"
    if st.button(label, key=_k(domain, "undo_btn"), icon=":material/undo:", disabled=nothing_to_undo,
                 help="Every save here has been undone already." if nothing_to_undo else None):
        result = store.undo_last_save(domain, lexicon_root())
        if result.ok:
            load(domain, force=True)
            ss[_k(domain, "flash")] = ("success", result.message + " The playground routes with the restored version now.")
        else:
            ss[_k(domain, "flash")] = ("error", result.message)
        st.rerun()


# ---------------------------------------------------------------- review and save (right column)


def pending_edits(domain: str) -> tuple[list[store.FileEdit], list[str]]:
    snaps = ss[_k(domain, "snaps")]
    edits: list[store.FileEdit] = []
    rejected: list[str] = []

    def attempt(make):
        try:
            edit = make()
            if edit.changed:
                edits.append(edit)
        except store.EditRejected as exc:
            rejected.append(str(exc))
        except LexiconError as exc:
            rejected.extend(str(p) for p in exc.problems)

    syn = ss.get(_k(domain, "syn_eff"), ss[_k(domain, "syn")])
    if "synonyms.yaml" in snaps and syn != ss[_k(domain, "syn0")]:
        attempt(lambda: store.edit_synonyms(snaps["synonyms.yaml"], syn))
    pat = ss.get(_k(domain, "pat_eff"), ss[_k(domain, "pat")])
    if "patterns.yaml" in snaps and pat != ss[_k(domain, "pat0")]:
        attempt(lambda: store.edit_patterns(snaps["patterns.yaml"], pat))
    settings = _settings_draft(domain) if "settings.yaml" in snaps else {}
    if settings:
        attempt(lambda: store.edit_settings(snaps["settings.yaml"], **settings))
    return edits, rejected


def _reload_and_reapply(domain: str) -> None:
    """After a conflict: the fresh files, with this person's synonym and pattern edits replayed on them."""
    base_syn, base_pat = ss[_k(domain, "syn0")], ss[_k(domain, "pat0")]
    mine_syn = ss.get(_k(domain, "syn_eff"), ss[_k(domain, "syn")])
    mine_pat = ss.get(_k(domain, "pat_eff"), ss[_k(domain, "pat")])
    load(domain, force=True)
    ss[_k(domain, "syn")] = rebase_synonyms(base_syn, mine_syn, ss[_k(domain, "syn0")])
    ss[_k(domain, "pat")] = rebase_patterns(base_pat, mine_pat, ss[_k(domain, "pat0")])
    ss[_k(domain, "flash")] = ("success", "Reloaded the files as they are now and re-applied your edits: preview, then save.")


def _signature(edits: list[store.FileEdit]) -> tuple:
    return tuple((e.file, e.snapshot.digest, e.new_text) for e in edits)


def render_review(domain: str, prefill_query: str = "") -> None:
    st.subheader("Review and save")
    flash = ss.pop(_k(domain, "flash"), None)
    if flash:
        (st.success if flash[0] == "success" else st.error)(flash[1])
    conflict = ss.get(_k(domain, "conflict"))
    if conflict is not None:
        st.error(conflict.message, icon=":material/sync_problem:")
        if conflict.diff:
            with st.expander("What changed on disk since you opened it", expanded=True):
                st.code(conflict.diff, language="diff", wrap_lines=True)
        c1, c2 = st.columns(2)
        if c1.button("Reload and re-apply my edits", key=_k(domain, "conflict_rebase"), type="primary", icon=":material/sync:",
                     help="Reads the files as they are now and replays the variants and patterns you added or removed; then preview and save again."):
            _reload_and_reapply(domain)
            st.rerun()
        if c2.button("Reload from disk (drop my edits)", key=_k(domain, "conflict_reload"), icon=":material/refresh:"):
            load(domain, force=True)
            st.rerun()
        return
    edits, rejected = pending_edits(domain)
    for msg in rejected:
        st.error(msg, icon=":material/block:")
    if not edits:
        if not rejected:
            st.info("No unsaved changes. Edit on the left; the impact on the golden questions and the exact YAML diff show here before anything is written.")
        return
    st.markdown("**Unsaved changes:** " + ", ".join(f"`{e.file}` ({e.changed_lines()} line{'s' if e.changed_lines() != 1 else ''})" for e in edits))
    problems = store.validate_edits(domain, edits, lexicon_root())
    if problems:
        st.error("This cannot be saved yet. Fix:", icon=":material/error:")
        for p in problems:
            st.markdown(f"- **{html.escape(Path(p.file).name)}** line {p.line or '?'}: {html.escape(p.message)}")
    extra = st.text_area(
        "Also check these questions (one a line)",
        value=prefill_query,
        key=_k(domain, "extra_queries"),
        height=68,
        help="The golden corpus always runs; add questions you care about, e.g. the one that did not route.",
    )
    preview_clicked = st.button("Preview impact", key=_k(domain, "preview_btn"), type="primary", disabled=bool(problems), width="stretch", icon=":material/preview:")
    if st.button("Discard my changes", key=_k(domain, "discard_btn"), type="tertiary", icon=":material/delete:"):
        load(domain, force=True)
        ss[_k(domain, "flash")] = ("success", "Discarded. The editor shows the files as they are on disk.")
        st.rerun()
    sig = _signature(edits)
    if preview_clicked:
        with st.spinner("Routing the golden questions with and without your edit..."):
            state = router_state(domain)
            before = state.router if state.router is not None and not state.stale and state.fingerprint == state.router.domain.fingerprint else None
            report = preview_impact(
                domain,
                edits,
                root=lexicon_root(),
                today=ss.get("today"),
                extra_queries=[q.strip() for q in (extra or "").splitlines() if q.strip()],
                before=before,
            )
        ss[_k(domain, "preview")] = (sig, report)
    preview = ss.get(_k(domain, "preview"))
    if preview is None or preview[0] != sig:
        st.caption("Preview the impact to see which questions route differently; saving comes after.")
        with st.expander("YAML diff that will be written"):
            st.code("".join(e.diff() for e in edits), language="diff", wrap_lines=True)
        return
    report: ImpactReport = preview[1]
    _render_report(report)
    if st.button("Save to YAML", key=_k(domain, "save_btn"), type="primary", disabled=not report.valid, width="stretch", icon=":material/save:"):
        result = store.save_edits(domain, edits, lexicon_root(), source="editor")
        if result.status == "saved":
            if result.history_id:
                ss.setdefault("ed:my_saves", []).append(result.history_id.split("-")[0])  # undo tells my saves from others'
            load(domain, force=True)
            ss[_k(domain, "flash")] = ("success", f"{result.message} The playground routes with it now; undo it from the History tab.")
        elif result.status == "conflict":
            ss[_k(domain, "conflict")] = result
            ss.pop(_k(domain, "say"), None)  # an "Added …" beside a conflict would say the opposite
        else:
            ss[_k(domain, "flash")] = ("error", result.message + " " + "; ".join(str(p) for p in result.problems))
        st.rerun()


def _render_report(report: ImpactReport) -> None:
    if report.regressed:
        st.warning(report.summary, icon=":material/trending_down:")
    else:
        st.success(report.summary, icon=":material/check_circle:")
    delta = report.passed_after - report.passed_before
    st.markdown(
        f"Fixed **{report.fixed}** · Regressed **{report.regressed}** · Changed **{report.changed}** · "
        f"questions passing **{report.passed_after}/{report.n_queries}** (golden and yours)" + (f" ({delta:+d})" if delta else "")
    )
    icons = {"fixed": ":green[fixed]", "regressed": ":red[regressed]", "changed": ":blue[changed]"}
    for ch in report.changes[:15]:
        expected = f"  \n  expected: {ch.expected}" if ch.expected else ""
        st.markdown(
            f"- {icons[ch.kind]} **{_md(ch.query)}**  \n  before: {_md(ch.before.label)}  \n  after: **{_md(ch.after.label)}**{_md(expected)}"
        )
    if len(report.changes) > 15:
        with st.expander(f"All {len(report.changes)} changes"):
            rows = [{"Kind": ch.kind, "Question": ch.query, "Before": ch.before.label, "After": ch.after.label, "Expected": ch.expected} for ch in report.changes]
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    with st.expander("YAML diff that will be written", expanded=True):
        st.code("".join(report.diffs.values()) or "(no change)", language="diff", wrap_lines=True)


def _md(text: str) -> str:
    """Literal text inside Markdown: escape the characters Markdown would act on."""
    return "".join("\\" + ch if ch in "\\`*_{}[]<>#|~$" else ch for ch in str(text))


def render_try(domain: str) -> None:
    """Route with the router in service (the one the playground uses), to see a save take effect."""
    st.subheader("Try the live router")
    query = st.text_input("A question", key=_k(domain, "try_query"), placeholder="e.g. daftar faktur bulan ini")
    if not query.strip():
        return
    state = router_state(domain)
    if state.router is None:
        st.error("No valid version of this domain is loaded.")
        return
    res = router_state(domain).router.route(query, today=ss.get("today"))
    status = res.status.value
    top = res.top.name if res.top else "no match"
    conf = f"{res.top.confidence:.2f}" if res.top else ""
    st.markdown(f"{status_badge(status)} &nbsp;**{html.escape(top)}** {conf}", unsafe_allow_html=True)


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
    what = f"add “{variant}” under a canonical term" if variant else "add the missing word under a canonical term"
    _say(ss.domain, "syn-ok", f"From Coverage: {what}, then preview the impact on the right.")
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
    prefill_query = _apply_prefill()
    if ss.get("domain") not in names:
        ss.domain = names[0]
    ss["ed:domain_select"] = ss.domain
    st.sidebar.selectbox("Domain", names, key="ed:domain_select", on_change=_on_domain_change,
                         help="Which lexicon (tools, synonyms, patterns) to edit; the same choice as on every page.")
    domain = ss.domain
    if st.sidebar.button("Reload from disk", key=_k(domain, "reload_btn"), icon=":material/refresh:", width="stretch"):
        load(domain, force=True)
        st.rerun()
    state = router_state(domain)
    show_lexicon_problem(state)
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
