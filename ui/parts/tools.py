"""Card part of design `tools`: which path the question takes (fast pipeline or LLM) and why."""
from __future__ import annotations

from ui.common import router_state
from ui.path_view import render_path_indicator


def _has_modes(domain: str) -> bool:
    """A domain has modes when its tools declare a category (cfo: cfo / bookkeeper); a result of a
    domain without them shows no mode badge, whatever mode the path planner filled in."""
    router = router_state(domain).router
    return router is not None and any(getattr(t, "category", None) for t in router.domain.tools)


def render(result: dict, entry: dict, *, key: str, latest: bool) -> None:
    render_path_indicator(result, key=key, show_mode=_has_modes(str(result.get("domain", ""))))
