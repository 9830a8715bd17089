"""The Coverage page's "Open a large run" section: a summary written by `python -m routing coverage`
(a run folder under the runs root, or an uploaded summary.json), never a million lines routed here.

Tiers and tools over time, the topics of what is not covered as a treemap, the chosen topic with
its examples and fix, and "Fix in the editor" (the page's own hand-off, st.session_state
["editor_prefill"]). The run, the tier and tool filters and the chosen topic are kept in the URL
(?run=...&tiers=...&tools=...&topic=...), so a link opens the same view.
"""
from __future__ import annotations

import json

import streamlit as st

from routing.quality.coverage_run import RUN_NAME, list_runs, read_summary, run_progress, runs_root
from ui.common import TIER_LABELS, domain_names, get_registry
from ui.coverage_charts import CHART_CONFIG, STATUS_ORDER
from ui.coverage_large_charts import tiers_figure, tools_figure, topic_trend_figure, topics_figure

URL_KEYS = ("run", "tiers", "tools", "topic")
UPLOADED = "(an uploaded summary.json)"
LINKED = "_lr_link_applied"


def _from_url() -> None:
    """On the session's first visit: the widgets take the link's run, filters and topic."""
    if st.session_state.get(LINKED):
        return
    st.session_state[LINKED] = True
    qp = st.query_params
    run = (qp.get("run") or "").strip()
    if run and RUN_NAME.match(run):
        st.session_state["lr_run"] = run
    for key in ("tiers", "tools"):
        raw = (qp.get(key) or "").strip()
        if raw:
            st.session_state[f"_lr_url_{key}"] = [v for v in raw.split(",") if v]
    topic = (qp.get("topic") or "").strip()
    if topic.isdigit():
        st.session_state["_lr_url_topic"] = int(topic)


def _to_url(values: dict) -> None:
    """Write this section's keys to the URL (only those; other pages' keys are left alone)."""
    for key in URL_KEYS:
        value = values.get(key)
        if value in (None, "", []):
            if key in st.query_params:
                del st.query_params[key]
        else:
            text = ",".join(value) if isinstance(value, list) else str(value)
            if st.query_params.get(key) != text:
                st.query_params[key] = text


def render_large_run() -> None:
    _from_url()
    st.subheader("Open a large run")
    st.caption("A summary written by `python -m routing coverage FILE --domain NAME` (every core, or a Ray cluster): "
               "tiers and tools over time, and what is not covered grouped into topics with a fix each.")
    root = runs_root(get_registry().root)
    runs = list_runs(root)
    names = [r["name"] for r in runs]
    linked = st.session_state.get("lr_run")
    if linked and linked not in names and linked != UPLOADED:
        st.warning(f"The link names the run “{linked}”, which is not in {root}.")
        st.session_state.pop("lr_run")
    options = [""] + names + [UPLOADED]
    pick = st.selectbox("Run", options, key="lr_run", format_func=lambda n: n or "(choose a run)",
                        help=f"Run folders in {root} (ROUTING_COVERAGE_RUNS sets another folder).")
    summary = None
    if pick == UPLOADED:
        up = st.file_uploader("summary.json of a run", type=["json"], key="lr_upload")
        if up is not None:
            try:
                summary = json.loads(up.getvalue().decode("utf-8"))
                if not isinstance(summary, dict) or summary.get("kind") != "routing-coverage-summary":
                    raise ValueError("it is not a coverage summary (no kind: routing-coverage-summary)")
            except (ValueError, UnicodeDecodeError) as exc:
                st.error(f"{up.name} cannot be opened: {exc}")
                summary = None
    elif pick:
        prog = run_progress(root / pick)
        if prog is not None and not prog["finished"]:
            total = prog["total"] or 0
            st.progress(min(1.0, prog["done"] / total) if total else 0.0,
                        text=f"Still routing: {prog['done']:,} of {total:,} questions" if total else f"Still routing: {prog['done']:,} questions")
            st.button("Refresh", key="lr_refresh", icon=":material/refresh:")
        else:
            try:
                summary = read_summary(root / pick)
            except (OSError, ValueError) as exc:
                st.error(f"The run “{pick}” has no readable summary: {exc}")
    if not summary:
        _to_url({"run": pick if pick and pick != UPLOADED else None})
        if not runs:
            st.info(f"No runs yet in {root}. Start one: `python -m routing coverage questions.csv --domain {st.session_state.get('domain') or 'accounting'}`.")
        return
    values = _render_summary(summary)
    values["run"] = pick if pick != UPLOADED else None
    _to_url(values)


def _render_summary(s: dict) -> dict:
    n = s["rows"] or 0
    covered = sum(s["tiers"].get(t, 0) for t in ("activated", "multiple_matches"))
    cols = st.columns(5)
    cols[0].metric("Questions", f"{n:,}")
    cols[1].metric("Covered", f"{covered / n:.1%}" if n else "—", help="Activated or multiple matches: a tool was found.")
    cols[2].metric("Not covered", f"{s['uncovered']:,}", help="Not found or only weak matches: grouped into the topics below.")
    labelled = s.get("labelled") or {}
    # a summary written before answered right had its own key called it top1
    top1, answered = (labelled.get("top1"), labelled.get("answered_right")) if "answered_right" in labelled else (None, labelled.get("top1"))
    cols[3].metric("Top-1", f"{top1:.1%}" if top1 is not None else "—",
                   help="With an expected-tool column only: the best candidate is that tool, whatever the tier. Answered right "
                        "(not rejected, and right): " + (f"{answered:.1%}" if answered is not None else "—") + ".")
    qps = s.get("throughput_qps")
    cols[4].metric("Throughput", f"{qps:,.0f}/s" if qps else "—", help=f"{s.get('engine')} engine, {s.get('workers')} workers; p50 {s['latency_ms']['p50']:.2f} ms a question")
    st.caption(f"Domain **{s['domain']}** · input `{s['input']}` · reference date {s['today']} · lexicon version {s['fingerprint']}")

    present = [t for t in STATUS_ORDER if s["tiers"].get(t)]
    url_tiers = [t for t in st.session_state.pop("_lr_url_tiers", []) if t in present]
    if url_tiers:
        st.session_state["lr_tiers"] = url_tiers
    elif "lr_tiers" not in st.session_state or not set(st.session_state["lr_tiers"]) <= set(present):
        st.session_state["lr_tiers"] = present
    tool_names = list(s["tools"])
    url_tools = [t for t in st.session_state.pop("_lr_url_tools", []) if t in tool_names]
    if url_tools:
        st.session_state["lr_tools"] = url_tools
    elif "lr_tools" not in st.session_state or not set(st.session_state["lr_tools"]) <= set(tool_names):
        st.session_state["lr_tools"] = tool_names[:6]
    c1, c2 = st.columns(2)
    tiers = c1.multiselect("Tiers", present, key="lr_tiers", format_func=lambda t: TIER_LABELS.get(t, t))
    tools = c2.multiselect("Tools", tool_names, key="lr_tools", help="The tools drawn over time (the busiest six at first).")
    c1.plotly_chart(tiers_figure(s, tiers), width="stretch", key="lr_tiers_chart", config=CHART_CONFIG)
    c2.plotly_chart(tools_figure(s, tools), width="stretch", key="lr_tools_chart", config=CHART_CONFIG)

    topics = s.get("topics") or []
    values = {"tiers": tiers if tiers != present else [], "tools": tools if tools != tool_names[:6] else [], "topic": None}
    if not topics:
        st.success("Nothing left uncovered to group." if not s["uncovered"] else "The run has no topics (it ran with --no-topics).")
        return values
    ids = [t["id"] for t in topics]
    url_topic = st.session_state.pop("_lr_url_topic", None)
    if url_topic in ids:
        st.session_state["lr_topic"] = url_topic
    elif st.session_state.get("lr_topic") not in ids:
        st.session_state["lr_topic"] = ids[0]
    by_id = {t["id"]: t for t in topics}
    chosen = st.session_state["lr_topic"]
    st.plotly_chart(topics_figure(topics, chosen), width="stretch", key="lr_topics_chart", config=CHART_CONFIG)
    other = s.get("topics_other") or 0
    st.caption(f"{len(topics)} topics hold {sum(t['size'] for t in topics):,} of {s['uncovered']:,} uncovered questions"
               + (f"; {other:,} fit no topic." if other else "."))
    chosen = st.selectbox("Topic", ids, key="lr_topic", format_func=lambda i: f"{by_id[i]['name']}  ·  {by_id[i]['size']:,} questions")
    values["topic"] = chosen
    _render_topic(s, by_id[chosen])
    return values


def _render_topic(s: dict, t: dict) -> None:
    fix = t["fix"]
    left, right = st.columns([3, 2])
    with left:
        share_all = f", {t['share_all']:.2%} of all questions" if t.get("share_all") is not None else ""
        st.markdown(f"**{t['name']}**: {t['size']:,} questions ({t['share']:.1%} of the uncovered{share_all}). "
                    f"Distinctive words: {', '.join(t['words']) or '—'}.")
        st.markdown("Examples:\n" + "\n".join(f"- {q}" for q in t["examples"]))
        if t["trend"]:
            st.plotly_chart(topic_trend_figure(t, s["over_time"]["period"]), width="stretch", key="lr_topic_trend", config=CHART_CONFIG)
    with right:
        if fix["kind"] == "tool":
            st.markdown(f"**Suggested fix**: add to **{fix['tool']}** ({fix['similarity']:.2f} alike)")
            st.markdown(f"- as synonyms: {', '.join(fix['words']) or '—'}\n- as examples: " + "; ".join(f"“{q}”" for q in fix["examples"]))
        else:
            st.markdown(f"**Suggested fix**: a new tool. Nothing is near enough (nearest {fix['tool']}, {fix['similarity']:.2f} alike).")
            st.markdown(f"- its words: {', '.join(fix['words']) or '—'}\n- its first examples: " + "; ".join(f"“{q}”" for q in fix["examples"]))
        known = s["domain"] in domain_names()
        if st.button("Fix in the editor", type="primary", icon=":material/edit_note:", key="lr_fix_button", disabled=not known,
                     help=None if known else f"The domain {s['domain']} is not in this app's lexicon folder."):
            st.session_state["editor_prefill"] = dict(fix["prefill"])
            st.switch_page("app_pages/editor.py")
        cols = s.get("columns") or {}
        flags = "".join(f" --{k}-col {v}" for k, v in cols.items() if v and not (k == "text" and v == "text"))
        st.caption("After saving, run the same command again to see the topic shrink:")
        st.code(f"python -m routing coverage {s['input']} --domain {s['domain']} --today {s['today']}{flags}", language="bash")
