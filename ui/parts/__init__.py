"""The parts of a result card that belong to one routing design, one module per design.

A card is: the common header (tier badge, question, timing, share link, message, corrections,
clarifying question), then the design's part, then the common sections a result may have
(candidates with the breakdown chart, the tool list, dates, events and raw JSON). A design's module
defines:

    render(result: dict, entry: dict, *, key: str, latest: bool) -> None   # its own fields
    request_options(router) -> dict   (optional) sidebar widgets -> options put in the route context
    link_widgets(router, params) -> dict   (optional) those widgets' session values from a link's parameters
    render_lexicon(router, domain) -> None  (optional) the Lexicon editor's view of a design routed by other
                                            files than synonyms / patterns (it replaces those tables)

A new design adds one module here and one line in DESIGN_PARTS; no page changes.
"""
from __future__ import annotations

import importlib
from types import ModuleType

DESIGN_PARTS: dict[str, str] = {
    "tools": "ui.parts.tools",
    "power_gateway": "ui.parts.power_gateway",
    "intent_tiers": "ui.parts.intent_tiers",
    "datasource_mirror": "ui.parts.datasource_mirror",
}


class _NoPart:
    """A design without a UI module of its own: the common sections show everything there is."""

    @staticmethod
    def render(result: dict, entry: dict, *, key: str, latest: bool) -> None:
        return None


def design_part(design: str) -> ModuleType | type[_NoPart]:
    target = DESIGN_PARTS.get(design)
    return importlib.import_module(target) if target else _NoPart


def request_options(router) -> dict:
    """The design's request options from its sidebar widgets (max depth, data mode, ...)."""
    fn = getattr(design_part(getattr(router, "design", "tools")), "request_options", None)
    return dict(fn(router) or {}) if fn else {}
