"""Latency of the power gateway with the real reference servers, over both MCP transports (the SDK's
own clients: stdio_client and streamable_http_client), and a session transcript.

    python scripts/mcp_reference_bench.py [--rounds 3] [--cold 8] [--port 8647] [--pg-port 8646] [--transcript FILE]

Starts a throwaway PostgreSQL (routing.mcp.pgfixture) for the postgres power and a copy of the
powers lexicon with its own children settings, then per transport measures:

    resolve         resolve_intent on every request of the validation set (golden.yaml), `rounds`
                    times, after a warm-up pass that started every power an activated reply switches
                    on (max_running raised so they stay up): routing + transport + reply
    activate_warm   activate_power of a power whose server is running (tools listed again)
    activate_cold   activate_power that starts the server: max_running 1 and two powers in turn,
                    so every activation starts a fresh child (and closes the other); per server

Prints JSON (p50 / p99 / n in ms). --transcript writes resolve -> activate -> call for three
reference servers (git, postgres, time) over stdio, as the agent sends and receives them.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COLD_POWERS = ("git", "time", "memory", "filesystem", "postgres", "sqlite")


def pct(values: list[float], p: float) -> float:
    from routing.quality.evaluate import percentile

    return round(percentile(sorted(values), p), 2)


def summary(values: list[float]) -> dict:
    return {"n": len(values), "p50_ms": pct(values, 50), "p99_ms": pct(values, 99)}


def lexicon_copy(max_running: int) -> Path:
    root = Path(tempfile.mkdtemp(prefix="routing-bench-lex-"))
    shutil.copytree(ROOT / "lexicons" / "powers", root / "powers", ignore=shutil.ignore_patterns(".history"))
    shutil.copytree(ROOT / "lexicons" / "_shared", root / "_shared")
    settings = root / "powers" / "settings.yaml"
    settings.write_text(settings.read_text().replace("  max_running: 3\n", f"  max_running: {max_running}\n"))
    return root


@asynccontextmanager
async def stdio_session(env: dict):
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "routing", "mcp", "--domain", "powers"], cwd=str(ROOT), env=env)
    async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):  # noqa: SIM115
        async with ClientSession(read, write) as session:
            await session.initialize()
            yield session


@asynccontextmanager
async def http_session(url: str):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            yield session


class HttpGateway:
    def __init__(self, port: int, env: dict):
        self.port = port
        self.proc = subprocess.Popen([sys.executable, "-m", "routing", "mcp", "--domain", "powers", "--http", f"127.0.0.1:{port}"],
                                     cwd=str(ROOT), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return
            time.sleep(0.1)
        raise TimeoutError("the HTTP gateway did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def timed(session, tool: str, args: dict) -> float:
    t0 = time.perf_counter()
    result = await session.call_tool(tool, args)
    ms = (time.perf_counter() - t0) * 1000
    if result.is_error:
        raise RuntimeError(f"{tool}({args}) failed: {result.content[0].text[:300]}")
    return ms


async def measure_session(session, queries: list[str], rounds: int) -> dict:
    for q in queries:  # warm-up: every activated power's child started once, caches loaded
        await session.call_tool("resolve_intent", {"query": q})
    resolve = [await timed(session, "resolve_intent", {"query": q}) for _ in range(rounds) for q in queries]
    for power in ("git", "time", "sqlite"):  # running before the warm activations are timed
        await session.call_tool("activate_power", {"name": power})
    warm = [await timed(session, "activate_power", {"name": p}) for _ in range(rounds * 5) for p in ("git", "time", "sqlite")]
    return {"resolve": summary(resolve), "activate_warm": summary(warm)}


async def measure_cold(session, cold: int) -> dict:
    out = {}
    for power in COLD_POWERS:
        times = []
        for _ in range(cold):
            await timed(session, "activate_power", {"name": "sqlite" if power != "sqlite" else "time"})  # closes `power`
            times.append(await timed(session, "activate_power", {"name": power}))
        out[power] = summary(times)
    return out


def short(text: str, limit: int = 600) -> str:
    return text if len(text) <= limit else text[:limit] + f" ... [{len(text) - limit} more characters]"


async def transcript(env: dict, repo: str) -> list[dict]:
    steps = [
        ("resolve_intent", {"query": "show the git log of this repository"}),
        ("git__git_log", {"repo_path": repo, "max_count": 3}),
        ("resolve_intent", {"query": "run a query on the postgres database"}),
        ("activate_power", {"name": "postgres"}),
        ("postgres__query", {"sql": "SELECT c.name, COUNT(o.id) AS orders FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY orders DESC, c.name LIMIT 3"}),
        ("resolve_intent", {"query": "what time is it in Tokyo"}),
        ("time__convert_time", {"source_timezone": "Asia/Tokyo", "time": "09:30", "target_timezone": "Europe/London"}),
    ]
    lines = []
    async with stdio_session(env) as session:
        for tool, args in steps:
            t0 = time.perf_counter()
            result = await session.call_tool(tool, args)
            ms = (time.perf_counter() - t0) * 1000
            text = "\n".join(getattr(c, "text", "") for c in result.content)
            lines.append({"call": tool, "arguments": args, "ms": round(ms, 1), "is_error": bool(result.is_error), "reply": short(text)})
    return lines


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--cold", type=int, default=8)
    p.add_argument("--port", type=int, default=8647)
    p.add_argument("--pg-port", type=int, default=8646)
    p.add_argument("--transcript", help="write the session transcript (JSON) here")
    args = p.parse_args()

    from routing import load_router
    from routing.mcp.pgfixture import PgCluster
    from routing.quality.evaluate import load_golden

    queries = [c.query for c in load_golden(load_router("powers").domain.root / "golden.yaml")]
    cluster = PgCluster(tempfile.mkdtemp(prefix="routing-bench-pg-"), args.pg_port).start()
    state = tempfile.mkdtemp(prefix="routing-bench-state-")
    many, one = lexicon_copy(20), lexicon_copy(1)
    base = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", ""), "ROUTING_POSTGRES_URL": cluster.url, "ROUTING_MCP_STATE": state}
    report: dict = {"queries": len(queries), "rounds": args.rounds}
    gateways = []
    try:
        async def run_all():
            async with stdio_session({**base, "ROUTING_LEXICONS": str(many)}) as s:
                report["stdio"] = await measure_session(s, queries, args.rounds)
            async with stdio_session({**base, "ROUTING_LEXICONS": str(one)}) as s:
                report["stdio"]["activate_cold"] = await measure_cold(s, args.cold)
            gw = HttpGateway(args.port, {**base, "ROUTING_LEXICONS": str(many)})
            gateways.append(gw)
            async with http_session(gw.url) as s:
                report["streamable_http"] = await measure_session(s, queries, args.rounds)
            gw.stop()
            gw = HttpGateway(args.port + 1, {**base, "ROUTING_LEXICONS": str(one)})
            gateways.append(gw)
            async with http_session(gw.url) as s:
                report["streamable_http"]["activate_cold"] = await measure_cold(s, args.cold)
            gw.stop()
            if args.transcript:
                lines = await transcript(base, str(ROOT))
                Path(args.transcript).write_text(json.dumps(lines, indent=1, ensure_ascii=False))

        anyio.run(run_all)
    finally:
        for gw in gateways:
            if gw.proc.poll() is None:
                gw.stop()
        cluster.stop()
        for folder in (many, one, Path(state)):
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
