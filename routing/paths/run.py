"""The real LLM call of a planned result (an OpenAI-compatible endpoint through routing.paths.llm)."""
from __future__ import annotations

import json
from dataclasses import replace
from datetime import date

from routing.core.errors import ErrorCode, LexiconError
from routing.core.schema import ErrorInfo, Path, PathFields, RouteResult
from routing.paths.config import MATCH_INTENT, OPERATION_PARAM, path_config
from routing.paths.cost import measured_cost
from routing.paths.enrichments import compute_enrichments, detect_enrichments
from routing.paths.llm import ChatRequest, LLMClient, LLMReply
from routing.paths.plan import _outputs_of

# ---------------------------------------------------------------- the real LLM call


def build_request(router, result: RouteResult, *, model_name: str | None = None) -> ChatRequest:
    """The chat-completions request for a planned result (fast path: format only, no tools)."""
    cfg = path_config(router)
    text = result.query if isinstance(result.query, str) else ""
    model = model_name or result.model or cfg.models["cheap"].name
    if result.path is Path.FAST:
        data = {"question": text, "pipeline": result.pipeline, "enrichments": result.enrichments}
        if result.path_fields is not None and result.path_fields.enrichment_results:
            # The data to format: what the pipeline returned and what the enrichments computed.
            data["data"] = list(result.path_fields.pipeline_data)
            data["enrichment_results"] = [{"name": e["name"], "summary": e["summary"]} for e in result.path_fields.enrichment_results]
        user = json.dumps(data, ensure_ascii=False)
        return ChatRequest(model, ({"role": "system", "content": cfg.system_prompts["format"]}, {"role": "user", "content": user}), cache_style=cfg.cache_style)
    category = result.category or cfg.default_category
    tools = tuple(cfg.schemas[t] for t in result.tools_sent if t in cfg.schemas)
    messages = ({"role": "system", "content": cfg.system_prompt(category)}, {"role": "user", "content": text})
    return ChatRequest(model, messages, tools, cache_style=cfg.cache_style)


def run_llm(router, result: RouteResult, *, client: LLMClient | None = None) -> RouteResult:
    """Run the planned path for real. Never raises: faults come back as UPSTREAM_DOWN with the reason
    and the request that was (or would have been) sent."""
    if result.error is not None and result.error.code == ErrorCode.INVALID_QUERY.value:
        return result
    try:
        cfg = path_config(router)
    except LexiconError as exc:
        return replace(result, error=ErrorInfo(ErrorCode.LEXICON_INVALID.value, str(exc)))
    client = client or LLMClient()
    fields = result.path_fields or PathFields()
    tier = fields.model_tier or "cheap"
    planned = result.model or cfg.models["cheap"].name
    request = build_request(router, result, model_name=client.config.model_name(tier, planned))
    reply: LLMReply = client.complete(request)
    llm = {
        "model": reply.model,
        "tier": tier,
        "tool_call": reply.tool_call,
        "text": reply.text,
        "attempts": reply.attempts,
        "latency_ms": reply.latency_ms,
        "endpoint": client.config.endpoint,
        "request": request.to_dict(),
        # Read from the reply when a model answered; the result's `estimate` stays the planning figure.
        "measured": measured_cost(cfg.models.get(tier) or cfg.models["cheap"], getattr(reply, "usage", None), reply.latency_ms) if reply.ok else None,
    }
    mask = getattr(client, "mask_deep", lambda v: v)
    llm = mask(llm)  # the key never leaves: whatever the endpoint sent back, in every field shown
    events = list(result.events)
    if not reply.ok:
        events.append(mask({"type": "llm_failed", "reason": reply.reason}))
        error = ErrorInfo(ErrorCode.UPSTREAM_DOWN.value, mask(reply.reason or "The LLM endpoint failed."), {"attempts": reply.attempts, "status_code": reply.status_code})
        return replace(result, llm=llm, error=error, events=events)
    events.append(mask({"type": "llm_called", "tool": (reply.tool_call or {}).get("name"), "model": reply.model}))
    if reply.tool_call and reply.tool_call.get("name") == MATCH_INTENT:
        llm["match_intent"] = answer_match_intent(router, result, reply.tool_call.get("arguments") or {})
        events.append({"type": "match_intent_answered", "intents": [m["name"] for m in llm["match_intent"]["intents"]]})
        return replace(result, llm=llm, events=events)
    enrichments = result.enrichments
    source = fields.enrichments_source
    called = cfg.meta_tool((reply.tool_call or {}).get("name", "")) if reply.tool_call else None
    if called is not None:
        enrichments = cfg.enrichments_for(called.outputs)
        source = f"the output of {called.name}"
    elif reply.tool_call and router.domain.tool(reply.tool_call["name"]) is not None:
        enrichments = cfg.enrichments_for(_outputs_of(router.domain.tool(reply.tool_call["name"]), cfg))
        source = f"the output of {reply.tool_call['name']}"
    responses, results = list(fields.pipeline_data), list(fields.enrichment_results)
    operation = _api_operation(cfg, reply.tool_call)
    if operation and fields.data_mode == "replay" and getattr(router, "replay", None) is not None:
        # The LLM path on replay data: the tool the model chose runs on the recording, then enrichments.
        step = {"tool": operation, "params": {k: v for k, v in (reply.tool_call.get("arguments") or {}).items() if k != OPERATION_PARAM}}
        events.append({"type": "pipeline_executing", "steps": 1, "tools": [operation], "data_mode": "replay"})
        responses = [router.replay.run(step, date.fromisoformat(result.today))]
        # On the LLM path too, the data the chosen tool returned decides the enrichments.
        detected = detect_enrichments(responses)
        enrichments = [d["name"] for d in detected]
        source = (f"detected from the data {operation} returned: " + "; ".join(f"{d['name']} ({d['because']})" for d in detected)
                  if detected else f"none: the data {operation} returned has no shape an enrichment applies to")
        events.append({"type": "enrichments_applying", "enrichments": list(enrichments), "on_data": True})
        results = compute_enrichments(responses, enrichments, currency=router.domain.settings.currency)
    fields = replace(fields, enrichments_source=source, pipeline_data=tuple(responses), enrichment_results=tuple(results))
    return replace(result, llm=llm, events=events, enrichments=enrichments, path_fields=fields)


def answer_match_intent(router, result: RouteResult, arguments: dict) -> dict:
    """The match_intent tool's answer: the router's own ranking of the question (at most three intents
    with their confidence), and whether the intent the model expected is among them."""
    question = arguments.get("question") if isinstance(arguments.get("question"), str) and arguments.get("question").strip() else result.query
    again = router.route(question, today=result.today)
    intents = [{"name": m.name, "confidence": m.confidence} for m in again.matches[:3]]
    if not intents:  # below the thresholds: the best candidates the router saw
        intents = [{"name": c["name"], "confidence": c["confidence"]} for c in again.ranked_candidates()[:3] if isinstance(c, dict)]
    expected = arguments.get("intent") if isinstance(arguments.get("intent"), str) else None
    return {"question": question, "status": again.status.value, "intents": intents, "expected": expected,
            "agrees": expected in {i["name"] for i in intents} if expected else None}


def _api_operation(cfg, tool_call: dict | None) -> str | None:
    """The API tool a model's call names: a meta-tool's `operation` argument, else the tool itself."""
    if not tool_call:
        return None
    meta = cfg.meta_tool(tool_call.get("name", ""))
    if meta is not None:
        op = (tool_call.get("arguments") or {}).get(OPERATION_PARAM) if isinstance(tool_call.get("arguments"), dict) else None
        return op if op in meta.tools else None
    return tool_call.get("name")


def run_llm_for_dict(router, result: dict, *, client: LLMClient | None = None) -> dict:
    """The design's run_llm for a result the page holds as a dict (any design with one): routes it
    again (same query, date, thresholds, conversation mode and the design's request options) and runs it."""
    context = {"mode": result["previous_mode"]} if result.get("previous_mode") else {}
    for key in ("data_mode", "max_depth"):
        if result.get(key) and key in (getattr(router, "request_options", None) or {"data_mode"}):
            context[key] = result[key]
    carried = [e["id"] for e in result.get("entities") or [] if isinstance(e, dict) and e.get("via") in ("pronoun", "conversation") and e.get("id")]
    if carried:  # a pronoun resolved from the conversation: the same players again
        context["player_ids"] = carried
    context = context or None
    again = router.route(result["query"], today=result.get("today"), thresholds=result.get("thresholds") or None, context=context)
    runner = getattr(router, "run_llm", None)
    if runner is None:
        return run_llm(router, again, client=client).to_dict()
    return runner(again, client=client).to_dict()
