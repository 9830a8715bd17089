"""Typed results of the routing contract (shared/CONTRACT.md). Field names are fixed there."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from routing.core.errors import ErrorCode
from routing.core.fastinit import fast_frozen_dict_init


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


@fast_frozen_dict_init  # made several times a route
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


@fast_frozen_dict_init  # made several times a route
@dataclass(frozen=True)
class PathFields:
    """What the path planner of a `tools` domain adds to a result (routing.paths.plan), typed.
    JSON keys kept from the earlier untyped bag (the UI and tests read them). `mode`,
    `previous_mode` and `conversation_mode` stay None in a domain without conversation modes."""

    model_tier: str | None = None
    model_reason: str = ""
    pipeline_notes: tuple[str, ...] = ()
    classifier: dict | None = None
    mode: str | None = None
    previous_mode: str | None = None
    conversation_mode: str | None = None
    enrichments_source: str = ""
    data_mode: str | None = None
    enrichment_results: tuple[dict, ...] = ()
    pipeline_data: tuple[dict, ...] = ()
    # The data modes the domain offers ("replay" when it has recorded responses): what a card may suggest.
    data_modes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        out = {
            "model_tier": self.model_tier,
            "model_reason": self.model_reason,
            "pipeline_notes": list(self.pipeline_notes),
            "mode": self.mode,
            "previous_mode": self.previous_mode,
            "conversation_mode": self.conversation_mode,
            "enrichments_source": self.enrichments_source,
            "enrichment_results": [dict(e) for e in self.enrichment_results],
            "data_modes": list(self.data_modes),
        }
        if self.classifier is not None:
            out["classifier"] = self.classifier
        if self.data_mode is not None:
            out["data_mode"] = self.data_mode
            out["pipeline_data"] = [dict(d) for d in self.pipeline_data]
        return out


@fast_frozen_dict_init  # made several times a route
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
    # The router's best candidates before tiering ([{name, confidence, score_breakdown}]).
    candidates: list[dict] = field(default_factory=list)
    path_fields: PathFields | None = None
    path_config_error: dict | None = None
    # Other designs' own keys (intent_tiers, power_gateway); may never replace a contract field.
    extra: dict = field(default_factory=dict)
    design: str = "tools"
    # The design's own fields (a frozen dataclass with to_dict()), added to the JSON under their
    # documented names (shared/CONTRACT.md, "Designs"); they may never replace a contract field.
    design_fields: Any = None

    @property
    def model_tier(self) -> str | None:
        """cheap / capable for a result with path fields (read by the golden judge), else None."""
        return self.path_fields.model_tier if self.path_fields is not None else None

    @property
    def mode(self) -> str | None:
        """The conversation mode of this turn; None in a domain without modes."""
        return self.path_fields.mode if self.path_fields is not None else None

    @property
    def ranked_candidates(self) -> list[dict]:
        """The best candidates before tiering, whichever design routed (typed field or a design's own key)."""
        return self.candidates or list(self.extra.get("candidates", []))

    @property
    def top(self) -> Match | None:
        return self.matches[0] if self.matches else None

    @property
    def asks_which_entity(self) -> bool:
        """An ambiguous name ("which Diaz?"): the matches are that name's candidates, not tools."""
        return self.error is not None and self.error.code == ErrorCode.AMBIGUOUS_ENTITY.value

    @property
    def top_tool(self) -> str | None:
        """The tool (or the design's intent, tier, power, datasource) the question routed to; None
        when nothing did or when the result asks which entity was meant (a clarification, not a tool)."""
        return None if self.asks_which_entity or not self.matches else self.matches[0].name

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
        if self.candidates:
            out["candidates"] = [dict(c) for c in self.candidates]
        if self.path_fields is not None:
            out.update(self.path_fields.to_dict())
        if self.path_config_error is not None:
            out["path_config_error"] = self.path_config_error
        clash = sorted(set(self.extra) & set(out))
        if clash:
            raise ValueError(f"extra fields {clash} would replace contract fields")
        out.update(self.extra)
        out["design"] = self.design
        if self.design_fields is not None:
            own = self.design_fields.to_dict()
            clash = sorted(set(own) & set(out))
            if clash:
                raise ValueError(f"design {self.design!r} fields {clash} would replace contract fields")
            out.update(own)
        return out


def status_message(status: Status, matches: list[Match], question: str | None) -> str:
    names = [m.name for m in matches]
    if status is Status.ACTIVATED:
        return f"Matched {names[0]} with high confidence."
    if status is Status.MULTIPLE_MATCHES:
        listed = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
        return f"Several tools fit: {listed}. Which one did you mean?"
    if status is Status.WEAK_MATCHES:
        return "Only weak matches. Could you rephrase, or say more about what you need?"
    if status is Status.NEEDS_CLARIFICATION:
        return question or "Could you say more about what you are looking for?"
    return "No tool matches this question. These are the tools available."
