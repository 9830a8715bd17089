"""Server-side time of one playground rerun after typing a query (a benchmark, not a test).

Drives app.py under Streamlit's AppTest: each sample types one query into the chat box and times
the rerun twice: `script` is the server's share (ScriptRunner._run_script on the script thread:
navigation, routing, the result cards, Plotly figures, serialising the page), `round_trip` adds
AppTest's own polling and message parsing (an upper bound). Two conversations:
  fresh  the new card is the only one on screen
  full   ten cards already on screen (the most the page draws in full)

    python scripts/bench_rerun.py [--n 50] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.runtime.scriptrunner.script_runner import ScriptRunner  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

SCRIPT_MS: list[float] = []
_original_run_script = ScriptRunner._run_script


def _timed_run_script(self, rerun_data):
    started = time.perf_counter()
    try:
        return _original_run_script(self, rerun_data)
    finally:
        SCRIPT_MS.append((time.perf_counter() - started) * 1000)


ScriptRunner._run_script = _timed_run_script  # the script thread's own time, without AppTest's polling

QUERIES = [
    "outstanding invoices", "who owes me money", "piutang belum dibayar", "invoise bulan ini",
    "show invoices", "show me data", "launch my rocket to Mars", "ringkasan penjualan minggu lalu",
    "unpaid bills from last month", "laporan laba rugi kuartal lalu",
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def sample(n: int, keep: int) -> tuple[list[float], list[float]]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["today"] = "2026-01-22"
    at.run()
    for q in QUERIES[:keep]:  # warm up and fill the conversation
        at.chat_input(key="query").set_value(q).run()
    timings, script = [], []
    for i in range(n):
        if keep == 0:
            at.session_state["conversation"] = []
        else:
            at.session_state["conversation"] = at.session_state["conversation"][:keep]
        at.chat_input(key="query").set_value(QUERIES[i % len(QUERIES)])
        SCRIPT_MS.clear()
        started = time.perf_counter()
        at.run()
        timings.append((time.perf_counter() - started) * 1000)
        script.append(sum(SCRIPT_MS))
        if at.exception:
            raise SystemExit(f"the page raised: {at.exception}")
        if at.session_state["conversation"][0]["result"] is None:
            raise SystemExit("a query failed to route")
    return script, timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50, help="reruns per scenario")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    report = {}
    for name, keep in (("fresh", 0), ("full", 10)):
        script, round_trip = sample(args.n, keep)
        report[name] = {
            kind: {
                "n": len(ms),
                "median_ms": round(statistics.median(ms), 1),
                "p90_ms": round(percentile(ms, 0.9), 1),
                "max_ms": round(max(ms), 1),
            }
            for kind, ms in (("script", script), ("round_trip", round_trip))
        }
    if args.json:
        print(json.dumps(report))
        return
    for name, kinds in report.items():
        for kind, r in kinds.items():
            print(f"{name:5} {kind:10}  n={r['n']}  median {r['median_ms']} ms  p90 {r['p90_ms']} ms  max {r['max_ms']} ms")


if __name__ == "__main__":
    main()
