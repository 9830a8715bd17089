"""What one message costs on a path: tokens in and out, dollars and latency (planning figures), for
the first call and for a call whose static prefix (system prompt + tool definitions) is read from the
provider's prompt cache."""
from __future__ import annotations

from routing.paths.catalog import estimate_tokens
from routing.paths.config import ModelSpec, PathConfig


def estimate_cost(cfg: PathConfig, model: ModelSpec, *, system: str, user: str, tools: tuple[str, ...], answer_tokens: int, steps: int = 0, tool_call: bool = False) -> dict:
    """Tokens in (system prompt, question, tool schemas) and out (answer, tool call), priced with the
    model's per-token prices; latency = model base + output tokens + pipeline steps. `cost_usd` is the
    first call; `cached_cost_usd` a later call that reads the static prefix (message overhead, system
    prompt, tool schemas) from the cache, when that prefix reaches the provider's minimum."""
    prefix = cfg.message_overhead_tokens + estimate_tokens(system) + sum([cfg.schema_tokens.get(t, 0) for t in tools])
    tokens_in = prefix + estimate_tokens(user)
    tokens_out = answer_tokens + (cfg.tool_call_tokens if tool_call else 0)
    latency = model.base_latency_ms + tokens_out * model.ms_per_output_token + steps * cfg.pipeline_step_ms
    cached = prefix if cfg.cache_min_tokens and prefix >= cfg.cache_min_tokens else 0
    return {
        "tokens": tokens_in + tokens_out,
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "cost_usd": round(model.cost_usd(tokens_in, tokens_out), 6),
        "cacheable_tokens": prefix,
        "cached_tokens": cached,
        "cached_cost_usd": round(model.cost_usd(tokens_in, tokens_out, cached_in=cached), 6),
        "cache_note": (f"{cached} prefix tokens read from the cache" if cached else
                       f"prefix of {prefix} tokens is below the provider's {cfg.cache_min_tokens}-token minimum: not cached" if cfg.cache_min_tokens else "no prompt caching configured"),
        "latency_ms": round(latency),
        "model": model.name,
        "kind": "estimate",  # planning figures; a model's answer carries measured ones (measured_cost)
    }


def measured_cost(model: ModelSpec, usage: dict | None, latency_ms: float | None) -> dict | None:
    """What a call that was answered cost, from the reply's own `usage` (prompt, completion and
    cached prompt tokens) and the clock, priced with the planned model's prices; None without usage."""
    if not usage or "prompt_tokens" not in usage:
        return None
    tokens_in, tokens_out = int(usage["prompt_tokens"]), int(usage.get("completion_tokens") or 0)
    cached = min(int(usage.get("cached_tokens") or 0), tokens_in)
    return {
        "kind": "measured",
        "source": "the reply's usage and the clock",
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "cached_tokens": cached,
        "cache_hit": cached > 0,
        "tokens": tokens_in + tokens_out,
        "cost_usd": round(model.cost_usd(tokens_in, tokens_out, cached_in=cached), 6),
        "uncached_cost_usd": round(model.cost_usd(tokens_in, tokens_out), 6),
        "latency_ms": round(latency_ms) if latency_ms is not None else None,
        "priced_as": model.name,
    }
