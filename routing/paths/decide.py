"""Which path a routed query takes. The decision lives here and only here.

fast: the router is confident (activated) - a fixed pipeline runs, the cheapest model only formats.
llm:  anything else - a model reasons over a filtered set of tools.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from routing.core.schema import Match, Path, Status


@dataclass(frozen=True)
class PathPlan:
    path: Path
    reason: str
    category: str | None = None
    model: str | None = None
    pipeline: list[dict] = field(default_factory=list)
    enrichments: list[str] = field(default_factory=list)
    tools_sent: list[str] = field(default_factory=list)
    estimate: dict = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)


def decide_path(status: Status, matches: list[Match]) -> tuple[Path, str]:
    if status is Status.ACTIVATED:
        top = matches[0]
        return Path.FAST, f"{top.name} matched with confidence {top.confidence:.2f}"
    reasons = {
        Status.MULTIPLE_MATCHES: "several tools fit; a model must choose",
        Status.WEAK_MATCHES: "only weak matches; a model must interpret the question",
        Status.NOT_FOUND: "no tool matched; a model must answer or ask",
        Status.NEEDS_CLARIFICATION: "the question is too vague to route",
    }
    return Path.LLM, reasons[status]
