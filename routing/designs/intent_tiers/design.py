"""Design `intent_tiers`: a query picks an intent tier, which fixes the tools and the data depth.

route(query, context={max_depth, data_mode, player_ids}) -> RouteResult with TierFields:
  1. read the query (analysis.py): triggers fired, players named, a pronoun, unknown names;
  2. score the tiers (scoring.py) and classify them with the contract's thresholds
     (routing.core.router.classify, the same rule as design `tools` and the tuner);
  3. enforce the hard constraints before anything runs: max depth removes L2 tools; a pronoun with
     nobody to refer to, a name found nowhere, two players for one name, a player with no games
     each abort with the contract's error code; 1-2 games only warn;
  4. build the tier's system prompt and plan; in data mode replay run the plan on the fixtures.
"""
from __future__ import annotations

import time
from dataclasses import replace
from datetime import date
from typing import Any, Mapping

from routing.core.clock import parse_today
from routing.core.errors import ErrorCode
from routing.core.index import RouterIndex
from routing.core.lexicon import SHARED_DIR
from routing.core.model import Domain, Thresholds
from routing.core.router import Router, classify, validate_query
from routing.core.schema import ErrorInfo, Path, RouteResult, Status
from routing.dates import load_date_lexicon
from routing.designs.base import DomainDesign

from . import prompts
from .analysis import TierAnalysis, analyze
from .config import load_tier_config
from .data import load_roster
from .entities import PlayerIndex
from .fields import TierFields
from .live import live_source
from .scoring import scored as score_candidates

DEPTHS = ("L1", "L2")
DATA_MODES = ("live", "replay")


class _Name:
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


class _Candidates:
    """The router's index as pages and the tuner read it: `tools[i].name` are the candidates
    (tiers, then players); everything else (date settings, vocabulary) is the text index's."""

    def __init__(self, names: list[str], text_index: RouterIndex):
        self.tools = tuple(_Name(n) for n in names)
        self._text = text_index

    def __getattr__(self, name: str):
        return getattr(self._text, name)


class IntentTiersRouter(DomainDesign):
    design = "intent_tiers"
    target_noun = "tier"
    request_options = frozenset({"max_depth", "data_mode"})

    def __init__(self, domain: Domain, **_options: Any):
        self.domain = domain
        self.config = load_tier_config(domain)
        self.roster = load_roster(domain.root)
        self.date_lexicon = load_date_lexicon(domain.root.parent / SHARED_DIR / "dates.yaml")
        self.text_index = RouterIndex(domain, self.date_lexicon)
        self.players = PlayerIndex(self.roster, cutoff=self.config.scoring.player_match, gap=self.config.scoring.ambiguous_gap)
        self.names = list(self.config.tiers) + [p.name for p in self.roster.players]
        self.index = _Candidates(self.names, self.text_index)
        self.available = [{"name": t.name, "description": t.description} for t in domain.tools]
        self.live = live_source(domain.settings.extra, _options.get("environ"))  # read only in data mode live

    # ------------------------------------------------------------ protocol

    def describe(self) -> dict:
        tiers = {n: {"label": t.label, "depth": t.depth, "role": t.role, "tools": list(t.tools), "triggers": [x.label for x in t.triggers]} for n, t in self.config.tiers.items()}
        return self.domain.describe(tiers=tiers, precedence=list(self.config.precedence), players=len(self.roster.players))

    def analyze(self, query: str, *, today: date | str | None = None, context: Mapping | None = None) -> TierAnalysis:
        return analyze(self.text_index, self.config, self.players, self.roster, query, today=parse_today(today), context=self._context(context))

    def score(self, a: TierAnalysis, *, top: int = 5):
        return score_candidates(self.config, a, self.names)[:top]

    def route(self, query: Any, *, today: date | str | None = None, thresholds: Thresholds | Mapping | None = None, context: Mapping | None = None) -> RouteResult:
        started = time.perf_counter()
        ref = parse_today(today)
        th = Router._thresholds(self, thresholds)  # the same validation as design tools
        ctx = self._context(context)
        problem = validate_query(query)
        if problem:
            return self._invalid(query, ref, th, problem, started, ctx)
        a = analyze(self.text_index, self.config, self.players, self.roster, query, today=ref, context=ctx)
        cands = score_candidates(self.config, a, self.names)
        status = classify(cands, a, th)
        result = self._result(query, ref, th, a, cands, status)
        return replace(result, timing_ms=round((time.perf_counter() - started) * 1000, 3))

    def next_context(self, result: RouteResult | dict, context: Mapping | None = None) -> dict:
        """The next turn starts from the players this turn was about (a pronoun then refers to them)."""
        data = result.to_dict() if isinstance(result, RouteResult) else (result or {})
        out = {k: v for k, v in dict(context or {}).items() if k in ("max_depth", "data_mode", "player_ids")}
        ids = [e["id"] for e in data.get("entities") or [] if e.get("id")]
        if ids:
            out["player_ids"] = ids
        return out

    def run_llm(self, result: RouteResult, *, client=None) -> RouteResult:
        """Send the tier's prompt, the query and only the allowed tools to the model."""
        from routing.paths.llm import LLMClient

        fields = result.design_fields
        if fields is None or (result.error is not None and result.error.code == ErrorCode.INVALID_QUERY.value):
            return result
        client = client or LLMClient()
        model = client.config.model_name("capable", str(self.domain.settings.extra.get("model") or prompts.DEFAULT_MODEL))
        request = prompts.build_request(self.domain, model=model, prompt=fields.system_prompt, query=str(result.query), tools=list(fields.allowed_tools))
        reply = client.complete(request)
        llm = {"model": reply.model, "tool_call": reply.tool_call, "text": reply.text, "attempts": reply.attempts,
               "latency_ms": reply.latency_ms, "endpoint": client.config.endpoint, "request": request.to_dict(),
               "usage": getattr(reply, "usage", None)}  # read from the reply (tokens, cached tokens); no prices for this domain
        events = list(result.events)
        if not reply.ok:
            events.append({"type": "llm_failed", "reason": reply.reason})
            error = ErrorInfo(ErrorCode.UPSTREAM_DOWN.value, reply.reason or "The LLM endpoint failed.", {"attempts": reply.attempts})
            return replace(result, llm=llm, error=result.error or error, events=events, extra={**result.extra, "llm_error": error.to_dict()})
        events.append({"type": "llm_called", "tool": (reply.tool_call or {}).get("name"), "model": reply.model})
        return replace(result, llm=llm, events=events)

    # ------------------------------------------------------------ helpers

    def _context(self, context: Mapping | None) -> dict:
        ctx = dict(context or {})
        depth = ctx.get("max_depth") or "L2"
        mode = ctx.get("data_mode") or str(self.domain.settings.extra.get("data_mode") or "replay")
        if not isinstance(depth, str) or depth not in DEPTHS:
            raise ValueError(f"max_depth must be L1 or L2, not {depth!r}")
        if not isinstance(mode, str) or mode not in DATA_MODES:
            raise ValueError(f"data_mode must be live or replay, not {mode!r}")
        ids = ctx.get("player_ids")
        if ids is not None and (not isinstance(ids, (list, tuple)) or not all(isinstance(i, str) for i in ids)):
            raise ValueError(f"context player_ids must be a list of player ids (text), not {str(ids)[:60]!r}")
        ctx["max_depth"], ctx["data_mode"] = depth, mode
        return ctx

    def _result(self, query: str, ref: date, th: Thresholds, a: TierAnalysis, cands, status: Status) -> RouteResult:
        from .outcome import build_outcome

        return build_outcome(self, query, ref, th, a, cands, status)

    def _invalid(self, query, ref, th, problem, started, ctx) -> RouteResult:
        fields = TierFields(None, None, (), (), (), "", (), (), max_depth=ctx["max_depth"], data_mode=ctx["data_mode"])
        return RouteResult(
            query=query, domain=self.name, today=ref.isoformat(), normalized="", corrections=[], status=Status.NOT_FOUND,
            message=problem, clarifying_question=None, path=Path.LLM, path_reason="the query could not be read", matches=[],
            dates=[], error=ErrorInfo(ErrorCode.INVALID_QUERY.value, problem),
            events=[{"type": "route_started"}, {"type": "route_rejected", "code": ErrorCode.INVALID_QUERY.value}],
            timing_ms=round((time.perf_counter() - started) * 1000, 3), available=self.available, thresholds=th.to_dict(),
            design=self.design, design_fields=fields,
        )


def build(domain: Domain, **options: Any) -> IntentTiersRouter:
    return IntentTiersRouter(domain, **options)
