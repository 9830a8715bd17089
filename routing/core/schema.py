"""Typed results of the routing contract (shared/CONTRACT.md). Field names are fixed there."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Status(str, Enum):
    ACTIVATED = "activated"
    MULTIPLE_MATCHES = "multiple_matches"
    WEAK_MATCHES = "weak_matches"
    NOT_FOUND = "not_found"
    NEEDS_CLARIFICATION = "needs_clarification"


class Path(str, Enum):
    FAST = "fast"
    LLM = "llm"


@dataclass(frozen=True)
class Correction:
    original: str
    corrected: str
    score: float

    def to_dict(self) -> dict:
        return {"from": self.original, "to": self.corrected, "score": round(self.score, 1)}


@dataclass(frozen=True)
class Match:
    name: str
    confidence: float
    match_type: str
    description: str
    kind: str
    key_params: list[str]
    suggested_params: dict[str, Any]
    score_breakdown: dict[str, float]
    param_notes: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    raw_score: float = 0.0

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "confidence": self.confidence,
            "match_type": self.match_type,
            "description": self.description,
            "kind": self.kind,
            "key_params": list(self.key_params),
            "suggested_params": dict(self.suggested_params),
            "param_notes": list(self.param_notes),
            "score_breakdown": dict(self.score_breakdown),
            "raw_score": self.raw_score,
            "evidence": list(self.evidence),
        }


@dataclass(frozen=True)
class ErrorInfo:
    code: str
    message: str
    details: dict | None = None

    def to_dict(self) -> dict:
        out = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


@dataclass(frozen=True)
class RouteResult:
    query: Any
    domain: str
    today: str
    normalized: str
    corrections: list[Correction]
    status: Status
    message: str
    clarifying_question: str | None
    path: Path
    matches: list[Match]
    dates: list[dict]
    error: ErrorInfo | None
    events: list[dict]
    timing_ms: float
    available: list[dict] = field(default_factory=list)
    thresholds: dict[str, float] = field(default_factory=dict)
    tokens: list[dict] = field(default_factory=list)
    path_reason: str = ""
    category: str | None = None
    model: str | None = None
    pipeline: list[dict] = field(default_factory=list)
    enrichments: list[str] = field(default_factory=list)
    tools_sent: list[str] = field(default_factory=list)
    llm: dict | None = None
    estimate: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)
    design: str = "tools"
    # The design's own fields (a frozen dataclass with to_dict()), added to the JSON under their
    # documented names (shared/CONTRACT.md, "Designs"); they may never replace a contract field.
    design_fields: Any = None

    @property
    def top(self) -> Match | None:
        return self.matches[0] if self.matches else None

    def to_dict(self) -> dict:
        out = {
            "query": self.query if isinstance(self.query, str) else repr(self.query),
            "domain": self.domain,
            "today": self.today,
            "normalized": self.normalized,
            "corrections": [c.to_dict() for c in self.corrections],
            "status": self.status.value,
            "message": self.message,
            "clarifying_question": self.clarifying_question,
            "path": self.path.value,
            "path_reason": self.path_reason,
            "matches": [m.to_dict() for m in self.matches],
            "dates": list(self.dates),
            "error": self.error.to_dict() if self.error else None,
            "events": list(self.events),
            "timing_ms": self.timing_ms,
            "available": list(self.available),
            "thresholds": dict(self.thresholds),
            "tokens": list(self.tokens),
            "category": self.category,
            "model": self.model,
            "pipeline": list(self.pipeline),
            "enrichments": list(self.enrichments),
            "tools_sent": list(self.tools_sent),
            "llm": self.llm,
            "estimate": dict(self.estimate),
        }
        out.update(self.extra)
        out["design"] = self.design
        if self.design_fields is not None:
            own = self.design_fields.to_dict()
            clash = sorted(set(own) & set(out))
            if clash:
                raise ValueError(f"design {self.design!r} fields {clash} would replace contract fields")
            out.update(own)
        return out
