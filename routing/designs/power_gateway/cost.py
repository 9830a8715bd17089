"""The gateway's token cost, from real token counts (tokens.py) and tier shares measured on the
validation set (golden.yaml):

    per query = gateway tools (resolve_intent + activate_power, listed once per conversation turn)
              + sum over tiers of share(tier) x (resolve_intent reply at that tier
                                                 + the follow-up activate_power reply, where the
                                                   agent must pick a power: multiple / weak)
    baseline  = every power's tools sent at start-up (what an agent without the gateway carries)

`validation_metrics(gateway, report)` adds the design's success criteria to `eval`.
"""
from __future__ import annotations

from statistics import mean
from typing import Any

from routing.core.schema import Status

from .tokens import count_tokens

TIERS = (Status.ACTIVATED.value, Status.MULTIPLE_MATCHES.value, Status.WEAK_MATCHES.value, Status.NOT_FOUND.value)
FOLLOW_UP = {Status.MULTIPLE_MATCHES.value, Status.WEAK_MATCHES.value}


def _golden_queries(gateway) -> list[tuple[str, str | None]]:
    from routing.quality.evaluate import load_golden

    path = gateway.domain.root / "golden.yaml"
    return [(c.query, c.today) for c in load_golden(path)] if path.is_file() else []


def cost_table(gateway, queries: list[tuple[str, str | None]] | None = None) -> dict:
    """Tokens per tier (measured), tier shares (measured), the weighted cost and the baseline."""
    from .design import agent_view

    queries = _golden_queries(gateway) if queries is None else queries
    enc = gateway.encoding
    by_tier: dict[str, list[int]] = {t: [] for t in TIERS}
    follow: dict[str, list[int]] = {t: [] for t in TIERS}
    for query, today in queries:
        result = gateway.route(query, today=today).to_dict()
        tier = result["status"] if result["status"] in by_tier else Status.NOT_FOUND.value
        by_tier[tier].append(count_tokens(agent_view(result), enc))
        if tier in FOLLOW_UP and result["matches"]:
            follow[tier].append(count_tokens(gateway.activate(result["matches"][0]["name"]), enc))
    n = sum(len(v) for v in by_tier.values()) or 1
    gateway_tools = gateway.gateway_tools_tokens()
    rows = []
    weighted = 0.0
    for tier in TIERS:
        share = len(by_tier[tier]) / n
        reply = mean(by_tier[tier]) if by_tier[tier] else 0.0
        extra = mean(follow[tier]) if follow[tier] else 0.0
        weighted += share * (reply + extra)
        rows.append({"tier": tier, "queries": len(by_tier[tier]), "share": round(share, 4),
                     "reply_tokens": round(reply, 1), "follow_up_tokens": round(extra, 1),
                     "weighted_tokens": round(share * (reply + extra), 1)})
    baseline = gateway.all_tools_tokens()
    per_query = gateway_tools + weighted
    powers = [{"power": name, "tools": len(gateway.catalog.get(name).tools),
               "tokens": count_tokens(gateway.power_tools(name), enc)} for name in gateway.catalog.names()]
    return {
        "domain": gateway.name,
        "encoding": enc,
        "queries": n if queries else 0,
        "tiers": rows,
        "gateway_tools_tokens": gateway_tools,
        "per_query_tokens": round(per_query, 1),
        "all_tools_tokens": baseline,
        "all_tools_count": sum(p["tools"] for p in powers),
        "saved_share": round(1 - per_query / baseline, 4) if baseline else 0.0,
        "powers": powers,
    }


def validation_metrics(gateway, report: Any) -> dict:
    """The design's success criteria on a golden run: tier accuracy (in the common metrics),
    correct power in the top 3, average resolution latency, average tokens per query."""
    from .design import agent_view

    outcomes = report.outcomes
    labelled = [o for o in outcomes if o.case.tool or o.case.tools]
    in_top3 = [all(t in o.top3 for t in ((o.case.tool,) if o.case.tool else ()) + tuple(o.case.tools)) for o in labelled]
    tokens = [count_tokens(agent_view(gateway.route(o.case.query, today=o.case.today).to_dict()), gateway.encoding)
              for o in outcomes]
    return {
        "correct_power_in_top3": round(sum(in_top3) / len(in_top3), 4) if in_top3 else None,
        "avg_latency_ms": round(mean(o.timing_ms for o in outcomes), 3) if outcomes else 0.0,
        "avg_tokens_per_query": round(mean(tokens), 1) if tokens else 0.0,
        "tokens_encoding": gateway.encoding,
    }
