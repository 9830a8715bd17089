"""Two checkouts' routers side by side on Seal-Tools (4,076 tools known by their descriptions):
speed measured in the same run, chunk by chunk in turn (A, B, A, B ...), so a shared machine's load
falls on both alike; and every answer compared (top-5 tools, tier, the whole reply but its timings).

    python scripts/speed_compare.py --a /work/main --b . [--n 1804] [--chunk 50] [--rounds 1]

Each checkout runs in its own process (PYTHONPATH set to it): the catalog is imported into a
temporary lexicon root, the router built (import + build seconds), then the driver hands both the
same chunks of dev questions in turn. Printed: wall and CPU (time.process_time) p50 / p99 per
question for each, the ratio B/A of the medians, peak RSS, and how many answers differ. As in
`bench --zero-shot`, a route repeating the question just routed is answered and compared but not timed.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve()

WORKER = r"""
import json, resource, shutil, sys, tempfile, time
from pathlib import Path
t0 = time.perf_counter()
from routing.core.lexicon import load_domain
from routing.core.router import Router
from routing.quality.tool_import import import_tool_catalog
from routing.quality.zero_shot import default_data, load_questions, seal_tools_as_openai
import routing
code = Path(routing.__file__).resolve().parents[1]
data = default_data()
tmp = Path(tempfile.mkdtemp(prefix="speed-compare-"))
shutil.copytree(code / "lexicons" / "_shared", tmp / "_shared")
(tmp / "catalog.json").write_text(json.dumps(seal_tools_as_openai(data / "tool.jsonl")), encoding="utf-8")
t1 = time.perf_counter()
import_tool_catalog(tmp / "catalog.json", "zeroshot", root=tmp)
router = Router(load_domain("zeroshot", tmp))
t2 = time.perf_counter()
questions = [q for q, _ in load_questions(data, "dev")]
print(json.dumps({"ready": True, "import_build_s": round(t2 - t1, 2), "imports_s": round(t1 - t0, 2),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "n": len(questions)}), flush=True)
def strip(d):
    if isinstance(d, dict):
        return {k: strip(v) for k, v in d.items() if k not in ("timing_ms", "events")}
    if isinstance(d, list):
        return [strip(v) for v in d]
    if isinstance(d, float):
        return round(d, 9)
    return d
last = [None]  # the question this worker routed last
for line in sys.stdin:
    lo, hi = json.loads(line)
    rows = []
    for i in range(lo, hi):
        s, c = time.perf_counter(), time.process_time()
        r = router.route(questions[i], today="2026-01-22")
        wall, cpu = (time.perf_counter() - s) * 1000, (time.process_time() - c) * 1000
        d = r.to_dict()
        # "fresh": a question other than the one before (routing.quality.zero_shot.fresh_routes): only those are timed
        fresh, last[0] = questions[i] != last[0], questions[i]
        rows.append({"i": i, "wall": wall, "cpu": cpu, "fresh": fresh,
                     "top5": [c["name"] for c in r.candidates[:5]],
                     "tier": r.status.value, "reply": json.dumps(strip(d), sort_keys=True, default=str)})
    print(json.dumps({"rows": rows, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), flush=True)
shutil.rmtree(tmp, ignore_errors=True)
"""


def start(code: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(code), PYTHONDONTWRITEBYTECODE="1")  # the other checkout is only read
    return subprocess.Popen([sys.executable, "-c", WORKER], cwd=str(code), env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def ask(p: subprocess.Popen, lo: int, hi: int) -> dict:
    p.stdin.write(json.dumps([lo, hi]) + "\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", default="/work/main", help="the reference checkout")
    ap.add_argument("--b", default=str(HERE.parents[1]), help="the checkout measured against it")
    ap.add_argument("--n", type=int, default=0, help="questions (0: all dev)")
    ap.add_argument("--chunk", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=1, help="times each question is routed (answers compared on the first)")
    ap.add_argument("--show", type=int, default=5, help="differing answers to print")
    args = ap.parse_args()
    procs = {k: start(Path(getattr(args, k)).resolve()) for k in ("a", "b")}
    ready = {k: json.loads(p.stdout.readline()) for k, p in procs.items()}
    n = args.n or ready["a"]["n"]
    wall = {k: [] for k in procs}
    cpu = {k: [] for k in procs}
    first: dict[str, dict[int, dict]] = {k: {} for k in procs}
    rss = {k: ready[k]["rss_mb"] for k in procs}
    flip = False
    for rnd in range(args.rounds):
        for lo in range(0, n, args.chunk):
            hi = min(n, lo + args.chunk)
            order = ("b", "a") if flip else ("a", "b")
            flip = not flip
            for k in order:
                got = ask(procs[k], lo, hi)
                rss[k] = got["rss_mb"]
                for row in got["rows"]:
                    if row["fresh"]:  # a repeat of the question just routed is not timed (bench --zero-shot's rule)
                        wall[k].append(row["wall"])
                        cpu[k].append(row["cpu"])
                    if rnd == 0:
                        first[k][row["i"]] = row
    for p in procs.values():
        p.stdin.close()
        p.wait()
    out = {"questions": n, "rounds": args.rounds}
    for k in procs:
        out[k] = {"code": getattr(args, k), "import_build_s": ready[k]["import_build_s"], "peak_rss_mb": round(rss[k], 1),
                  "wall_p50_ms": round(statistics.median(wall[k]), 3), "wall_p99_ms": round(pct(wall[k], 0.99), 3),
                  "cpu_p50_ms": round(statistics.median(cpu[k]), 3), "cpu_p99_ms": round(pct(cpu[k], 0.99), 3),
                  "cpu_mean_ms": round(statistics.fmean(cpu[k]), 3)}
    out["ratio_b_over_a"] = {m: round(out["b"][m] / out["a"][m], 3) for m in ("wall_p50_ms", "cpu_p50_ms", "cpu_mean_ms", "wall_p99_ms")}
    top5 = [i for i in range(n) if first["a"][i]["top5"] != first["b"][i]["top5"]]
    tier = [i for i in range(n) if first["a"][i]["tier"] != first["b"][i]["tier"]]
    reply = [i for i in range(n) if first["a"][i]["reply"] != first["b"][i]["reply"]]
    out["differ"] = {"top5": len(top5), "tier": len(tier), "reply": len(reply)}
    print(json.dumps(out, indent=1))
    for i in reply[: args.show]:
        a, b = json.loads(first["a"][i]["reply"]), json.loads(first["b"][i]["reply"])
        keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        print(f"question {i}: differs in {keys}")
        for k in keys[:3]:
            print(f"  a.{k} = {json.dumps(a.get(k))[:300]}\n  b.{k} = {json.dumps(b.get(k))[:300]}")
    return 0 if not (top5 or tier) else 1


if __name__ == "__main__":
    sys.exit(main())
