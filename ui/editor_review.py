"""The editor's right column: the pending edits, their impact on the golden questions and the exact
YAML diff, save (with conflict recovery), history and undo, and the try-a-question box."""
from __future__ import annotations

import html
from datetime import datetime
from pathlib import Path

import pandas as pd
import streamlit as st

from routing.core.errors import LexiconError
from routing.editing import store
from routing.editing.impact import ImpactReport, preview_impact
from ui.cards import status_badge
from ui.common import router_state
from ui.examples import playground_examples
from ui.editor_state import _k, _settings_draft, lexicon_root, load, ss
from ui.editor_tables import (
    rebase_patterns,
    rebase_synonyms,
)


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
        # A reload starts a new session, so "not in this session" may well be your own save: say what is known.
        st.info(
            f"The last save ({last.action or 'edit'}, {', '.join(last.files)}, "
            f"{datetime.fromtimestamp(last.saved_at).strftime('%H:%M:%S')}, from {last.source}) was made before this "
            "browser session began (a reload starts a new one). If it was not yours, undoing it undoes another "
            "person's change.", icon=":material/history:")
    label = "Undo my last save" if mine or last is None else "Undo the last save"
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
    state = router_state(domain)
    examples = playground_examples(state.router.domain) if state.router is not None else []
    query = st.text_input("A question", key=_k(domain, "try_query"), placeholder=f"e.g. {examples[0]}" if examples else "a question of this domain")
    if not query.strip():
        return
    if state.router is None:
        st.error("No valid version of this domain is loaded.")
        return
    res = router_state(domain).router.route(query, today=ss.get("today"))
    status = res.status.value
    top = res.top.name if res.top else "no match"
    conf = f"{res.top.confidence:.2f}" if res.top else ""
    st.markdown(f"{status_badge(status)} &nbsp;**{html.escape(top)}** {conf}", unsafe_allow_html=True)
