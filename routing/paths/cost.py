"""What one message costs on a path: tokens in and out, dollars and latency (planning figures)."""
from __future__ import annotations

from routing.paths.catalog import estimate_tokens
from routing.paths.config import ModelSpec, PathConfig


def estimate_cost(cfg: PathConfig, model: ModelSpec, *, system: str, user: str, tools: tuple[str, ...], answer_tokens: int, steps: int = 0, tool_call: bool = False) -> dict:
    """Tokens in (system prompt, question, tool schemas) and out (answer, tool call), priced with the
    model's per-token prices; latency = model base + output tokens + pipeline steps. Planning figures."""
    tokens_in = cfg.message_overhead_tokens + estimate_tokens(system) + estimate_tokens(user)
    tokens_in += sum(cfg.schema_tokens.get(t, 0) for t in tools)
    tokens_out = answer_tokens + (cfg.tool_call_tokens if tool_call else 0)
    latency = model.base_latency_ms + tokens_out * model.ms_per_output_token + steps * cfg.pipeline_step_ms
    return {
        "tokens": tokens_in + tokens_out,
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "cost_usd": round(model.cost_usd(tokens_in, tokens_out), 6),
        "latency_ms": round(latency),
        "model": model.name,
    }

