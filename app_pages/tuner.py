"""Threshold tuner: sweep each tier threshold on a labelled set, see what it does, apply safely."""
from __future__ import annotations

import streamlit as st

from routing import Thresholds
from routing.core.errors import LexiconError
from routing.quality.evaluate import golden_path, load_golden, run_cases
from routing.quality.importer import ImportProblem, csv_columns, read_queries, relabel_cases
from routing.editing.store import set_thresholds
from routing.quality.tuning import THRESHOLD_NAMES, evaluate, is_ordered, score_cases, tune, untunable_reason
from ui.common import TIER_LABELS, get_registry, page_setup, router_state, show_lexicon_problem
from ui.coverage_charts import CHART_CONFIG, STATUS_ORDER, domain_picker, friendly_failure, progress_reporter, sweep_figure

SCORES_KEY = "tuner_scores"
LABELS = {"high": "high · Activated", "medium": "medium · Multiple matches", "low": "low · Weak matches", "margin": "margin · lead to activate"}
HELP = {
    "high": "Activated (fast path) at or above this confidence…",
    "medium": "Multiple matches at or above this confidence.",
    "low": "Weak matches at or above this; below it, not found.",
    "margin": "…and only if the top tool leads the runner-up by this much.",
}

page_setup("Threshold tuner")
st.title("Threshold tuner")
st.caption(
    "How the four tier thresholds trade accuracy against the share of questions that take the fast path. "
    "Each question is scored once; moving a slider re-classifies those scores instantly."
)

domain = domain_picker("tuner_domain_pick", keep=THRESHOLD_NAMES)
state = router_state(domain) if domain else None
if state is not None:
    show_lexicon_problem(state)
router = state.router if state is not None else None
if router is None:
    st.stop()

if st.session_state.get("tuner_flash"):
    st.success(st.session_state.pop("tuner_flash"), icon=":material/check_circle:")

source = st.radio("Labelled questions", ["Golden corpus", "Upload a labelled CSV"], horizontal=True, key="tuner_source")
cases, source_label = None, ""
try:
    if source == "Golden corpus":
        path = golden_path(router)
        if path.exists():
            cases, source_label = load_golden(path), f"golden corpus of {domain}"
            if not cases:  # an imported catalog starts with an empty golden.yaml: the page must not end blank
                st.info(f"**{domain}** has no golden questions yet (`{path.name}` is empty), so there is nothing to tune on. "
                        "Choose *Upload a labelled CSV* above, or keep Playground answers as tests (*Right* / *Wrong – should be…* "
                        "under a card) and come back.", icon=":material/playlist_add:")
        else:
            st.info(f"{domain} has no golden corpus; upload a labelled CSV instead.")
    else:
        up = st.file_uploader("CSV with a question column and an expected-tool column", type=["csv"], key="tuner_upload")
        if up is not None:
            columns = csv_columns(up.getvalue())
            c1, c2 = st.columns(2)
            text_col = c1.selectbox("Question column", columns, index=columns.index("text") if "text" in columns else 0, key="tuner_text_col")
            labels = [c for c in columns if c != text_col] or columns
            guess = next((c for c in ("expected_tool", "tool", "label", "category", "intent") if c in labels), labels[0])
            label_col = c2.selectbox("Expected-tool column", labels, index=labels.index(guess), key="tuner_label_col")
            cases = relabel_cases(router.domain, read_queries(up.getvalue(), is_csv=True, text_col=text_col, label_col=label_col))
            source_label = up.name
            if not cases:
                st.warning(f"No labelled question in {up.name}: no row has both a question and an expected tool of "
                           f"**{domain}** in the columns chosen.", icon=":material/warning:")
except (ImportProblem, LexiconError) as exc:
    st.error(f"Cannot read the questions: {exc}")
    cases = None

if not cases:
    st.stop()

reason = untunable_reason(router)
if reason:  # say why, and still show the figures Coverage and eval give on these questions
    st.info(reason, icon=":material/info:")
    m = run_cases(router, cases, default_today=st.session_state.today).metrics()
    c = st.columns(3)
    c[0].metric("Questions", f"{m['n']:,}")
    c[1].metric("Top-1", "—" if m["top1"] is None else f"{m['top1']:.1%}")
    c[2].metric("Tier accuracy", "—" if m["tier_accuracy"] is None else f"{m['tier_accuracy']:.1%}")
    st.stop()

# Score once per (domain version, source); sliders only re-classify.
signature = (domain, router.domain.fingerprint, source_label, len(cases), str(st.session_state.today))
saved = st.session_state.get(SCORES_KEY)
if saved is None or saved["signature"] != signature:
    tick = progress_reporter("Scoring the questions once…", "Scoring")

    try:
        scored = score_cases(router, cases, default_today=st.session_state.today, progress=tick)
    except Exception as exc:  # never a raw traceback on the page
        friendly_failure("Scoring stopped on an unexpected problem.", exc)
        st.stop()
    tick.clear()
    saved = {"signature": signature, "scored": scored}
    st.session_state[SCORES_KEY] = saved
    for name in THRESHOLD_NAMES:  # sliders start at the file's values for a new set or version
        st.session_state[f"tuner_{name}"] = getattr(router.thresholds, name)
scored = saved["scored"]
current = router.thresholds

# ------------------------------------------------------------------ sliders

if "report" not in saved:  # the sweeps depend only on the scores and the file's thresholds
    saved["report"] = tune(scored, current)
report = saved["report"]

linked = st.session_state.pop("_linked_tuner_domain_pick", None)
if linked:  # a link's ?high=0.9&margin=0.05: the sliders start there
    for name in THRESHOLD_NAMES:
        try:
            value = float(linked.get(name) or "nan")
        except ValueError:
            continue
        if 0.0 <= value <= 1.0:
            st.session_state[f"tuner_{name}"] = round(value, 2)

if st.session_state.pop("tuner_use_best", False):
    best = report.best
    for name in THRESHOLD_NAMES:
        st.session_state[f"tuner_{name}"] = getattr(best, name)

st.subheader(f"Thresholds · {len(scored):,} questions from {'the ' if source == 'Golden corpus' else ''}{source_label}")
cols = st.columns(4)
chosen_values = {}
for col, name in zip(cols, THRESHOLD_NAMES):
    st.session_state.setdefault(f"tuner_{name}", getattr(current, name))
    chosen_values[name] = col.slider(LABELS[name], 0.0, 1.0, step=0.01, key=f"tuner_{name}", help=HELP[name])
chosen = Thresholds(**chosen_values)
from ui.context import write_url  # noqa: E402 (the address bar holds the sliders that differ from the file)

write_url("tuner_domain_pick", {"domain": domain, **{n: f"{v:.2f}" for n, v in chosen_values.items() if abs(v - getattr(current, n)) > 1e-9}})
valid = is_ordered(chosen)
if not valid:
    st.warning("The thresholds must satisfy low ≤ medium ≤ high; move a slider to restore the order.", icon=":material/warning:")

ev_now = evaluate(scored, current)
ev = evaluate(scored, chosen) if valid else ev_now


def pct(v):
    return "—" if v is None else f"{v:.1%}"


def delta(a, b):
    return None if a is None or b is None or abs(a - b) < 1e-9 else f"{(a - b) * 100:+.1f} pts"


m = st.columns(3) + st.columns(len(STATUS_ORDER))
m[0].metric("Tier accuracy", pct(ev.tier_accuracy), delta(ev.tier_accuracy, ev_now.tier_accuracy), help="Expected tier where the case has one; otherwise: fast path exactly when the top tool is right.")
m[1].metric("Answered right", pct(ev.answered_right), delta(ev.answered_right, ev_now.answered_right),
            help="A tier that shows matches, with the expected tool first (top-1, the best candidate whatever the tier, "
                 f"is {pct(ev.top1)}: thresholds do not move it).")
m[2].metric("Fast path", pct(ev.shares.get("activated")), delta(ev.shares.get("activated"), ev_now.shares.get("activated")))
for col, status in zip(m[3:], STATUS_ORDER):
    col.metric(TIER_LABELS[status], f"{ev.counts[status]:,}", delta=(ev.counts[status] - ev_now.counts[status]) or None, delta_color="off")
st.caption("Figures computed for " + ", ".join(f"{n} **{chosen_values[n]:.2f}**" for n in THRESHOLD_NAMES)
           + ": if a slider shows another value, it is still being applied.")
st.session_state["tuner_tier_counts"] = dict(ev.counts)  # what the page shows, for tests and exports

b1, b2 = st.columns(2)
b3 = st.container()
if b1.button("Use the best values", icon=":material/auto_fix_high:", key="tuner_best_button"):
    st.session_state["tuner_use_best"] = True
    st.rerun()
changed = {n: chosen_values[n] for n in THRESHOLD_NAMES if abs(chosen_values[n] - getattr(current, n)) > 1e-9}
PENDING = "tuner_pending_apply"
if b2.button("Apply to settings.yaml…", type="primary", disabled=not (changed and valid), icon=":material/save:", key="tuner_apply"):
    st.session_state[PENDING] = dict(changed)  # first a preview; nothing is written yet
pending = st.session_state.get(PENDING)
if pending and pending != changed:  # a slider moved since: the preview no longer tells the truth
    st.session_state.pop(PENDING, None)
    pending = None
if pending and valid:
    with st.container(border=True, key="tuner_preview"):
        st.markdown(
            f"**Write to `{domain}/settings.yaml`?** "
            + ", ".join(f"`{k}` {getattr(current, k):.2f} → **{v:.2f}**" for k, v in pending.items())
            + " (comments and layout of the file are kept)."
        )
        drop = None if ev.tier_accuracy is None or ev_now.tier_accuracy is None else (ev_now.tier_accuracy - ev.tier_accuracy) * 100
        top_drop = None if ev.answered_right is None or ev_now.answered_right is None else (ev_now.answered_right - ev.answered_right) * 100
        if (drop or 0) > 0.05 or (top_drop or 0) > 0.05:
            st.warning(
                f"On these {len(scored):,} questions this is worse than the file: tier accuracy "
                f"{pct(ev_now.tier_accuracy)} → {pct(ev.tier_accuracy)}, answered right {pct(ev_now.answered_right)} → {pct(ev.answered_right)}.",
                icon=":material/trending_down:",
            )
        else:
            st.caption(f"Tier accuracy {pct(ev_now.tier_accuracy)} → {pct(ev.tier_accuracy)}, answered right {pct(ev_now.answered_right)} → {pct(ev.answered_right)}.")
        c1, c2, _ = st.columns([1, 1, 2])
        confirm = c1.button("Save to settings.yaml", type="primary", key="tuner_confirm", icon=":material/save:")
        if c2.button("Cancel", key="tuner_cancel"):
            st.session_state.pop(PENDING, None)
            st.rerun()
    if confirm:
        st.session_state.pop(PENDING, None)
        try:
            result = set_thresholds(domain, {n: round(v, 2) for n, v in pending.items()}, root=get_registry().root, expected_fingerprint=state.fingerprint)
        except Exception as exc:  # the writer reports problems as results; anything else is a bug to show kindly
            friendly_failure("Saving failed; the file on disk is unchanged.", exc)
        else:
            if result.ok:
                st.session_state["tuner_flash"] = f"Saved to {domain}/settings.yaml: " + ", ".join(f"{k} = {v:.2f}" for k, v in pending.items()) + "."
                st.session_state.pop(SCORES_KEY, None)
                st.rerun()
            else:
                st.error(result.message)
                for p in result.problems:
                    st.markdown(f"- `{p.file}` line {p.line or '?'}: {p.message}")
b3.caption(
    "Best (each on its own, the others as in the file): "
    + ", ".join(f"{n} **{getattr(report.best, n):.2f}**" for n in THRESHOLD_NAMES)
    + (" · unsaved changes: " + ", ".join(f"{k} {getattr(current, k):.2f} → {v:.2f}" for k, v in changed.items()) if changed else "")
)

# ------------------------------------------------------------------ sweeps

st.subheader("What each threshold does")
st.caption("Thick lines: accuracy. Dotted lines: the share of questions in each tier (legend under the first chart). Grey dashed: the value in the file; green: the best; amber: the slider.")
g = st.columns(2)
for i, name in enumerate(THRESHOLD_NAMES):
    g[i % 2].plotly_chart(sweep_figure(report.sweeps[name], chosen_values[name], legend=i == 0), width="stretch", key=f"tuner_chart_{name}", config=CHART_CONFIG)

from ui.calibration import render_reliability  # noqa: E402 (issue 14: reliability diagram + ECE)

render_reliability(scored, router, key="tuner_reliability")
