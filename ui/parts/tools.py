"""Card part of design `tools`: which path the question takes (fast pipeline or LLM) and why."""
from __future__ import annotations

from ui.path_view import render_path_indicator


def render(result: dict, entry: dict, *, key: str, latest: bool) -> None:
    render_path_indicator(result, key=key)
