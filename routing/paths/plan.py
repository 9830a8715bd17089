"""The path plan of one routed question: the fast path's fixed pipeline with the question's
parameters, or the LLM path's category, tools sent and model; events; the conversation's mode."""
from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from typing import Any, Callable, Mapping

from routing.core.errors import LexiconError
from routing.core.model import Tool
from routing.core.schema import Path, RouteResult, Status
from routing.dates import resolve_expression
from routing.paths.classify import choose_model, classify_category
from routing.paths.config import GENERAL_CHAT, PathConfig, _outputs, path_config
from routing.paths.cost import estimate_cost
from routing.paths.decide import decide_path

# ---------------------------------------------------------------- planning


def _context_mode(context: Mapping | None) -> str | None:
    if not isinstance(context, Mapping):
        return None
    mode = context.get("mode") or context.get("previous_mode")
    return str(mode) if mode else None


def fill_pipeline(tool: Tool, params: dict[str, Any], router, today: date) -> tuple[list[dict], list[str]]:
    """The intent's fixed steps with the query's parameters; a date left open takes the intent's
    default_period (resolved with the domain's fiscal year). Returns steps and notes."""
    values = dict(params)
    notes: list[str] = []
    period = tool.extra.get("default_period")
    wants_dates = [p for p in tool.params if p.role in ("date_from", "date_to") and p.name not in values]
    if period and wants_dates:
        ranges = [r for r in resolve_expression(str(period), today=today, settings=router.index.date_settings, lexicon=router.date_lexicon) if r.resolved]
        if ranges:
            r = ranges[0]
            for p in wants_dates:
                values[p.name] = (r.start if p.role == "date_from" else r.end).isoformat()
            notes.append(f"no date in the question: {period} ({r.start.isoformat()} to {r.end.isoformat()})")
    raw_steps = tool.extra.get("pipeline")
    if not raw_steps:  # a domain without pipelines: the tool itself, with the query's parameters
        return [{"tool": tool.name, "params": {k: v for k, v in values.items() if v is not None}}], notes
    steps = []
    for step in raw_steps:
        filled: dict[str, Any] = {}
        open_params: list[str] = []
        for key, value in (step.get("params") or {}).items():
            if isinstance(value, str) and value.startswith("$"):
                name = value[1:]
                if values.get(name) is not None:
                    filled[key] = values[name]
                else:
                    open_params.append(key)
            else:
                filled[key] = value
        out = {"tool": str(step["tool"]), "params": filled}
        if open_params:
            out["open"] = open_params
        steps.append(out)
    return steps, notes

def _outputs_of(tool: Tool, cfg: PathConfig) -> tuple[str, ...]:
    return _outputs(tool.output) or cfg.outputs_by_kind.get(tool.kind, ())


def plan_route(router, status: Status, matches: list, analysis, query: Any, context: Mapping | None) -> Callable[[RouteResult], RouteResult] | None:
    """Router.plan_path: a function that fills the path fields of a routed result."""
    try:
        cfg = path_config(router)
    except LexiconError as exc:
        # Routing still answers; the result says why its path fields are missing.
        failure = {"message": str(exc), "problems": [p.to_dict() for p in exc.problems]}

        def unplanned(result: RouteResult) -> RouteResult:
            return replace(result, extra=dict(result.extra, path_config_error=failure))

        return unplanned
    path, _ = decide_path(status, matches)
    previous = _context_mode(context)
    has_concepts = bool(getattr(analysis, "concepts", None))

    def plan(result: RouteResult) -> RouteResult:
        text = query if isinstance(query, str) else ""
        today = date.fromisoformat(result.today)
        extra = dict(result.extra)
        if path is Path.FAST:
            top = matches[0]
            tool = router.domain.tool(top.name)
            category = cfg.tool_categories.get(top.name, cfg.default_category)
            model = cfg.models["cheap"]
            pipeline, notes = fill_pipeline(tool, top.suggested_params, router, today)
            declared = tool.extra.get("enrichments")  # an explicit [] means none
            enrichments = list(declared) if declared is not None else cfg.enrichments_for(_outputs_of(tool, cfg))
            tools_sent: tuple[str, ...] = ()
            user = json.dumps({"question": text, "pipeline": pipeline}, ensure_ascii=False)
            estimate = estimate_cost(cfg, model, system=cfg.system_prompts["format"], user=user, tools=(), answer_tokens=cfg.answer_tokens["fast"], steps=len(pipeline))
            extra.update(model_tier="cheap", model_reason="the fast path: the cheapest model only formats the answer", pipeline_notes=notes)
            classified_by = f"intent {top.name}"
            enrichment_source = "the intent's"
        else:
            c = classify_category(text, cfg, has_concepts=has_concepts, previous_mode=previous)
            category = c.category
            choice = choose_model(text, category, cfg)
            model = choice.spec
            pipeline = []
            tools_sent = cfg.tools_to_send(category, [c["name"] for c in result.extra.get("candidates", [])])
            likely = _likely_outputs(result, router, cfg, category)
            enrichments = cfg.enrichments_for(likely) if category != GENERAL_CHAT else []
            answer = cfg.answer_tokens[GENERAL_CHAT if category == GENERAL_CHAT else "llm"]
            estimate = estimate_cost(cfg, model, system=cfg.system_prompts[category], user=text, tools=tools_sent, answer_tokens=answer, tool_call=bool(tools_sent))
            extra.update(model_tier=model.tier, model_reason=choice.reason, classifier={"category": category, "hits": c.hits, "reason": c.reason})
            classified_by = c.reason
            enrichment_source = "predicted from the likely intents' output" if enrichments else ""
        mode = category if category in cfg.classifier else cfg.default_category
        events = _events(result.events, status, category, path, tools_sent, pipeline, enrichments, classified_by)
        switched = previous is not None and mode != GENERAL_CHAT and previous != GENERAL_CHAT and mode != previous
        conversation_mode = previous if (previous and mode == GENERAL_CHAT) else mode
        if switched:
            reason = "an action request" if mode != cfg.default_category else "a report request"
            events.append({"type": "mode_switch", "from": previous, "to": mode, "reason": f"{reason}; {mode} tools for this turn"})
            # The cross-over is for one turn: the conversation stays in its mode.
            conversation_mode = previous if previous == cfg.default_category else mode
        extra.update(
            mode=mode,
            previous_mode=previous,
            conversation_mode=conversation_mode,
            enrichments_source=enrichment_source,
        )
        return replace(
            result,
            category=category,
            model=model.name,
            pipeline=pipeline,
            enrichments=enrichments,
            tools_sent=list(tools_sent),
            estimate=estimate,
            events=events,
            extra=extra,
        )

    return plan


def _likely_outputs(result: RouteResult, router, cfg: PathConfig, category: str) -> tuple[str, ...]:
    """Output shapes of the candidate intents in the chosen category (what the tools will likely return)."""
    low = result.thresholds.get("low", router.thresholds.low)
    shapes: list[str] = []
    for cand in result.extra.get("candidates", []):
        if cand.get("confidence", 0) < low or cfg.tool_categories.get(cand["name"]) != category:
            continue
        tool = router.domain.tool(cand["name"])
        if tool is not None:
            shapes.extend(_outputs_of(tool, cfg))
    return tuple(dict.fromkeys(shapes))


def _events(existing: list[dict], status: Status, category: str, path: Path, tools_sent, pipeline, enrichments, reason: str) -> list[dict]:
    events = []
    for e in existing:
        if e.get("type") == "route_classified":
            e = dict(e, category=category, path=path.value, reason=reason)
        events.append(e)
    events.append({"type": "tools_filtered", "count": len(tools_sent), "tools": list(tools_sent)})
    events.append({"type": "pipeline_executing", "steps": len(pipeline), "tools": [s["tool"] for s in pipeline]})
    events.append({"type": "enrichments_applying", "enrichments": list(enrichments)})
    return events


def next_context(result: dict | RouteResult, context: Mapping | None = None) -> dict:
    """The context for the next turn of a conversation: carries the conversation's mode."""
    data = result.to_dict() if isinstance(result, RouteResult) else result
    out = dict(context or {})
    if data.get("conversation_mode"):
        out["mode"] = data["conversation_mode"]
    return out
