"""The sidebar every Explore page shares (domain, "pretend today is", session thresholds) and the
shareable link (?q=...&domain=...&today=...).

st.session_state.domain and st.session_state.today are the shared values (ui.common.page_setup);
the widgets have their own keys and copy into them, because Streamlit drops a widget's state when a
page without that widget runs, and the shared values must survive page switches.
"""
from __future__ import annotations

import time
from datetime import date
from urllib.parse import urlencode

import streamlit as st

from routing import Router, Thresholds
from ui.common import domain_names

# The date picker's span: wide enough for any demo, fixed so the picker does not clamp to ±10 years.
MIN_DAY, MAX_DAY = date(1900, 1, 1), date(2100, 12, 31)
THRESHOLD_FIELDS = (
    ("high", "Activated at or above"),
    ("medium", "Multiple matches at or above"),
    ("low", "Weak matches at or above"),
    ("margin", "Lead needed to activate"),
)
LINK_APPLIED = "_shared_link_applied"
LINK_NOTES = "_shared_link_notes"
URL_WRITTEN = "_url_written_"  # + page: the parameters the page last wrote to the address bar
URL_LAST = "_url_written_last"  # the parameters any page wrote last
URL_RECENT = "_url_written_recent"  # (time, parameters) written in the last ECHO_SECONDS
# A rerun a fast widget (a dragged slider) sends can carry an address the page wrote a moment ago,
# before the browser saw the newer one: such an echo is not Back / Forward, which a person takes seconds to press.
ECHO_SECONDS = 2.0


def _copy(src: str, dest: str) -> None:
    st.session_state[dest] = st.session_state[src]


def _mirror(widget_key: str, shared_key: str) -> None:
    """Point a widget at the shared value before it is drawn. Always: after a page switch the
    widget is a new one whose old value may still linger under the same key."""
    st.session_state[widget_key] = st.session_state[shared_key]


def url_changed(page: str) -> dict | None:
    """The address bar's parameters when they changed outside this page since it last wrote them
    (a shared link, the first load, Back / Forward); None when they are the page's own."""
    params = {k: st.query_params.get(k) for k in st.query_params}
    if params == st.session_state.get(f"{URL_WRITTEN}{page}"):
        return None
    if params and params == st.session_state.get(URL_LAST):
        return None  # what another page wrote, carried over by a page switch: not a link to this page
    now = time.monotonic()
    if any(params == old and now - at < ECHO_SECONDS for at, old in st.session_state.get(URL_RECENT) or []):
        return None  # a rerun sent before the browser saw the page's newest address (a slider dragged fast)
    return params


def apply_shared_link(page: str = "playground") -> dict | None:
    """When the address bar changed outside the page (a link, Back / Forward): take domain, today,
    the session thresholds and the design's options from it, and return its parameters (the page
    reads its own, such as q); else None. Bad values are reported in the sidebar, never raised."""
    params = url_changed(page)
    st.session_state[LINK_APPLIED] = True
    if not params:  # unchanged, or a bare page address (a page switch): the session's state stands
        return None
    notes: list[str] = []
    domain = (params.get("domain") or "").strip()
    if domain:
        if domain in domain_names():
            st.session_state.domain = domain
        else:
            notes.append(f"The link names the domain “{domain}”, which does not exist here; showing “{st.session_state.domain}”.")
    today = (params.get("today") or "").strip()
    if today:
        try:
            st.session_state.today = min(max(date.fromisoformat(today), MIN_DAY), MAX_DAY)
        except ValueError:
            notes.append(f"The link's date “{today}” is not a date like 2026-01-22; using {st.session_state.today.isoformat()}.")
    _apply_linked_thresholds(st.session_state.domain, notes)
    _apply_linked_options(st.session_state.domain, params)
    st.session_state[LINK_NOTES] = notes
    return params


def _apply_linked_options(domain: str, params: dict) -> None:
    """The design's request options named in the link (football's max_depth, a replay data_mode)."""
    from ui.common import router_state
    from ui.parts import design_part

    router = router_state(domain).router if domain else None
    link_widgets = getattr(design_part(getattr(router, "design", "tools")), "link_widgets", None) if router else None
    if link_widgets is not None:
        st.session_state.update(link_widgets(router, params))


def _apply_linked_thresholds(domain: str, notes: list[str]) -> None:
    """Session thresholds named in the link (?low=0.92&high=...) become the sliders' values."""
    for name, _ in THRESHOLD_FIELDS:
        raw = (st.query_params.get(name) or "").strip()
        if not raw:
            continue
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if 0.0 <= value <= 1.0:
            st.session_state[threshold_key(domain, name)] = round(value, 2)
        else:
            notes.append(f"The link's threshold {name}=“{raw}” is not a number from 0 to 1; using the domain's.")


def link_params(query: str | None, domain: str, today: str, thresholds: dict | None = None, options: dict | None = None) -> dict:
    """What a shareable link holds: the question, domain, today, any session thresholds and the
    design's request options."""
    params = {"q": query} if query else {}
    params.update({"domain": domain, "today": today})
    for name, _ in THRESHOLD_FIELDS:
        if thresholds and name in thresholds:
            params[name] = f"{thresholds[name]:.2f}"
    for name, value in (options or {}).items():
        if value not in (None, ""):
            params[name] = str(value)
    return params


def write_url(page: str, wanted: dict) -> None:
    """Make the address bar `wanted` (a new history entry, so Back returns to the previous state)."""
    wanted = {k: str(v) for k, v in wanted.items() if v not in (None, "")}
    st.session_state[f"{URL_WRITTEN}{page}"] = wanted
    st.session_state[URL_LAST] = wanted
    now = time.monotonic()
    recent = [(at, old) for at, old in st.session_state.get(URL_RECENT) or [] if now - at < ECHO_SECONDS]
    st.session_state[URL_RECENT] = (recent + [(now, wanted)])[-50:]
    if {k: st.query_params.get(k) for k in st.query_params} != wanted:
        st.query_params.from_dict(wanted)


def sync_url(query: str | None, thresholds: dict | None = None, *, domain: str | None = None, today: str | None = None,
             page: str = "playground", options: dict | None = None, extra: dict | None = None) -> None:
    """Keep the address bar a shareable link to what is on screen (only written when it changes)."""
    wanted = link_params(query, domain or st.session_state.domain, today or st.session_state.today.isoformat(), thresholds, options)
    write_url(page, {**wanted, **(extra or {})})


def share_link(query: str, domain: str, today: str, thresholds: dict | None = None, options: dict | None = None, extra: dict | None = None) -> str:
    return "?" + urlencode({**link_params(query, domain, today, thresholds, options), **(extra or {})})


def threshold_key(domain: str, name: str) -> str:
    return f"_th_{domain}_{name}"


def render_domain_and_today() -> None:
    """Domain picker and "pretend today is" in the sidebar; both write the shared session values."""
    names = domain_names()
    with st.sidebar:
        for note in st.session_state.get(LINK_NOTES) or []:
            st.warning(note, icon=":material/link_off:")
        if not names:
            st.error("No lexicon domains found. Add a folder under lexicons/ with tools.yaml and settings.yaml.")
            return
        if st.session_state.domain not in names:
            st.session_state.domain = names[0]
        _mirror("_w_domain", "domain")
        st.selectbox(
            "Domain", names, key="_w_domain", on_change=_copy, args=("_w_domain", "domain"),
            help="Which lexicon (tools, synonyms, patterns) routes the questions.",
        )
        _mirror("_w_today", "today")
        st.date_input(
            "Pretend today is", key="_w_today", min_value=MIN_DAY, max_value=MAX_DAY, format="YYYY-MM-DD",
            on_change=_copy, args=("_w_today", "today"),
            help="Relative dates such as “last week” or “bulan ini” are resolved against this day. Default: the real today.",
        )


def _reset_thresholds(keys: list[str], defaults: list[float]) -> None:
    # Set, not pop: a slider that persists its state would bring a popped value back.
    for k, v in zip(keys, defaults):
        st.session_state[k] = v


def render_threshold_sliders(router: Router) -> dict | None:
    """Session-only tier thresholds. Returns the override for Router.route, or None to use the
    domain's own thresholds (unchanged sliders, or an order that makes no sense)."""
    from routing.quality.tuning import untunable_reason

    if untunable_reason(router):  # the mirror routes by distance layers: these sliders would move nothing
        st.sidebar.caption(":material/tune: This design does not use the four tier thresholds; its limits are in its own settings.")
        return None
    defaults: Thresholds = router.thresholds
    keys = [threshold_key(router.name, name) for name, _ in THRESHOLD_FIELDS]
    values: dict[str, float] = {}
    with st.sidebar.expander("Thresholds (this session only)", icon=":material/tune:"):
        for (name, label), key in zip(THRESHOLD_FIELDS, keys):
            if key not in st.session_state:  # a value from a link or a reset is already there
                st.session_state[key] = float(getattr(defaults, name))
            values[name] = st.slider(
                f"{name} · {label}", 0.0, 1.0, step=0.01, key=key,
                persist_state="session",  # kept across page switches, like the rest of the session
            )
        changed = {k: v for k, v in values.items() if abs(v - getattr(defaults, k)) > 1e-9}
        st.button(
            "Reset to the domain's thresholds", on_click=_reset_thresholds,
            args=(keys, [float(getattr(defaults, name)) for name, _ in THRESHOLD_FIELDS]),
            disabled=not changed, icon=":material/restart_alt:",
        )
        st.caption("Changes routing for your session only; the lexicon on disk is not touched (the Threshold tuner page saves).")
        if not changed:
            return None
        if not values["low"] <= values["medium"] <= values["high"]:
            st.warning("Thresholds must keep low ≤ medium ≤ high; routing uses the domain's thresholds until they do.")
            return None
        return changed
