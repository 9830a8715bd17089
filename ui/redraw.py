"""Parts of a page that a fragment redraws when it changed what they show, so no full rerun follows.

Activate (a fragment in a power's card) changes the context panel ("Active powers"), the card's
share link and the address bar. A full rerun after the fragment's own run used to redraw them, and
it raced the fragment: Streamlit drops a fragment's messages still queued when a full run starts
(AppSession._clear_queue on SCRIPT_STARTED), so now and then the whole page greyed and redrew before
the card showed the activation. Instead the page registers, during its full run, how to redraw
each such part into a slot (st.empty) it made; the fragment calls them after drawing itself.
Only the card (and those slots) grey, and the card always shows the activation first."""
from __future__ import annotations

from typing import Callable

import streamlit as st

REDRAWS = "_redraws"


def start() -> None:
    """A page's full run begins: forget the last run's slots (they are drawn again, new)."""
    st.session_state[REDRAWS] = {}


def register(name: str, draw: Callable[[], None]) -> None:
    """`draw` fills a slot the full run made; it runs now and again whenever a fragment asks."""
    st.session_state.setdefault(REDRAWS, {})[name] = draw
    draw()


def redraw(*names: str) -> None:
    """From a fragment: redraw these registered parts with what the session holds now (a name this
    run did not register, e.g. a part the page does not show, is skipped)."""
    drawn = st.session_state.get(REDRAWS) or {}
    for name in names:
        if name in drawn:
            drawn[name]()
