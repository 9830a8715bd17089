"""Latency of resolve_intent measured through the real MCP server over stdio (the SDK's client):
every query of a power_gateway domain's validation set, several rounds, after a warm-up.

    python scripts/mcp_latency.py [--domain powers] [--rounds 5]

Prints JSON: n, p50_ms, p99_ms, mean_ms of the round trip (client -> stdio -> gateway -> reply)
and the in-process resolution time for comparison. A warm-up pass first loads everything and
starts the child of any power an activated reply switches on, so the timed calls measure routing.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], pct: float) -> float:
    from routing.quality.evaluate import percentile as p

    return p(sorted(values), pct)


async def measure(domain: str, rounds: int) -> dict:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from routing import load_router
    from routing.quality.evaluate import load_golden

    gateway = load_router(domain)
    queries = [c.query for c in load_golden(gateway.domain.root / "golden.yaml")]
    params = StdioServerParameters(command=sys.executable, args=["-m", "routing", "mcp", "--domain", domain],
                                   cwd=str(ROOT), env={"PYTHONPATH": str(ROOT)})
    times: list[float] = []
    async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for q in queries:  # warm-up: tokenizer, caches, and each activated power's child started once
                await session.call_tool("resolve_intent", {"query": q})
            for _ in range(rounds):
                for q in queries:
                    t0 = time.perf_counter()
                    await session.call_tool("resolve_intent", {"query": q})
                    times.append((time.perf_counter() - t0) * 1000)
    local = []
    for q in queries:
        local.append(gateway.route(q).timing_ms)
    return {
        "domain": domain,
        "n": len(times),
        "p50_ms": round(percentile(times, 50), 3),
        "p99_ms": round(percentile(times, 99), 3),
        "mean_ms": round(sum(times) / len(times), 3),
        "in_process_mean_ms": round(sum(local) / len(local), 3),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--domain", default="powers")
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    print(json.dumps(anyio.run(measure, args.domain, args.rounds), indent=2))


if __name__ == "__main__":
    main()
