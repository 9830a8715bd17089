"""What a month of messages costs: the cost of one message per path averaged over the domain's
intents (cost_profile), and a monthly mix of known / novel / chat messages against sending every
tool to the capable model (monthly_cost): the catalog page's simulator."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from datetime import date
from typing import Mapping

from routing.core.clock import parse_today
from routing.core.model import Domain, Tool
from routing.paths.catalog import estimate_tokens, function_schema
from routing.paths.config import GENERAL_CHAT, PathConfig, path_config
from routing.paths.cost import estimate_cost
from routing.paths.plan import fill_pipeline

# ---------------------------------------------------------------- monthly cost


@dataclass(frozen=True)
class CostProfile:
    """Cost of one message on each path, and of the naive baseline (every tool, capable model)."""

    known: dict  # fast path, averaged over the intents
    novel: dict  # LLM path, averaged over modes and model tiers
    chat: dict  # general chat
    all_tools: dict  # every API tool sent to the capable model
    all_tools_count: int
    currency: str
    usd_to_display: float
    novel_capable_share: float
    cache_hit_rate: float = 0.0  # share of messages whose static prefix is still in the provider's cache
    cache_min_tokens: int = 0


def _avg(estimates: list[dict]) -> dict:
    if not estimates:
        return {"tokens": 0, "cost_usd": 0.0, "cached_cost_usd": 0.0, "latency_ms": 0}
    return {
        "tokens": round(statistics.fmean(e["tokens"] for e in estimates)),
        "cost_usd": statistics.fmean(e["cost_usd"] for e in estimates),
        "cached_cost_usd": statistics.fmean(e.get("cached_cost_usd", e["cost_usd"]) for e in estimates),
        "cached_tokens": round(statistics.fmean(e.get("cached_tokens", 0) for e in estimates)),
        "latency_ms": round(statistics.fmean(e["latency_ms"] for e in estimates)),
    }


def cost_profile(router, *, today: date | str | None = None, capable_share: float | None = None) -> CostProfile:
    """Per-message costs: known = each intent's fast path; novel = each mode's LLM path with the
    cheap and capable model (weighted by capable_share); chat = general chat; baseline = every API
    tool (each meta-tool's operations as separate functions) to the capable model."""
    cfg = path_config(router)
    share = float(cfg.cost.get("novel_capable_share", 0.5) if capable_share is None else capable_share)
    today_d = parse_today(today)  # only the default periods' dates, whose length barely moves tokens
    known = []
    for t in router.domain.tools:
        steps, _ = fill_pipeline(t, {}, router, today_d)
        user = json.dumps({"question": t.examples[0][1] if t.examples else t.description, "pipeline": steps}, ensure_ascii=False)
        known.append(estimate_cost(cfg, cfg.models["cheap"], system=cfg.system_prompts["format"], user=user, tools=(), answer_tokens=cfg.answer_tokens["fast"], steps=len(steps)))
    sample = statistics.median([len(ex) for t in router.domain.tools for _, ex in t.examples] or [40])
    question = "x" * int(sample)
    novel = []
    for mode in cfg.answer_categories:
        tools = cfg.tools_for(mode)
        for tier, weight in (("cheap", 1 - share), ("capable", share)):
            e = estimate_cost(cfg, cfg.models[tier], system=cfg.system_prompt(mode), user=question, tools=tools, answer_tokens=cfg.answer_tokens["llm"], tool_call=True)
            novel.append((e, weight))
    total_w = sum(w for _, w in novel) or 1.0
    novel_avg = {
        "tokens": round(sum(e["tokens"] * w for e, w in novel) / total_w),
        "cost_usd": sum(e["cost_usd"] * w for e, w in novel) / total_w,
        "cached_cost_usd": sum(e["cached_cost_usd"] * w for e, w in novel) / total_w,
        "cached_tokens": round(sum(e["cached_tokens"] * w for e, w in novel) / total_w),
        "latency_ms": round(sum(e["latency_ms"] * w for e, w in novel) / total_w),
    }
    chat = estimate_cost(cfg, cfg.models["cheap"], system=cfg.system_prompts[GENERAL_CHAT], user=question, tools=(), answer_tokens=cfg.answer_tokens[GENERAL_CHAT])
    every = _every_tool_schemas(router.domain, cfg)
    capable = cfg.models["capable"]
    tokens_in = cfg.message_overhead_tokens + estimate_tokens(cfg.system_prompt(cfg.default_category)) + estimate_tokens(question) + sum(estimate_tokens(s) for s in every)
    tokens_out = cfg.answer_tokens["llm"] + cfg.tool_call_tokens
    prefix = tokens_in - estimate_tokens(question)
    cached = prefix if cfg.cache_min_tokens and prefix >= cfg.cache_min_tokens else 0
    baseline = {
        "tokens": tokens_in + tokens_out,
        "cost_usd": capable.cost_usd(tokens_in, tokens_out),
        "cached_cost_usd": capable.cost_usd(tokens_in, tokens_out, cached_in=cached),
        "latency_ms": round(capable.base_latency_ms + tokens_out * capable.ms_per_output_token),
    }
    return CostProfile(
        known=_avg(known),
        novel=novel_avg,
        chat={k: chat[k] for k in ("tokens", "cost_usd", "cached_cost_usd", "cached_tokens", "latency_ms")},
        all_tools=baseline,
        all_tools_count=len(every),
        currency=str(cfg.cost.get("display_currency", "USD")),
        usd_to_display=float(cfg.cost.get("usd_to_display", 1.0)),
        novel_capable_share=share,
        cache_hit_rate=float(cfg.cost.get("cache_hit_rate", 0.9)) if cfg.cache_min_tokens else 0.0,
        cache_min_tokens=cfg.cache_min_tokens,
    )


def _every_tool_schemas(domain: Domain, cfg: PathConfig) -> list[dict]:
    if not cfg.meta_tools:
        return [cfg.schemas[t.name] for t in domain.tools]
    out = []
    for m in cfg.meta_tools:
        for name in m.tools:
            tool = Tool(name, m.description, "action", (), (), m.common_params, ())
            out.append(function_schema(tool))
    return out


@dataclass(frozen=True)
class MonthlyCost:
    rows: list[dict]  # per path: {path, share, messages, cost_per_message_usd, monthly_usd, latency_ms}
    total_usd: float
    baseline_usd: float
    volume: int
    total_cached_usd: float = 0.0  # the same month with prompt caching (cache_hit_rate of calls hit)
    baseline_cached_usd: float = 0.0

    @property
    def saved_usd(self) -> float:
        return self.baseline_usd - self.total_usd

    @property
    def saved_share(self) -> float:
        return self.saved_usd / self.baseline_usd if self.baseline_usd else 0.0


def monthly_cost(profile: CostProfile, *, volume: int, mix: Mapping[str, float]) -> MonthlyCost:
    """Traffic mix (known / novel / chat, normalised to 1) and monthly volume -> cost per path."""
    if volume < 0:
        raise ValueError("volume must be zero or more")
    weights = {k: max(0.0, float(mix.get(k, 0.0))) for k in ("known", "novel", "chat")}
    total_w = sum(weights.values())
    if total_w <= 0:
        raise ValueError("the traffic mix must have at least one share above zero")
    rows = []
    for key, label, per in (("known", "fast path (known intents)", profile.known), ("novel", "LLM path (novel questions)", profile.novel), ("chat", "general chat", profile.chat)):
        share = weights[key] / total_w
        messages = round(volume * share)
        rows.append(
            {
                "path": label,
                "key": key,
                "share": share,
                "messages": messages,
                "tokens_per_message": per["tokens"],
                "cost_per_message_usd": per["cost_usd"],
                "monthly_usd": per["cost_usd"] * messages,
                "cached_cost_per_message_usd": per.get("cached_cost_usd", per["cost_usd"]),
                "monthly_cached_usd": _with_cache(per, profile.cache_hit_rate) * messages,
                "latency_ms": per["latency_ms"],
            }
        )
    total = sum(r["monthly_usd"] for r in rows)
    return MonthlyCost(
        rows=rows, total_usd=total, baseline_usd=profile.all_tools["cost_usd"] * volume, volume=volume,
        total_cached_usd=sum(r["monthly_cached_usd"] for r in rows),
        baseline_cached_usd=_with_cache(profile.all_tools, profile.cache_hit_rate) * volume,
    )


def _with_cache(per: dict, hit_rate: float) -> float:
    """Average cost of a message when `hit_rate` of them read the static prefix from the cache."""
    return hit_rate * per.get("cached_cost_usd", per["cost_usd"]) + (1 - hit_rate) * per["cost_usd"]


# The design's own targets (the CFO-agent design document): cost and latency of one message per path
# and the monthly bill of 10,000 messages; shown beside our estimates, with the difference explained.
DESIGN_TARGETS = {"known": (0.003, 750), "novel": (0.02, 2000), "chat": (0.001, 300)}
DESIGN_MONTHLY = (10_000, 70.0)


def design_comparison(router, profile: CostProfile) -> dict:
    """Our per-message estimates (first call and cached) beside the design's targets, each with why
    they differ, and 10,000 messages a month with the domain's default mix."""
    cfg = path_config(router)
    rows = []
    for key, label, per, model in (
        ("known", "known query (fast path)", profile.known, cfg.models["cheap"]),
        ("novel", "novel question (LLM path)", profile.novel, None),
        ("chat", "general chat", profile.chat, cfg.models["cheap"]),
    ):
        target_usd, target_ms = DESIGN_TARGETS[key]
        ratio = per["cost_usd"] / target_usd if target_usd else 0.0
        if key == "novel":
            who = f"{profile.novel_capable_share:.0%} {cfg.models['capable'].name}, the rest {cfg.models['cheap'].name}"
        else:
            who = f"{model.name} at ${model.input_usd_per_1m:g} / ${model.output_usd_per_1m:g} per million tokens in / out"
        cache = (f"{per.get('cached_tokens', 0):,} prefix tokens cached" if per.get("cached_tokens") else
                 f"the static prefix is below the {profile.cache_min_tokens:,}-token minimum, so caching saves nothing" if profile.cache_min_tokens else "no caching configured")
        why = (f"{per['tokens']:,} tokens a message ({who}); {cache}. "
               + (f"{1 / ratio:.0f}x below the target: the routed prompt is small and sent to the model shown; the target leaves room for a dearer model and the pipeline's data in the prompt."
                  if 0 < ratio < 1 else "At or above the target: more tool definitions or a dearer model than the target allows."))
        answer = cfg.answer_tokens[GENERAL_CHAT if key == "chat" else "fast" if key == "known" else "llm"]
        latency_why = (f"ours is the whole answer ({answer} output tokens at the model's ms per token, plus its base latency"
                       + (" and the pipeline's steps" if key == "known" else "") + "); streamed, the first words come after the base latency alone")
        rows.append({
            "key": key, "path": label, "target_usd": target_usd, "first_call_usd": per["cost_usd"],
            "cached_call_usd": per.get("cached_cost_usd", per["cost_usd"]), "target_ms": target_ms,
            "estimate_ms": per["latency_ms"], "why": why, "latency_why": latency_why,
        })
    volume, target_month = DESIGN_MONTHLY
    mix = cfg.cost.get("default_mix") or {"known": 0.6, "novel": 0.3, "chat": 0.1}
    month = monthly_cost(profile, volume=volume, mix=mix)
    return {
        "rows": rows,
        "monthly": {"messages": volume, "mix": dict(mix), "target_usd": target_month, "first_call_usd": month.total_usd,
                    "cached_usd": month.total_cached_usd, "cache_hit_rate": profile.cache_hit_rate,
                    "baseline_usd": month.baseline_usd, "baseline_cached_usd": month.baseline_cached_usd},
    }
