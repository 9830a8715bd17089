"""The real LLM call of a planned result (an OpenAI-compatible endpoint through routing.paths.llm)."""
from __future__ import annotations

import json
from dataclasses import replace

from routing.core.errors import ErrorCode, LexiconError
from routing.core.schema import ErrorInfo, Path, RouteResult
from routing.paths.config import path_config
from routing.paths.llm import ChatRequest, LLMClient, LLMReply
from routing.paths.plan import _outputs_of

# ---------------------------------------------------------------- the real LLM call


def build_request(router, result: RouteResult, *, model_name: str | None = None) -> ChatRequest:
    """The chat-completions request for a planned result (fast path: format only, no tools)."""
    cfg = path_config(router)
    text = result.query if isinstance(result.query, str) else ""
    model = model_name or result.model or cfg.models["cheap"].name
    if result.path is Path.FAST:
        user = json.dumps({"question": text, "pipeline": result.pipeline, "enrichments": result.enrichments}, ensure_ascii=False)
        return ChatRequest(model, ({"role": "system", "content": cfg.system_prompts["format"]}, {"role": "user", "content": user}))
    category = result.category or cfg.default_category
    tools = tuple(cfg.schemas[t] for t in result.tools_sent if t in cfg.schemas)
    messages = ({"role": "system", "content": cfg.system_prompts.get(category, "")}, {"role": "user", "content": text})
    return ChatRequest(model, messages, tools)


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
    tier = result.extra.get("model_tier") or "cheap"
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
    }
    events = list(result.events)
    if not reply.ok:
        events.append({"type": "llm_failed", "reason": reply.reason})
        error = ErrorInfo(ErrorCode.UPSTREAM_DOWN.value, reply.reason or "The LLM endpoint failed.", {"attempts": reply.attempts, "status_code": reply.status_code})
        return replace(result, llm=llm, error=error, events=events)
    events.append({"type": "llm_called", "tool": (reply.tool_call or {}).get("name"), "model": reply.model})
    extra = dict(result.extra)
    enrichments = result.enrichments
    called = cfg.meta_tool((reply.tool_call or {}).get("name", "")) if reply.tool_call else None
    if called is not None:
        enrichments = cfg.enrichments_for(called.outputs)
        extra["enrichments_source"] = f"the output of {called.name}"
    elif reply.tool_call and router.domain.tool(reply.tool_call["name"]) is not None:
        enrichments = cfg.enrichments_for(_outputs_of(router.domain.tool(reply.tool_call["name"]), cfg))
        extra["enrichments_source"] = f"the output of {reply.tool_call['name']}"
    return replace(result, llm=llm, events=events, enrichments=enrichments, extra=extra)


def run_llm_for_dict(router, result: dict, *, client: LLMClient | None = None) -> dict:
    """run_llm for a result the page holds as a dict: routes it again (same query, date, thresholds
    and conversation mode) and runs it."""
    context = {"mode": result["previous_mode"]} if result.get("previous_mode") else None
    again = router.route(result["query"], today=result.get("today"), thresholds=result.get("thresholds") or None, context=context)
    return run_llm(router, again, client=client).to_dict()
