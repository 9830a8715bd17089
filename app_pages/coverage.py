"""Coverage explorer: run many questions, see which are covered and which fall through, fix gaps."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import streamlit as st

from routing.quality.evaluate import golden_path, load_golden
from routing.quality.gaps import editor_prefill, find_gaps, run_coverage
from routing.quality.importer import ImportProblem, csv_columns, import_labelled_csv, read_queries, relabel_cases
from routing.core.errors import LexiconError
from ui.common import TIER_LABELS, get_registry, page_setup, router_state, show_lexicon_problem
from ui.coverage_charts import (
    progress_reporter,
    CHART_CONFIG,
    accuracy_figure,
    confusion_figure,
    domain_picker,
    friendly_failure,
    latency_figure,
    path_figure,
    status_figure,
    tool_hits_figure,
)

RUN_KEY = "coverage_run"
NO_LABEL = "(no expected tool)"
FILTERS = {
    "All queries": lambda r: True,
    "Fell through (not found / needs clarification)": lambda r: r.fell_through,
    "Only not found": lambda r: r.status == "not_found",
    "Only wrong": lambda r: r.wrong,
}

page_setup("Coverage")
st.title("Coverage")
st.caption("Run a set of questions through the router: see which are covered, which fall through, and fix the gaps in the editor.")

from ui.coverage_large import URL_KEYS as LARGE_RUN_KEYS  # noqa: E402 - the large-run section's own address keys

domain = domain_picker("coverage_domain_pick", keep=LARGE_RUN_KEYS)
if st.session_state.get("import_flash"):
    st.success(st.session_state.pop("import_flash"), icon=":material/check_circle:")
state = router_state(domain) if domain else None
if state is not None:
    show_lexicon_problem(state)
router = state.router if state is not None else None

# ------------------------------------------------------------------ input

source = st.radio("Questions", ["Golden corpus", "Upload a file"], horizontal=True, key="coverage_source")
cases = None
source_label = ""
if router is not None and source == "Golden corpus":
    path = golden_path(router)
    if path.exists():
        try:
            cases = load_golden(path)
            source_label = f"golden corpus of {domain}"
            if cases:
                st.caption(f"{len(cases)} questions from `{path.name}`, with their expected tools and tiers.")
            else:  # an imported catalog starts with an empty golden.yaml: say how to fill it, not "0 questions"
                st.info(f"**{domain}** has no golden questions yet (`{path.name}` is empty). Choose *Upload a file* above "
                        "to run your own questions, or keep Playground answers as tests (*Right* / *Wrong – should be…* "
                        "under a card): they land here.", icon=":material/playlist_add:")
        except LexiconError as exc:
            st.error("The golden corpus does not parse.")
            with st.expander("What is wrong"):
                for p in exc.problems:
                    st.markdown(f"- line {p.line or '?'}: {p.message}")
    else:
        st.info(f"{domain} has no golden corpus yet; upload a file of questions instead.")
elif router is not None:
    upload = st.file_uploader("A CSV with a header (a text column, optionally the expected tool), or a text file with one question a line", type=["csv", "txt"], key="coverage_upload")
    if upload is not None:
        data = upload.getvalue()
        is_csv = upload.name.lower().endswith(".csv")
        try:
            if is_csv:
                columns = csv_columns(data)
                c1, c2 = st.columns(2)
                text_col = c1.selectbox("Question column", columns, index=columns.index("text") if "text" in columns else 0, key="coverage_text_col")
                label_options = [NO_LABEL] + [c for c in columns if c != text_col]
                guess = next((c for c in ("expected_tool", "expected", "tool", "label", "category", "intent") if c in label_options), NO_LABEL)
                label_col = c2.selectbox("Expected-tool column (optional)", label_options, index=label_options.index(guess), key="coverage_label_col")
                cases = read_queries(data, is_csv=True, text_col=text_col, label_col=None if label_col == NO_LABEL else label_col)
            else:
                cases = read_queries(data, is_csv=False)
            cases = relabel_cases(router.domain, cases)
            source_label = upload.name
            st.caption(f"{len(cases)} questions in {upload.name}.")
        except ImportProblem as exc:
            st.error(str(exc))
            cases = None

# A test just kept from a playground card: the golden corpus is run again at once, so it shows.
autorun = bool(cases) and source == "Golden corpus" and st.session_state.get("coverage_autorun") == domain
if autorun:
    st.session_state.pop("coverage_autorun", None)
if st.button("Run", type="primary", disabled=not cases, key="coverage_run_button") or autorun:
    tick = progress_reporter("Routing…", "Routing")

    try:
        run = run_coverage(router, cases, default_today=st.session_state.today, progress=tick)
        st.session_state["_coverage_runs"] = st.session_state.get("_coverage_runs", 0) + 1
        st.session_state[RUN_KEY] = {"domain": domain, "source": source_label, "run": run, "id": st.session_state["_coverage_runs"]}
    except Exception as exc:  # a broken lexicon or query must not take the page down
        friendly_failure("The run stopped on an unexpected problem; nothing was lost.", exc)
    tick.clear()

# ------------------------------------------------------------------ results

saved = st.session_state.get(RUN_KEY)
if saved and saved["domain"] == domain:
    run = saved["run"]
    rows = list(run.rows)
    m = run.metrics
    st.subheader(f"Results: {saved['source']}")
    cols = st.columns(3) + st.columns(3)
    cols[0].metric("Questions", f"{m['n']:,}")
    cols[1].metric("Top-1", f"{m['top1']:.1%}" if m["top1"] is not None else "—",
                   help="The best candidate is the expected tool, whatever the tier. Answered right (not rejected, "
                        + (f"and right): {m['answered_right']:.1%}" if m.get("answered_right") is not None else "and right): —"))
    cols[2].metric("Top-3", f"{m['top3']:.1%}" if m["top3"] is not None else "—")
    cols[3].metric("Tier accuracy", f"{m['tier_accuracy']:.1%}" if m["tier_accuracy"] is not None else "—")
    cols[4].metric("Fell through", f"{sum(r.fell_through for r in rows):,}")
    cols[5].metric("p50 latency", f"{m['p50_ms']:.1f} ms", help=f"99th percentile {m['p99_ms']:.2f} ms")

    c1, c2 = st.columns(2)
    c1.plotly_chart(status_figure(rows), width="stretch", key="coverage_status_chart", config=CHART_CONFIG)
    c2.plotly_chart(path_figure(rows), width="stretch", key="coverage_path_chart", config=CHART_CONFIG)
    c1, c2 = st.columns(2)
    noun = getattr(router, "target_noun", "tool")  # powers, tiers, datasources: the design's own word
    c1.plotly_chart(tool_hits_figure(rows, noun=noun), width="stretch", key="coverage_hits_chart", config=CHART_CONFIG)
    asked = [r for r in rows if r.asks]
    if asked:  # an ambiguous name is a clarification the user answers, never a tool hit
        c1.caption(f"Not in this chart: {len(asked):,} question{'s' * (len(asked) != 1)} asked back which one was meant "
                   f"(an ambiguous name), e.g. “{asked[0].asks}”. The table's *Asks back* column shows each.")
    c2.plotly_chart(latency_figure(rows), width="stretch", key="coverage_latency_chart", config=CHART_CONFIG)
    if m["n_labelled"]:
        c1, c2 = st.columns([1, 2])
        c1.plotly_chart(accuracy_figure(m), width="stretch", key="coverage_accuracy_chart", config=CHART_CONFIG)
        c2.plotly_chart(confusion_figure(rows, noun=noun), width="stretch", key="coverage_confusion_chart", config=CHART_CONFIG)

    st.subheader("Every question")
    which = st.radio("Show", list(FILTERS), horizontal=True, key="coverage_filter")
    shown = [r for r in rows if FILTERS[which](r)]
    table = [r.to_dict() for r in shown]
    if not shown:
        st.info("No question matches this filter.")
    st.dataframe(
        table,
        width="stretch",
        hide_index=True,
        column_config={
            "query": st.column_config.TextColumn("Question", width="medium"),
            "expected": st.column_config.TextColumn(f"Expected {noun}", help=f"Empty: the question should find no {noun} (a negative example)."),
            "status": st.column_config.TextColumn("Tier"),
            "top": st.column_config.TextColumn(f"Top {noun}"),
            "asks": st.column_config.TextColumn("Asks back", help="The clarification asked instead of a tool (an ambiguous name)."),
            "confidence": st.column_config.ProgressColumn("Confidence", min_value=0.0, max_value=1.0, format="%.2f"),
            "path": st.column_config.TextColumn("Path"),
            "verdict": st.column_config.TextColumn("Verdict", help="ok: the expected tool and tier; otherwise what went wrong."),
            "detail": st.column_config.TextColumn("Detail"),
            "timing_ms": st.column_config.NumberColumn("Time (ms)", format="%.2f"),
            "unknown_words": st.column_config.TextColumn("Unknown words", help="Words of the question the lexicon does not know."),
            "suggestion": st.column_config.TextColumn("Suggested synonym", help="An unknown word and the known term it is probably a variant of."),
        },
        key="coverage_table",
    )
    st.caption(f"{len(shown):,} of {len(rows):,} questions shown; the downloads hold all {len(rows):,}.")
    all_rows = [r.to_dict() for r in rows]  # downloads hold every question, whatever the filter shows
    d1, d2, _ = st.columns([1, 1, 4])
    header = list(all_rows[0]) if all_rows else ["query"]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=header)
    writer.writeheader()
    writer.writerows(all_rows)
    d1.download_button("Download CSV", buf.getvalue(), file_name=f"coverage-{domain}.csv", mime="text/csv", key="coverage_csv")
    d2.download_button(
        "Download JSON",
        json.dumps({"domain": domain, "source": saved["source"], "metrics": m, "rows": all_rows}, ensure_ascii=False, indent=2),
        file_name=f"coverage-{domain}.json",
        mime="application/json",
        key="coverage_json",
    )

    # -------------------------------------------------------------- fix a gap
    fell = [r for r in rows if r.fell_through or r.status == "weak_matches"]
    st.subheader("Fix a question that fell through or matched weakly")
    if not fell:
        st.success(f"Every question found a {noun}.")
    else:
        labels = [f"{r.query}  ·  {TIER_LABELS[r.status]}" for r in fell]
        # Keyed by run: a new run starts the fix box afresh, never showing a question of the old run.
        run_id = saved.get("id", 0)
        pick = st.selectbox("Question", range(len(fell)), format_func=lambda i: labels[i], key=f"coverage_fix_pick_{run_id}")
        row = fell[pick]
        gaps = list(row.gaps) or find_gaps(router, router.route(row.query, today=st.session_state.today).to_dict())
        canonicals = [c for c, _ in router.domain.synonyms]
        if not gaps:
            st.info("Every word of this question is known to the lexicon; it may need a pattern or an example. Open the editor to add one.")
        else:
            words = [g.word for g in gaps]
            c1, c2 = st.columns(2)
            word_i = c1.selectbox("Word the lexicon does not know", range(len(words)), format_func=lambda i: words[i], key=f"coverage_fix_word_{run_id}_{pick}")
            gap = gaps[word_i]
            if gap.canonical:
                c1.caption(f"Nearest known form: “{gap.near}” (of **{gap.canonical}**, {gap.similarity:.0f}% alike).")
            elif gap.near:
                c1.caption(f"Nearest word in the examples: “{gap.near}”. No synonym is close: choose the term it means.")
            if canonicals:
                default = canonicals.index(gap.canonical) if gap.canonical in canonicals else 0
                canonical = c2.selectbox("Add it as a synonym of", canonicals, index=default, key=f"coverage_fix_canonical_{run_id}_{word_i}_{pick}")
            else:
                canonical = None
                c2.info("This domain has no synonyms yet: the editor can add the first term.")
        if st.button("Fix in the editor", type="primary", icon=":material/edit_note:", key="coverage_fix_button"):
            st.session_state["editor_prefill"] = editor_prefill(domain, row.query, gaps[word_i] if gaps else None, canonical if gaps else None)
            st.switch_page("app_pages/editor.py")

# ------------------------------------------------------------------ bring your own intents

with st.expander("Bring your own intents: import a labelled CSV as a new domain", icon=":material/upload_file:"):
    st.caption("One tool per label, its utterances as the examples; a held-out share of each label becomes the golden corpus.")
    up = st.file_uploader("Labelled CSV (one utterance and its label a row)", type=["csv"], key="import_upload")
    if up is not None:
        try:
            columns = csv_columns(up.getvalue())
            c1, c2, c3 = st.columns(3)
            text_col = c1.selectbox("Utterance column", columns, index=columns.index("text") if "text" in columns else 0, key="import_text_col")
            label_guess = next((c for c in ("category", "label", "intent", "tool") if c in columns), columns[-1])
            label_col = c2.selectbox("Label column", columns, index=columns.index(label_guess), key="import_label_col")
            stem = "".join(ch if ch.isalnum() else "_" for ch in Path(up.name).stem.lower()).strip("_") or "imported"
            name = c3.text_input("New domain name", value=stem, key="import_name")
            holdout = st.slider("Held out for evaluation", 0.0, 0.5, 0.1, 0.05, format="%.2f", key="import_holdout")
            replace_existing = st.checkbox("Replace the domain if it exists", key="import_force")
            if st.button("Import", key="import_button"):
                with st.spinner("Importing…"):
                    result = import_labelled_csv(
                        up.getvalue(), name.strip(), root=get_registry().root, text_col=text_col, label_col=label_col,
                        holdout=holdout, force=replace_existing, source_label=up.name,
                    )
                st.session_state.domain = result.domain
                st.session_state.pop(RUN_KEY, None)
                st.session_state["import_flash"] = (
                    f"Imported **{result.domain}**: {len(result.tools)} tools, {result.examples:,} examples, "
                    f"{result.heldout:,} held-out questions in its golden corpus"
                    + (f" ({len(result.skipped)} rows left out: empty, too long or duplicates)" if result.skipped else "")
                    + ". It is now the selected domain: press Run to see its coverage."
                )
                st.rerun()
        except ImportProblem as exc:
            st.error(str(exc))
        except LexiconError as exc:
            st.error("The imported data does not make a valid domain.")
            with st.expander("What is wrong"):
                for p in exc.problems[:50]:
                    st.markdown(f"- `{p.file}` line {p.line or '?'}: {p.message}")

# ------------------------------------------------------------------ bring a tool catalog (issue 22)

with st.expander("Bring a tool catalog: OpenAI tools, MCP tools/list or OpenAPI 3", icon=":material/handyman:"):
    st.caption("One tool per function / operation, known by its name, description and parameters; no example questions needed.")
    cat_up = st.file_uploader("Catalog (JSON or YAML)", type=["json", "yaml", "yml"], key="catalog_upload")
    if cat_up is not None:
        cat_stem = "".join(ch if ch.isalnum() else "_" for ch in Path(cat_up.name).stem.lower()).strip("_") or "catalog"
        cat_name = st.text_input("New domain name", value=cat_stem, key="catalog_name")
        cat_force = st.checkbox("Replace the domain if it exists", key="catalog_force")
        if st.button("Import catalog", key="catalog_button"):
            from routing.quality.tool_import import import_tool_catalog

            try:
                with st.spinner("Importing…"):
                    done = import_tool_catalog(cat_up.getvalue(), cat_name.strip(), root=get_registry().root,
                                               force=cat_force, source_label=cat_up.name)
                st.session_state.domain = done.domain
                st.session_state.pop(RUN_KEY, None)
                st.session_state["import_flash"] = (f"Imported **{done.domain}** from {done.format}: {done.tools} tools, "
                                                    f"{done.params} parameters. It is now the selected domain.")
                st.rerun()
            except ImportProblem as exc:
                st.error(str(exc))
            except LexiconError as exc:
                st.error("The catalog does not make a valid domain.")
                for p in exc.problems[:50]:
                    st.markdown(f"- `{p.file}` line {p.line or '?'}: {p.message}")

# ------------------------------------------------------------------ a large run (python -m routing coverage)

from ui.coverage_large import render_large_run  # noqa: E402 - the section's own module, kept apart from this page's code

st.divider()
render_large_run()
