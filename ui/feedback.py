"""From demo to test in one click: "Right" / "Wrong - should be ..." on a card keeps the question and
its expected answer in the domain's golden corpus (routing.editing.golden, the editor's safe
writer), after a preview of the YAML and of what the corpus's figures become."""
from __future__ import annotations

import streamlit as st

from routing.editing.golden import add_golden_case, expectation, preview_golden_case
from ui.common import TIER_LABELS, get_registry, router_state

PROPOSAL = "_golden_proposal"  # entry key: the expectation being previewed
SAVED = "_golden_saved"  # entry key: the message of the last save


def _pct(v) -> str:
    return "—" if v is None else f"{v:.1%}"


def _propose(entry: dict, expect: dict) -> None:
    entry[PROPOSAL] = expect
    entry.pop(SAVED, None)


def _propose_correction(entry: dict, key: str) -> None:
    tool = st.session_state.get(f"fb-tool-{key}")
    status = st.session_state.get(f"fb-tier-{key}")
    _propose(entry, expectation(entry["result"], tool=tool, status=status))


def _cancel(entry: dict) -> None:
    entry.pop(PROPOSAL, None)


def _save(entry: dict, domain: str) -> None:
    expect = entry.pop(PROPOSAL, None)
    if not expect:
        return
    result = add_golden_case(domain, str(entry["result"].get("query", "")), expect, root=get_registry().root, source="playground")
    entry[SAVED] = (result.status, result.message)
    if result.ok:
        for k in ("coverage_run", "tuner_scores"):  # the pages measure the corpus as it is now
            st.session_state.pop(k, None)
        st.session_state["coverage_autorun"] = domain  # Coverage runs the corpus again on its next visit


def describe(expect: dict) -> str:
    bits = [f"`{expect['tool']}`"] if expect.get("tool") else []
    if expect.get("status"):
        bits.append(TIER_LABELS.get(expect["status"], expect["status"]))
    bits += [f"{k} `{v}`" for k, v in expect.items() if k not in ("tool", "status")]
    return ", ".join(bits)


def render_feedback(result: dict, entry: dict, *, key: str, noun: str = "tool") -> None:
    """The Right / Wrong row of a card, and the preview before anything is written."""
    domain = str(result.get("domain", ""))
    router = router_state(domain).router if domain else None
    if router is None or (result.get("error") or {}).get("code") == "INVALID_QUERY":
        return
    names = [t.name for t in router.domain.tools]
    with st.container(horizontal=True, vertical_alignment="center", key=f"feedback-{key}"):
        st.caption("Keep as a test:", width="content")
        st.button("Right", key=f"fb-right-{key}", icon=":material/thumb_up:", type="tertiary",
                  on_click=_propose, args=(entry, expectation(result)),
                  help="Keep this question with this answer in the domain's golden corpus (a preview comes first).")
        with st.popover("Wrong – should be…", icon=":material/thumb_down:"):
            top = (result.get("matches") or [{}])[0].get("name") if result.get("matches") else None
            st.selectbox(f"The {noun}", names, index=names.index(top) if top in names else 0, key=f"fb-tool-{key}")
            tiers = list(TIER_LABELS)
            st.selectbox("The tier", tiers, index=0, format_func=TIER_LABELS.get, key=f"fb-tier-{key}")
            st.button("Preview the test case", key=f"fb-wrong-{key}", on_click=_propose_correction, args=(entry, key), type="primary")
    said = entry.get(SAVED)
    if said:
        status, message = said
        if status == "saved":
            st.success(f"{message} The Coverage page measures it from now on.", icon=":material/check_circle:")
        elif status == "unchanged":
            st.info(message, icon=":material/info:")
        else:
            st.error(message, icon=":material/error:")
    expect = entry.get(PROPOSAL)
    if not expect:
        return
    try:
        preview = preview_golden_case(router, str(result.get("query", "")), expect, get_registry().root)
    except Exception as exc:  # noqa: BLE001 - a bad corpus file is said, never a traceback
        st.error(f"The golden corpus cannot take this case: {exc}", icon=":material/error:")
        st.button("Cancel", key=f"fb-cancel-{key}", on_click=_cancel, args=(entry,))
        return
    with st.container(border=True, key=f"fb-preview-{key}"):
        st.markdown(f"**Add to `{domain}/golden.yaml`:** “{result.get('query', '')}” → {describe(expect)}")
        if preview.duplicate == "same":
            st.info("This question is already a test case with this answer; nothing would change.", icon=":material/info:")
        elif preview.duplicate == "differs":
            st.warning("The corpus already has this question with another expected answer; both would be checked.", icon=":material/warning:")
        if preview.verdict == "ok":
            st.markdown(":material/check: The router passes this test now.")
        else:
            st.markdown(f":material/close: The router fails this test now: {preview.detail}.")
        b, a = preview.before, preview.after
        st.caption(f"Coverage on the golden corpus: {b['n']} → {a['n']} questions · top-1 {_pct(b['top1'])} → {_pct(a['top1'])} "
                   f"· tier accuracy {_pct(b['tier_accuracy'])} → {_pct(a['tier_accuracy'])}")
        if preview.changed:
            with st.expander("The change to the file", icon=":material/difference:"):
                st.code(preview.edit.diff(), language="diff")
        c1, c2, _ = st.columns([1, 1, 3])
        c1.button("Save the test", key=f"fb-save-{key}", type="primary", icon=":material/save:", disabled=not preview.changed,
                  on_click=_save, args=(entry, domain))
        c2.button("Cancel", key=f"fb-cancel-{key}", on_click=_cancel, args=(entry,))
