"""Which path a routed query takes (the tools design's Router and the power gateway both ask here).

fast: the router is confident (activated) - a fixed pipeline runs, the cheapest model only formats.
llm:  anything else - a model reasons over a filtered set of tools.
"""
from __future__ import annotations

from routing.core.schema import Match, Path, Status


_REASONS = {  # made once: an enum's hash is a Python call
    Status.MULTIPLE_MATCHES: "several tools fit; a model must choose",
    Status.WEAK_MATCHES: "only weak matches; a model must interpret the question",
    Status.NOT_FOUND: "no tool matched; a model must answer or ask",
    Status.NEEDS_CLARIFICATION: "the question is too vague to route",
}


def decide_path(status: Status, matches: list[Match]) -> tuple[Path, str]:
    if status is Status.ACTIVATED:
        top = matches[0]
        return Path.FAST, f"{top.name} matched with confidence {top.confidence:.2f}"
    return Path.LLM, _REASONS[status]
