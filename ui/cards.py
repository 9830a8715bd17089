"""The result card: one routed question, drawn from its RouteResult.to_dict() (shared/CONTRACT.md),
plus the friendly failure card. Every decision was made by routing; this only lays it out."""
from __future__ import annotations

import html
import re
import traceback

import streamlit as st

from ui.charts import date_timeline_figure, score_breakdown_figure, signal_order
from ui.common import TIER_COLORS, TIER_LABELS, confidence_text, router_state
from ui.context import share_link
from ui.parts import design_part
from ui.path_view import render_events
from ui.redraw import register
from ui.signal_words import LEGEND_WORDS, NO_POINTS, Knowledge, knowledge_of, legend_words, match_words, why_help

# Characters Markdown would act on, so a user's query is shown exactly as typed.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>$])")
# Plotly's mode bar only gets in the way on these small charts.
CHART_CONFIG = {"displayModeBar": False}
# A card's title shows this much of a long question; the whole text stays in the raw JSON.
TITLE_CHARS = 160
NOISE = 0.01  # a best candidate under this would draw bars labelled 0.00
MAX_DATE_ROWS = 6  # date ranges listed and drawn on a card; more go in an expander


def md_escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def status_badge(status: str, label: str | None = None) -> str:
    color = TIER_COLORS.get(status, "#6b7280")
    label = label or TIER_LABELS.get(status, status)
    return (
        f"<span style='background:{color};color:#fff;border-radius:0.6rem;padding:0.12rem 0.6rem;"
        f"font-size:0.85rem;font-weight:600;white-space:nowrap'>{label}</span>"
    )


def failure_details(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def render_failure(message: str, details: str | None) -> None:
    """A friendly message; the technical details only in an expander."""
    st.error(message, icon=":material/error:")
    if details:
        with st.expander("Technical details"):
            st.code(details, language="text")


# Codes that ask the person for something (which player?) rather than report a failure: calm colour.
CLARIFY_CODES = {"INSUFFICIENT_CONTEXT", "AMBIGUOUS_ENTITY"}
# Codes that are a fact about the data rather than a fault: a warning, not red.
NOTICE_CODES = {"PLAYER_NOT_FOUND", "INSUFFICIENT_DATA", "INSUFFICIENT_GAMES"}


def render_error(error: dict) -> None:
    """The plain sentence first, in the colour of what it asks of the person; the code, for whoever
    reports it, on a muted line under it."""
    code, message = str(error.get("code") or ""), md_escape(error.get("message") or "")
    if code in CLARIFY_CODES:
        st.info(message, icon=":material/help:")
    elif code in NOTICE_CODES:
        st.warning(message, icon=":material/person_search:" if code == "PLAYER_NOT_FOUND" else ":material/info:")
    else:
        st.error(message, icon=":material/report:")
    if code:
        st.caption(f"Code `{code}`")


def render_result_card(entry: dict, *, key: str, latest: bool = False, charts: bool = True) -> None:
    """One conversation entry: {"query", "result" (dict) or "failure" (text), "session_thresholds"}."""
    with st.container(border=True, key=f"card-{key}"):
        result = entry.get("result")
        if result is None:
            st.markdown(f"**{md_escape(entry.get('query', ''))}**")
            render_failure("This question could not be routed. Nothing else is affected; try another question.", entry.get("failure"))
            return
        try:
            _card_body(result, entry, key=key, latest=latest, charts=charts)
        except Exception as exc:  # a drawing bug must not take the conversation down
            render_failure("This result could not be drawn completely.", failure_details(exc))


def _title(query: str) -> str:
    if len(query) <= TITLE_CHARS:
        return md_escape(query)
    return md_escape(query[:TITLE_CHARS].rstrip()) + f"… <span style='font-size:0.85rem;font-weight:400;opacity:0.7'>({len(query):,} characters)</span>"


def confidence_bar(conf: float, status: str, thresholds: dict | None = None) -> str:
    """A confidence bar in the colour of the card's tier (st.progress would always be the theme colour)."""
    pct = min(max(conf, 0.0), 1.0) * 100
    color = TIER_COLORS.get(status, "#6b7280")
    return (
        f"<div style='font-size:0.9rem;margin-bottom:0.2rem'>confidence <b>{confidence_text(conf, thresholds)}</b></div>"
        f"<div style='height:0.5rem;margin-bottom:0.75rem;border-radius:0.25rem;background:rgba(128,128,128,0.2)' role='progressbar' "
        f"aria-valuenow='{conf:.2f}' aria-valuemin='0' aria-valuemax='1'>"
        f"<div style='height:100%;width:{pct:.1f}%;border-radius:0.25rem;background:{color}'></div></div>"
    )


# Plain words for how sure the router is, from the result's own thresholds; the number is on hover.
def confidence_words(conf: float, thresholds: dict) -> str:
    if conf >= float(thresholds.get("high", 0.8)):
        return "Sure"
    if conf >= float(thresholds.get("medium", 0.6)):
        return "Fairly sure"
    if conf >= float(thresholds.get("low", 0.4)):
        return "Unsure"
    return "Not a match"


def item_noun(result: dict) -> str:
    """What a domain's candidates are called: powers where the domain is a gateway, else tools."""
    return "power" if result.get("design") == "power_gateway" else "tool"


def headline(result: dict) -> tuple[str, str]:
    """The badge a person reads first. Small talk and a question that only names a date are not
    failures: they get their own grey/neutral badge instead of the red "Not found"."""
    status = result.get("status", "")
    if status == "not_found" and not result.get("error"):
        if (result.get("mode") or result.get("category")) == "general_chat":
            return "chat", "Small talk"
        if any(d.get("start") for d in result.get("dates") or []):
            return "dates_only", "Dates only"
    return status, TIER_LABELS.get(status, status)


def _meta(result: dict, entry: dict) -> str:
    """The card's line under its question: domain, today, time, thresholds, and a link to this card."""
    meta = [
        f"domain **{result.get('domain')}**",
        f"today {result.get('today')}",
        f"{result.get('timing_ms', 0):.1f} ms",
    ]
    if entry.get("again"):
        meta.insert(0, "asked again after a sidebar change")
    if entry.get("session_thresholds"):
        meta.append("session thresholds " + ", ".join(f"{k} {v:.2f}" for k, v in entry["session_thresholds"].items()))
    powers = ",".join(entry.get("activations") or {})
    link = share_link(str(result.get('query', '')), result.get('domain', ''), result.get('today', ''), entry.get('session_thresholds'),
                      entry.get("options"), {"power": powers} if powers else None)
    meta.append(f"[share link]({link})")
    return " · ".join(meta)


def _card_body(result: dict, entry: dict, *, key: str, latest: bool, charts: bool = True) -> None:
    status = result.get("status", "")
    badge_key, badge_label = headline(result)
    st.markdown(
        f"{status_badge(badge_key, badge_label)} &nbsp; <span style='font-size:1.1rem;font-weight:600'>{_title(str(result.get('query', '')))}</span>",
        unsafe_allow_html=True,
    )
    slot = st.empty()  # Activate redraws it (its share link names the powers) without a full rerun
    register(f"meta-{key}", lambda: slot.caption(_meta(result, entry)))

    error = result.get("error")
    unreadable = bool(error) and error.get("code") == "INVALID_QUERY"
    if unreadable:  # nothing was routed: say what to do, keep the code for whoever reports it
        st.error(
            f"This question cannot be routed: {md_escape(error.get('message', ''))} "
            "Try a business question in words, e.g. “unpaid invoices this month”.",
            icon=":material/report:",
        )
        st.caption(f"Error code `{error.get('code')}`")
        with st.expander("Events and raw JSON", icon=":material/data_object:"):
            render_events(result)
            st.json(result, expanded=False)
        return
    if error and error.get("code") == "AMBIGUOUS_ENTITY" and result.get("clarifying_question"):
        st.caption(f"Code `{error.get('code')}`")  # the question below says it in plain words: once is enough
    elif error:
        render_error(error)
    elif badge_key == "chat":
        st.markdown("Small talk: no tool is needed; a model would simply reply.")
    elif badge_key == "dates_only":
        st.markdown("The question names a date but nothing a tool of this domain answers; the range it means is below.")
    elif status != "needs_clarification":
        st.markdown(md_escape(result.get("message", "")))
    for c in result.get("corrections") or []:
        st.markdown(f":material/spellcheck: Read **{md_escape(c['from'])}** as **{md_escape(c['to'])}**",
                    help=f"Spelling correction, similarity {c.get('score', 0):.0f} of 100")
    if result.get("clarifying_question"):
        st.info(result["clarifying_question"], icon=":material/help:")

    # 1. The answer and 2. why: side by side, right under the question.
    candidates = result.get("candidates") or []
    if not any(float(c.get("confidence") or 0.0) >= NOISE for c in candidates):
        candidates = []  # bars that read 0.00 say nothing: "no points" is said in words instead
    matches = result.get("matches") or []
    thresholds = result.get("thresholds") or {}
    noun = item_noun(result)
    knowledge = domain_knowledge(result.get("domain"))
    if matches or candidates:
        left, right = st.columns([1, 1], gap="medium")
        with left:
            if matches:
                for m in matches:
                    _render_match(m, status, thresholds, query=str(result.get("query", "")), noun=noun, knowledge=knowledge)
            elif not error and not result.get("available"):
                st.caption(f"No {noun} is suggested for this question.")
        with right:
            if candidates and not charts:
                st.caption("**Why**: the chart is drawn on the newest cards only, to keep the page quick; "
                           "ask the question again to see it.")
            elif candidates:
                st.markdown("**Why** · bar = confidence, parts = points per signal",
                            help=why_help(noun, knowledge, signal_order(candidates)))
                words = {s: legend_words(s, knowledge) for s in {*LEGEND_WORDS, "example"}}
                fig = _figure(entry, "scores", lambda: score_breakdown_figure(
                    candidates, thresholds, chosen=[m["name"] for m in matches], labels=words))
                st.plotly_chart(fig, key=f"scores-{key}", config=CHART_CONFIG)
    elif not error and badge_key not in ("chat", "dates_only"):
        st.caption(f"No {noun} scored any points worth drawing for this question.")

    from ui.conversation import render_choices  # carry on from a candidate (a tool, a player)

    render_choices(result, entry, key=key)
    dates = result.get("dates") or []
    if dates:
        _render_dates(dates, result.get("today"), key=key, entry=entry, chart=charts)

    # 3. The machinery: how it would run (path, pipeline, cost), the tool list, events and raw JSON.
    part = design_part(result.get("design", "tools"))
    part.render(result, entry, key=key, latest=latest)
    if not matches and result.get("available"):
        # Small talk and bare dates are not failures: the tool list stays folded for them.
        _render_available(result["available"], expanded=latest and badge_key == status, noun=noun)

    from ui.feedback import render_feedback  # here: ui.feedback needs the registry, not the card's imports

    render_feedback(result, entry, key=key, noun=noun)
    with st.expander("Events and raw JSON", icon=":material/data_object:"):
        render_events(result)
        st.json(result, expanded=False)


def as_typed(value, query: str) -> str:
    """A parameter value in the case the person typed it ("Budi", not "budi"), when the query holds it."""
    text = str(value)
    if not query or not text.strip():
        return text
    found = re.search(re.escape(text), query, flags=re.IGNORECASE)
    return found.group(0) if found else text


def domain_knowledge(domain: str | None) -> Knowledge:
    """What the domain's tools are known by (examples, descriptions), for the words of the signals."""
    try:
        router = router_state(str(domain)).router if domain else None
    except Exception:  # noqa: BLE001 - words are a nicety: a card still draws without them
        router = None
    return knowledge_of(router.domain) if router is not None and hasattr(router, "domain") else Knowledge()


def _render_match(m: dict, status: str = "", thresholds: dict | None = None, *, query: str = "", noun: str = "tool",
                  knowledge: Knowledge = Knowledge()) -> None:
    conf = float(m.get("confidence", 0.0))
    words = confidence_words(conf, thresholds or {})
    if words == "Not a match":  # the router showed it, so it is a candidate: a long shot, not "not a match"
        words = "A long shot"
    how = match_words(m.get("match_type", ""), knowledge, m.get("name"), m.get("score_breakdown"))
    how = how if how == NO_POINTS else f"mostly from {how}"
    kind = f"{noun} kind `{m['kind']}`. " if m.get("kind") and noun == "tool" else ""
    st.markdown(
        f"**`{m['name']}`** · {words} · {how}",
        help=f"Confidence {confidence_text(conf, thresholds)} (0 to 1); the router names signal `{m.get('match_type', '')}` as its match type; "
             f"{kind}The chart on the right shows every signal.",
    )
    st.markdown(confidence_bar(conf, status, thresholds), unsafe_allow_html=True)
    if m.get("description"):
        st.markdown(md_escape(m["description"]))
    suggested = {k: (v if isinstance(v, (list, tuple)) else as_typed(v, query)) for k, v in (m.get("suggested_params") or {}).items()}
    chips = []
    for p in m.get("key_params") or []:
        chips.append(_param_chips(p, suggested[p]) if p in suggested else _chip(p))
    lists = {p: v for p, v in (m.get("suggested_params") or {}).items() if isinstance(v, (list, tuple)) and p not in (m.get("key_params") or [])}
    chips += [_chip(f"{p}={v}") for p, v in suggested.items() if p not in (m.get("key_params") or []) and p not in lists]
    if chips:
        st.markdown("Parameters: " + " ".join(chips), unsafe_allow_html=True)
    for p, values in lists.items():  # a list (the mirror's tables) as one chip per item, never a Python list
        st.markdown(f"{html.escape(p.replace('_', ' ').capitalize())}: " + " ".join(_chip(v) for v in values), unsafe_allow_html=True)
    for note in m.get("param_notes") or []:
        st.caption(f":material/info: {md_escape(note)}")


def _param_chips(name: str, value) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(_chip(f"{name}={v}") for v in value)
    return _chip(f"{name}={value}")


def _chip(text: str) -> str:
    """A parameter chip that never wraps mid-value; markup in the value is shown, not run."""
    return f"<code style='white-space:nowrap'>{html.escape(str(text))}</code>"


def _render_available(available: list[dict], *, expanded: bool, noun: str = "tool") -> None:
    with st.expander(f"The {len(available)} {noun}s this domain has", expanded=expanded, icon=":material/list:"):
        half = (len(available) + 1) // 2
        for column, part in zip(st.columns(2), (available[:half], available[half:])):
            column.markdown("\n".join(f"- `{t['name']}`: {md_escape(t.get('description', ''))}" for t in part))


def _figure(entry: dict, name: str, build):
    """Build a card's figure once and keep it with the entry: Plotly's validation costs ~10 ms a
    figure, and every rerun redraws every card on screen (scripts/bench_rerun.py)."""
    figures = entry.setdefault("_figures", {})
    if name not in figures:
        figures[name] = build()
    return figures[name]


def _render_dates(dates: list[dict], today: str | None, *, key: str, entry: dict, chart: bool = True) -> None:
    st.markdown("**Dates** · inclusive ranges")
    # The same words twice mean the same range: list and draw each distinct range once, at most a few.
    distinct = list({(d.get("text"), d.get("start"), d.get("end"), d.get("reason")): d for d in dates}.values())
    if len(distinct) < len(dates):
        st.caption(f"{len(dates)} date expressions found, {len(distinct)} distinct.")
    _date_lines(distinct[:MAX_DATE_ROWS])
    if len(distinct) > MAX_DATE_ROWS:
        with st.expander(f"{len(distinct) - MAX_DATE_ROWS} more date ranges"):
            _date_lines(distinct[MAX_DATE_ROWS:])
    dates = distinct[:MAX_DATE_ROWS]
    if chart and today and any(d.get("start") and d.get("end") for d in dates):
        fig = _figure(entry, "dates", lambda: date_timeline_figure(dates, today))
        st.plotly_chart(fig, key=f"dates-{key}", config=CHART_CONFIG)


def _date_lines(dates: list[dict]) -> None:
    lines = []
    for d in dates:
        if d.get("start") and d.get("end"):
            line = (f"“{md_escape(d['text'])}” → <b style='white-space:nowrap'>{d['start']} .. {d['end']}</b> · {d.get('kind')}"
                    f" · <span title='the date rule that recognised the words'>rule `{d.get('rule')}`</span>")
            if d.get("note"):
                line += f" · {md_escape(d['note'])}"
        else:
            line = f"“{md_escape(d['text'])}” → not resolved: {md_escape(d.get('reason') or 'unknown reason')}"
        lines.append("- " + line)
    st.markdown("\n".join(lines), unsafe_allow_html=True)
