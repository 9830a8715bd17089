"""The path plan of one routed question: the fast path's fixed pipeline with the question's
parameters, or the LLM path's category, tools sent and model; events; the conversation's mode."""
from __future__ import annotations

import json
from datetime import date
from typing import Any, Mapping

from routing.core.model import Tool
from routing.core.schema import Path, PathFields, RouteResult, Status
from routing.dates import resolve_expression
from routing.paths.classify import choose_model, classify_category, question_words
from routing.paths.config import GENERAL_CHAT, MATCH_INTENT, MAX_TOOLS_SENT, PathConfig, _outputs
from routing.paths.cost import estimate_cost
from routing.paths.enrichments import compute_enrichments, detect_enrichments
from routing.paths.entities import entity_params
from routing.paths.events import EventLog

# ---------------------------------------------------------------- planning


def _context_mode(context: Mapping | None) -> str | None:
    if context is None or not isinstance(context, Mapping):  # None first: an ABC's isinstance is slow
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


def plan_path(router, *, status: Status, path: Path, matches: list, candidates: list[dict], analysis, query: Any,
              today: date, thresholds: dict, context: Mapping | None, log: EventLog) -> dict:
    """The path fields of one routed question, planned once (the path itself was decided by
    routing.paths.decide). Emits route_classified, tools_filtered, pipeline_executing (when a step
    runs: data_mode replay), enrichments_applying and mode_switch on `log`. Returns the RouteResult
    fields to set."""
    cfg: PathConfig = router.paths
    text = query if isinstance(query, str) else ""
    previous = _context_mode(context) if cfg.has_modes else None
    data_mode = context.get("data_mode") if context is not None and isinstance(context, Mapping) else None
    notes: list[str] = []
    classifier = None
    if path is Path.FAST:
        top = matches[0]
        tool = router.domain.tool(top.name)
        category = cfg.tool_categories.get(top.name, cfg.default_category)
        model = cfg.models["cheap"]
        params, entity_notes = entity_params(tool, top.suggested_params, analysis, router.domain.words.numbers)
        pipeline, notes = fill_pipeline(tool, params, router, today)
        notes = entity_notes + notes
        declared = tool.extra.get("enrichments")  # an explicit [] means none
        enrichments = list(declared) if declared is not None else cfg.enrichments_for(_outputs_of(tool, cfg))
        tools_sent: tuple[str, ...] = ()
        user = json.dumps({"question": text, "pipeline": pipeline}, ensure_ascii=False)
        estimate = estimate_cost(cfg, model, system=cfg.system_prompts["format"], user=user, tools=(), answer_tokens=cfg.answer_tokens["fast"], steps=len(pipeline))
        tier, model_reason = "cheap", "the fast path: the cheapest model only formats the answer"
        classified_by = f"intent {top.name}"
        enrichment_source = "the intent's"
    else:
        tokens = question_words(text, analysis)  # read once for the classifier and the model choice
        c = classify_category(text, cfg, has_concepts=bool(getattr(analysis, "concepts", None)), previous_mode=previous, tokens=tokens)
        category = c.category
        choice = choose_model(text, category, cfg, tokens=tokens, analysis=analysis)
        model = choice.spec
        pipeline = []
        tools_sent = cfg.tools_to_send(category, [x["name"] for x in candidates])
        if cfg.match_intent and tools_sent and len(tools_sent) < MAX_TOOLS_SENT:
            # The router's own matcher, offered as a tool while the 15-20 bound allows one more.
            tools_sent = (*tools_sent, MATCH_INTENT)
        likely = _likely_outputs(candidates, thresholds.get("low", router.thresholds.low), router, cfg, category)
        enrichments = cfg.enrichments_for(likely) if category != GENERAL_CHAT else []
        answer = cfg.answer_tokens[GENERAL_CHAT if category == GENERAL_CHAT else "llm"]
        estimate = estimate_cost(cfg, model, system=cfg.system_prompt(category), user=text, tools=tools_sent, answer_tokens=answer, tool_call=bool(tools_sent))
        tier, model_reason = model.tier, choice.reason
        classifier = {"category": category or None, "hits": c.hits, "reason": c.reason}
        classified_by = c.reason
        enrichment_source = "predicted from the likely intents' output" if enrichments else ""
    category = category or None  # a domain without modes: no mode category
    log.emit("route_classified", status=status.value, category=category, path=path.value, reason=classified_by)
    log.emit("tools_filtered", count=len(tools_sent), tools=list(tools_sent))
    responses: list[dict] = []
    if pipeline and data_mode == "replay" and router.replay is None:
        notes = list(notes) + [f"replay asked, but domain {router.name} has no recorded responses (replay.yaml): nothing ran"]
    if pipeline and data_mode == "replay" and router.replay is not None:
        log.emit("pipeline_executing", steps=len(pipeline), tools=[s["tool"] for s in pipeline], data_mode="replay")
        responses = [router.replay.run(step, today) for step in pipeline]
    results: list[dict] = []
    detected: list[dict] = []
    if responses:
        # The data decides which enrichments run (its shape); a tool's YAML tag only overrides.
        overridden = path is Path.FAST and tool.extra.get("enrichments") is not None
        detected = detect_enrichments(responses)
        if not overridden:
            enrichments = [d["name"] for d in detected]
            enrichment_source = "detected from the data returned: " + "; ".join(f"{d['name']} ({d['because']})" for d in detected) if detected else "none: the data returned has no shape an enrichment applies to"
        else:
            enrichment_source = f"override: tools.yaml enrichments of {tool.name}"
    elif path is Path.FAST and tool.extra.get("enrichments") is None and enrichments:
        enrichment_source = "predicted from the intent's output shape (no data ran: detected once data comes back)"
    if enrichments:
        log.emit("enrichments_applying", enrichments=list(enrichments), on_data=bool(responses))
        if responses:
            results = compute_enrichments(responses, enrichments, currency=router.domain.settings.currency)
    mode = conversation_mode = None
    if cfg.has_modes:
        mode = category if category in cfg.classifier else cfg.default_category
        conversation_mode = previous if (previous and mode == GENERAL_CHAT) else mode
        if previous is not None and GENERAL_CHAT not in (mode, previous) and mode != previous:
            reason = "an action request" if mode != cfg.default_category else "a report request"
            log.emit("mode_switch", **{"from": previous, "to": mode, "reason": f"{reason}; {mode} tools for this turn"})
            # The cross-over is for one turn: the conversation stays in its mode.
            conversation_mode = previous if previous == cfg.default_category else mode
    fields = PathFields(
        model_tier=tier,
        model_reason=model_reason,
        pipeline_notes=tuple(notes),
        classifier=classifier,
        mode=mode,
        previous_mode=previous,
        conversation_mode=conversation_mode,
        enrichments_source=enrichment_source,
        data_mode=data_mode if data_mode in ("live", "replay") else None,
        enrichment_results=tuple(results),
        pipeline_data=tuple(responses),
        data_modes=router.data_modes,
    )
    return {
        "category": category,
        "model": model.name,
        "pipeline": pipeline,
        "enrichments": enrichments,
        "tools_sent": list(tools_sent),
        "estimate": estimate,
        "path_fields": fields,
    }


def _likely_outputs(candidates: list[dict], low: float, router, cfg: PathConfig, category: str) -> tuple[str, ...]:
    """Output shapes of the candidate intents in the chosen category (what the tools will likely return)."""
    shapes: list[str] = []
    for cand in candidates:
        if cand.get("confidence", 0) < low or cfg.tool_categories.get(cand["name"]) != category:
            continue
        tool = router.domain.tool(cand["name"])
        if tool is not None:
            shapes.extend(_outputs_of(tool, cfg))
    return tuple(dict.fromkeys(shapes))


def next_context(result: dict | RouteResult, context: Mapping | None = None) -> dict:
    """The context for the next turn of a conversation: carries the conversation's mode."""
    data = result.to_dict() if isinstance(result, RouteResult) else result
    out = dict(context or {})
    if data.get("conversation_mode"):
        out["mode"] = data["conversation_mode"]
    return out
