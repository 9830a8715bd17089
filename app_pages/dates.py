"""Dates: type a date expression in either language and see the inclusive range(s) it means."""
from __future__ import annotations

import calendar
from datetime import date

import streamlit as st

from routing.dates import DateSettings, resolve_expression
from ui.cards import CHART_CONFIG, failure_details, md_escape, render_failure
from ui.charts import date_timeline_figure
from ui.common import page_setup, require_router
from ui.context import apply_shared_link, render_domain_and_today, sync_url
from ui.examples import date_examples

page_setup("dates")
linked = (apply_shared_link("dates") or {}).get("q")  # /dates?today=...&domain=...&q=<expression> opens on exactly that
if linked:
    st.session_state["date_expression"] = linked
render_domain_and_today()

st.title("Dates")
st.caption(
    "How a question's date words become an inclusive date range. Calendar words (“last week”) take whole "
    "calendar units; a stated duration (“last 7 days”) is a rolling window that ends today. The same holds in "
    "every language of the chosen domain (examples below)."
)

router = require_router(st.session_state.domain)
settings = DateSettings.of(router.domain.settings)  # every design has a domain; not every one an index
today = st.session_state.today
st.markdown(
    f"Domain **{router.name}**: weeks start on **{calendar.day_name[settings.week_start]}**, the fiscal year "
    f"starts in **{calendar.month_name[settings.fiscal_year_start_month]}**. Today is **{today.isoformat()}** "
    f"({calendar.day_name[today.weekday()]}); change it in the sidebar."
)


def resolve(text: str) -> list[dict]:
    return [r.to_dict() for r in resolve_expression(text, today=today, settings=settings, lexicon=router.date_lexicon)]


def _timeline(ranges: list[dict], key: str) -> None:
    """A timeline, or a note if it cannot be drawn: the rest of the page always draws."""
    try:
        st.plotly_chart(date_timeline_figure(ranges, today), key=key, config=CHART_CONFIG)
    except Exception as exc:
        render_failure("The timeline of these ranges could not be drawn; the ranges above are exact.", failure_details(exc))


examples = date_examples(router.domain.settings.languages)
if "date_expression" not in st.session_state:
    st.session_state["date_expression"] = examples[3] if len(examples) > 3 else ""
expression = st.text_input(
    "Date expression", key="date_expression", max_chars=300,
    placeholder="e.g. " + ", ".join(examples[3:7]),
    help="Any words; every date expression found in them is shown. Press Enter to resolve.",
)
sync_url(expression.strip() or None, page="dates")  # the address bar is a link to this expression, domain and today
if expression.strip():
    try:
        ranges = resolve(expression)
    except Exception as exc:  # a friendly message; the details stay in the expander
        ranges = None
        render_failure("This expression could not be resolved.", failure_details(exc))
    if ranges == []:
        st.warning("No date expression found in these words. Try one of the worked examples below.", icon=":material/event_busy:")
    elif ranges:
        for r in ranges:
            with st.container(border=True):
                if r.get("start") and r.get("end"):
                    st.markdown(
                        f"“{md_escape(r['text'])}” → **{r['start']} .. {r['end']}** &nbsp; "
                        f"`{r['kind']}` · rule `{r['rule']}`"
                    )
                    if r.get("note"):
                        st.caption(f":material/info: {md_escape(r['note'])}")
                else:
                    st.markdown(f"“{md_escape(r['text'])}” → **not resolved** · rule `{r['rule']}`")
                    st.warning(r.get("reason") or "The words were recognised but name no valid range.", icon=":material/event_busy:")
        if any(r.get("start") for r in ranges):
            _timeline(ranges, "expression-timeline")

st.subheader("Worked examples: calendar versus rolling")
st.caption(
    f"Resolved live for today = {today.isoformat()}. Compare the pairs: “last week” is the whole previous "
    "Monday-to-Sunday week, “last 7 days” is today and the six days before it."
)
rows = []
for text in examples:
    try:
        found = resolve(text)
    except Exception:  # one bad example must not hide the others
        found = []
    r = found[0] if found else {}
    start, end = r.get("start"), r.get("end")
    days = None
    if start and end:
        days = (date.fromisoformat(end) - date.fromisoformat(start)).days + 1
    rows.append({
        "expression": text,
        "kind": r.get("kind", "—"),
        "start": start or "—",
        "end": end or "—",
        "days": days,
        "rule": r.get("rule", "—"),
        "note": r.get("note") or r.get("reason") or "",
    })
st.dataframe(
    rows, hide_index=True, key="worked-examples", height=38 + 35 * len(rows),  # every example, no inner scroll
    column_config={
        "expression": st.column_config.TextColumn("Expression", width="medium"),
        "kind": st.column_config.TextColumn("Kind", help="calendar: whole calendar units; rolling: N units ending today"),
        "start": st.column_config.TextColumn("Start", help="First day, inclusive"),
        "end": st.column_config.TextColumn("End", help="Last day, inclusive"),
        "days": st.column_config.NumberColumn("Days", help="Length of the inclusive range"),
        "rule": st.column_config.TextColumn("Rule", help="The date rule that recognised the words"),
        "note": st.column_config.TextColumn("Note"),
    },
)
with st.expander("All worked examples on one timeline", icon=":material/timeline:"):
    timeline = [dict(text=row["expression"], start=row["start"], end=row["end"], kind=row["kind"], rule=row["rule"])
                for row in rows if row["days"]]
    if timeline:
        _timeline(timeline, "examples-timeline")
