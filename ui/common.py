"""One page_setup() for every page, the shared read-only router registry, and the tier colours."""
from __future__ import annotations

import os
from datetime import date

import streamlit as st

from routing import RouterRegistry, RouterState
from routing.core.lexicon import DEFAULT_LEXICON_ROOT

# One colour per tier, readable on light and dark themes (mid-saturation, white text on top).
TIER_COLORS = {
    "activated": "#1e9e5a",
    "multiple_matches": "#2f6fdf",
    "weak_matches": "#d08a12",
    "not_found": "#c23b3b",
    "needs_clarification": "#8a4fd8",
    # Not tiers, but what a person reads instead of "Not found" for small talk and a bare date.
    "chat": "#6b7280",
    "dates_only": "#3f7f95",
}
TIER_LABELS = {
    "activated": "Activated",
    "multiple_matches": "Multiple matches",
    "weak_matches": "Weak matches",
    "not_found": "Not found",
    "needs_clarification": "Needs clarification",
}
# Language codes of settings.yaml `languages:` as a person reads them.
LANGUAGE_NAMES = {"en": "English", "id": "Indonesian", "hi": "romanised Hindi", "ms": "Malay"}


def language_phrase(codes) -> str:
    names = [LANGUAGE_NAMES.get(c, c) for c in codes or ()]
    if len(names) <= 1:
        return names[0] if names else "English"
    return ", ".join(names[:-1]) + " or " + names[-1]


PATH_COLORS = {"fast": "#1e9e5a", "llm": "#7b4fd8"}


def confidence_text(conf: float, thresholds: dict | None = None, *, digits: int = 2) -> str:
    """A confidence with two decimals (or `digits`), or more where they would round it onto or over
    a threshold it missed (0.9476 against 0.95 reads 0.948, never 0.95)."""
    conf = float(conf)
    limits = [float(v) for k, v in (thresholds or {}).items() if k in ("high", "medium", "low") and v is not None]
    for digits in range(digits, max(digits, 4) + 1):
        shown = round(conf, digits)
        if not any(shown >= t > conf for t in limits):
            return f"{conf:.{digits}f}"
    return f"{conf:.5f}"


@st.cache_resource(show_spinner=False)
def get_registry() -> RouterRegistry:
    """One registry per server process: routers are rebuilt only when lexicon files change."""
    # Read the override here, not at import: tests point a fresh server or AppTest at a scratch copy.
    return RouterRegistry(os.environ.get("ROUTING_LEXICONS") or DEFAULT_LEXICON_ROOT)


def router_state(domain: str) -> RouterState:
    return get_registry().state(domain)


def domain_names() -> list[str]:
    return get_registry().domains()


# A presenter's laptop screen is short: less empty space above the title, a smaller title, compact
# example buttons, so the newest answer and its Why chart fit above the fold at 1366x768.
_COMPACT_CSS = """<style>
[data-testid="stMainBlockContainer"] { padding-top: 2.2rem; }
[data-testid="stMainBlockContainer"] h1 { font-size: 2rem; padding-bottom: 0.25rem; }
.st-key-examples button { min-height: 1.9rem; padding: 0.1rem 0.65rem; }
.st-key-examples { row-gap: 0.4rem; }
</style>"""


def page_setup(title: str, icon: str = ":material/route:") -> None:
    """Shared state every page may read: the domain and the reference date ("pretend today is")."""
    st.html(_COMPACT_CSS)
    if "domain" not in st.session_state:
        names = domain_names()
        st.session_state.domain = "accounting" if "accounting" in names else (names[0] if names else "")
    if "today" not in st.session_state:
        st.session_state.today = date.today()


def show_lexicon_problem(state: RouterState) -> None:
    """A friendly banner when lexicon files on disk do not validate; details in an expander."""
    if state.error is None:
        return
    if state.router is not None:
        st.warning("The lexicon files on disk have a problem, so routing keeps using the last good version.", icon=":material/warning:")
    else:
        st.error("This domain's lexicon files have a problem and no earlier version is loaded.", icon=":material/error:")
    with st.expander("What is wrong (file, line, problem)"):
        for p in state.error.problems:
            st.markdown(f"- `{p.file}` line {p.line or '?'}: {p.message}")


def require_router(domain: str):
    """The domain's router in service, with the lexicon banner if its files are broken; stops the
    page (after the banner) when no version of the domain ever loaded."""
    state = router_state(domain)
    show_lexicon_problem(state)
    if state.router is None:
        st.stop()
    return state.router
