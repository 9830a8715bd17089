"""Benchmarks of `python -m routing coverage` (figures for the README; not unit tests).

    python scripts/coverage_bench.py generate --n 1000000 --out /tmp/cov/q1m.csv   # questions with paraphrase noise
    python scripts/coverage_bench.py scaling --file /tmp/cov/q20k.csv               # 1 vs 2 local workers, and the machine's ceiling
    python scripts/coverage_bench.py ceiling --file /tmp/cov/q20k.csv               # the same routing in 1 vs 2 bare processes
    python scripts/coverage_bench.py run --file /tmp/cov/q1m.csv --workers 2        # end to end, peak RSS
    python scripts/coverage_bench.py ray --file /tmp/cov/q20k.csv                   # Ray overhead vs local
    python scripts/coverage_bench.py purity --data ../shared/data/banking77         # topic purity

Generated questions: the shipped golden corpora's questions (accounting's, and a share from the
other domains' corpora, which accounting does not cover, so the run has topics to find), each
changed by language-free noise: a letter swapped / dropped / doubled, two neighbour words swapped,
a word dropped, the case changed; with a time over 90 days.
Every run goes through the real command in a subprocess; RSS is the sum over the process tree
(the command and its pool workers), sampled every 0.2 s. Each run states the load average (1 min)
before and after it: on a shared machine a figure taken under load says little.

`ceiling`: what 2 processes can give on this machine at all: the same questions routed by
`route_rows` in one bare process, then split (alternate chunks) between two bare processes running
at once (no pool, no files, no parent). Two CPU-bound Python processes on 2 virtual CPUs rarely
reach 2x (caches and the host's scheduling are shared); the engine's ratio is compared with it.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import random
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def golden_questions(domain: str) -> list[str]:
    """The domain's shipped corpora: golden.yaml and any held-out set (heldout*.yaml)."""
    from routing.quality.evaluate import load_golden

    folder = ROOT / "lexicons" / domain
    paths = sorted(folder.glob("golden*.yaml")) + sorted(folder.glob("heldout*.yaml"))
    return [c.query for p in paths for c in load_golden(p)]


def noisy(q: str, rng: random.Random) -> str:
    words = q.split()
    op = rng.random()
    if op < 0.2 and words:  # a typo in a longer word
        i = rng.randrange(len(words))
        w = words[i]
        if len(w) > 4:
            j = rng.randrange(1, len(w) - 1)
            kind = rng.randrange(3)
            w = w[:j] + w[j + 1] + w[j] + w[j + 2:] if kind == 0 else (w[:j] + w[j + 1:] if kind == 1 else w[:j] + w[j] + w[j:])
            words[i] = w
    elif op < 0.35 and len(words) > 2:  # neighbours swapped
        i = rng.randrange(len(words) - 1)
        words[i], words[i + 1] = words[i + 1], words[i]
    elif op < 0.5 and len(words) > 3:  # a word dropped
        words.pop(rng.randrange(len(words)))
    elif op < 0.6:
        return q.upper() if rng.random() < 0.3 else q.capitalize()
    return " ".join(words)


def cmd_generate(args) -> None:
    t0 = time.perf_counter()
    rng = random.Random(args.seed)
    own = golden_questions(args.domain)
    others = [q for d in ("football", "powers", "factory", "cfo") if d != args.domain for q in golden_questions(d)]
    start = date(2026, 1, 1)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["text", "asked"])
        for i in range(args.n):
            base = rng.choice(others) if (others and rng.random() < args.foreign) else rng.choice(own)
            day = start + timedelta(days=int(90 * i / args.n))
            text = base
            for _ in range(rng.randrange(1, 4)):  # one to three edits
                text = noisy(text, rng)
            w.writerow([text, f"{day.isoformat()}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:00"])
    print(json.dumps({"file": str(out), "rows": args.n, "domain": args.domain, "base_questions": len(own), "foreign_share": args.foreign,
                      "seconds": round(time.perf_counter() - t0, 1), **repeat_shares(str(out))}))


def repeat_shares(path: str) -> dict:
    """How much of the file repeats: distinct (question, day) pairs (what --route-cache routes),
    distinct questions whatever the day, and per chunk (what every run routes)."""
    pairs: set = set()
    texts: set = set()
    n = 0
    with open(path, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            pairs.add((r["text"], r["asked"][:10]))
            texts.add(r["text"])
            n += 1
    return {"distinct_question_day_share": round(len(pairs) / max(1, n), 4), "distinct_question_share": round(len(texts) / max(1, n), 4),
            "routed_share_per_chunk": distinct_share(path)}


def distinct_share(path: str, chunk_rows: int = 5000) -> float:
    """The share of rows the router really routes (a question asked again the same day within a
    chunk is routed once)."""
    routed = n = 0
    with open(path, encoding="utf-8") as f:
        rows = csv.DictReader(f)
        seen: set = set()
        for i, r in enumerate(rows):
            if i % chunk_rows == 0:
                routed += len(seen)
                seen = set()
            seen.add((r["text"], r["asked"][:10]))
            n += 1
        routed += len(seen)
    return round(routed / max(1, n), 3)


def tree_rss(pid: int) -> int:
    """Resident memory (bytes) of a process and all its descendants."""
    total = 0
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(open(f"/proc/{d}/stat").read().rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(d))
            except (OSError, IndexError, ValueError):
                pass
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            for line in open(f"/proc/{p}/status"):
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
        todo += kids.get(p, [])
    return total


def load1() -> float:
    return round(os.getloadavg()[0], 2)


def run_command(argv: list[str]) -> dict:
    """Run the coverage command; wall time, peak tree RSS and its summary."""
    import resource

    load_before = load1()
    t0 = time.perf_counter()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([sys.executable, "-m", "routing", *argv, "--quiet"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.2)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)  # the command and its (reaped) pool workers
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {err[-2000:]}")
    brief = json.loads(out)
    summary = json.loads((Path(brief["out"]) / "summary.json").read_text())
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "cpu_ms_per_question": round(1000 * cpu / summary["rows"], 3),
            "cpu_share_used": round(cpu / wall, 2), "peak_rss_mb": round(peak / 2**20), "rows": summary["rows"], "routing_qps": summary["throughput_qps"],
            "end_to_end_qps": round(summary["rows"] / wall, 1), "topics_s": summary.get("topics_s"), "uncovered": summary["uncovered"],
            "topics": len(summary.get("topics", [])), "workers": summary["workers"], "engine": summary["engine"],
            "routed_questions": summary.get("routed_questions"), "repeat_share": summary.get("repeat_share"), "route_cache": summary.get("route_cache"),
            "load_before": load_before, "load_after": load1()}


def base_args(args, out: str, workers: int, engine: str = "local", topics: bool = False) -> list[str]:
    a = ["coverage", args.file, "--domain", args.domain, "--today", "2026-01-22", "--out", out, "--time-col", "asked",
         "--workers", str(workers), "--engine", engine]
    if getattr(args, "route_cache", False):
        a.append("--route-cache")
    return a if topics else a + ["--no-topics"]


def fresh(path: str) -> str:
    import shutil

    shutil.rmtree(path, ignore_errors=True)
    return path


def cmd_scaling(args) -> None:
    """1 and 2 workers, alternated `--repeat` times (other jobs on a shared machine come and go):
    each run's throughput, and the ratio of the best runs and of the medians."""
    import statistics

    runs: dict[int, list[dict]] = {1: [], 2: []}
    for _ in range(args.repeat):
        for w in (1, 2):
            r = run_command(base_args(args, fresh(f"/tmp/cov-bench/scale-{w}"), w))
            r["load"] = os.getloadavg()[0]
            runs[w].append(r)
    best = {w: max(r["end_to_end_qps"] for r in rs) for w, rs in runs.items()}
    med = {w: statistics.median(r["end_to_end_qps"] for r in rs) for w, rs in runs.items()}
    report = {"file": args.file, "route_cache": args.route_cache, "routed_share_per_chunk": distinct_share(args.file), "runs": runs,
              "ratio_best": round(best[2] / best[1], 2), "ratio_median": round(med[2] / med[1], 2)}
    if args.ceiling:
        report["ceiling"] = ceiling(args.file, args.domain, args.ceiling_rows)
        report["engine_share_of_ceiling"] = round(report["ratio_best"] / report["ceiling"]["ratio"], 2)
    print(json.dumps(report, indent=1))


def ceiling(path: str, domain: str, rows: int) -> dict:
    """The first `rows` questions routed by one bare process, then by two at once (alternate chunks)."""
    def go(parts: int) -> list[dict]:
        procs = [subprocess.Popen([sys.executable, __file__, "_route", "--file", path, "--domain", domain, "--rows", str(rows),
                                   "--part", f"{k}/{parts}"], cwd=ROOT, stdout=subprocess.PIPE, text=True) for k in range(parts)]
        return [json.loads(p.communicate()[0]) for p in procs]

    load_before = load1()
    one = go(1)
    two = go(2)
    wall1 = one[0]["route_s"]
    wall2 = max(r["route_s"] for r in two)
    cpu1 = one[0]["cpu_s"] / one[0]["routed"]
    cpu2 = sum(r["cpu_s"] for r in two) / sum(r["routed"] for r in two)
    return {"rows": rows, "one_process_s": wall1, "two_processes_s": wall2, "ratio": round(wall1 / wall2, 2),
            "cpu_ms_per_routed_question": {"1": round(1000 * cpu1, 3), "2": round(1000 * cpu2, 3)},
            "load_before": load_before, "load_after": load1()}


def cmd_route_part(args) -> None:
    """(internal, for `ceiling`) route part k of m of the file's first rows in this process."""
    from routing.quality.coverage_input import Columns, read_chunks
    from routing.quality.coverage_run import build_router_from, route_rows

    k, m = (int(x) for x in args.part.split("/"))
    router = build_router_from(ROOT / "lexicons", args.domain)
    chunks = [c for c in read_chunks(args.file, Columns(time="asked"), chunk_rows=1000) if c.start < args.rows and c.index % m == k]
    counts: dict = {}
    t0, c0 = time.perf_counter(), time.process_time()
    for c in chunks:
        route_rows(router, c.texts, c.labels, c.times, "2026-01-22", counts=counts)
    print(json.dumps({"route_s": round(time.perf_counter() - t0, 2), "cpu_s": round(time.process_time() - c0, 2), "routed": counts.get("routed", 0)}))


def cmd_ceiling(args) -> None:
    print(json.dumps(ceiling(args.file, args.domain, args.ceiling_rows), indent=1))


def cmd_run(args) -> None:
    res = run_command(base_args(args, fresh("/tmp/cov-bench/big"), args.workers, topics=True))
    res["load"] = os.getloadavg()
    res["routed_share_per_chunk"] = distinct_share(args.file)
    print(json.dumps(res, indent=1))


def cmd_ray(args) -> None:
    local = run_command(base_args(args, fresh("/tmp/cov-bench/ray-local"), 2))
    ray = run_command(base_args(args, fresh("/tmp/cov-bench/ray-ray"), 2, engine="ray"))
    print(json.dumps({"local": local, "ray": ray, "ray_overhead_s": round(ray["wall_s"] - local["wall_s"], 1), "load": os.getloadavg()}, indent=1))


def cmd_purity(args) -> None:
    """Import a domain from half of Banking77's intents (train.csv), route test.csv, group the
    uncovered questions, and measure how many fall in topics whose majority label is unknown."""
    import pyarrow.parquet as pq

    data = Path(args.data)
    rows = list(csv.DictReader((data / "train.csv").open(encoding="utf-8")))
    intents = sorted({r["category"] for r in rows})
    rng = random.Random(args.seed)
    known = set(rng.sample(intents, len(intents) // 2))
    work = Path("/tmp/cov-bench/b77")
    lex = work / "lexicons"
    import shutil

    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(ROOT / "lexicons" / "_shared", lex / "_shared")
    half = work / "train-half.csv"
    with half.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["text", "category"])
        w.writeheader()
        w.writerows({"text": r["text"], "category": r["category"]} for r in rows if r["category"] in known)
    subprocess.run([sys.executable, "-m", "routing", "--lexicons", str(lex), "import-csv", str(half), "--domain", "b77half"], cwd=ROOT, check=True, capture_output=True)
    test = data / args.split
    out = work / "run"
    load_before = load1()
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "routing", "--lexicons", str(lex), "coverage", str(test), "--domain", "b77half", "--out", str(out),
                    "--label-col", "category", "--today", "2026-01-22", "--quiet"], cwd=ROOT, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    summary = json.loads((out / "summary.json").read_text())
    results = pq.read_table(out / "results.parquet", columns=["row", "label", "status"]).to_pylist()
    topic_of = {r["row"]: r["topic"] for r in pq.read_table(out / "topics.parquet").to_pylist()}
    uncovered = [r for r in results if r["status"] in ("not_found", "weak_matches")]
    by_topic: dict[int, list[str]] = {}
    for r in uncovered:
        by_topic.setdefault(topic_of.get(r["row"], -1), []).append(r["label"])
    from collections import Counter

    in_unknown_topics = own_label = 0
    for t, labels in by_topic.items():
        if t < 0:
            continue
        majority, count = Counter(labels).most_common(1)[0]
        own_label += count  # questions whose topic's majority label is their own
        if majority not in known:
            in_unknown_topics += len(labels)
    unknown_share_of_uncovered = sum(r["label"] not in known for r in uncovered) / max(1, len(uncovered))
    print(json.dumps({
        "split": args.split, "known_intents": len(known), "questions": len(results), "uncovered": len(uncovered),
        "uncovered_of_unknown_intents": round(unknown_share_of_uncovered, 4),
        "topics": len([t for t in by_topic if t >= 0]), "in_no_topic": len(by_topic.get(-1, [])),
        "purity": round(in_unknown_topics / max(1, len(uncovered)), 4),
        "label_purity": round(own_label / max(1, len(uncovered)), 4),
        "largest_topic_share": round(max((len(v) for k, v in by_topic.items() if k >= 0), default=0) / max(1, len(uncovered)), 4),
        "unknown_intent_questions_routed_to_a_known_tool": sum(r["label"] not in known and r["status"] in ("activated", "multiple_matches") for r in results),
        "wall_s": round(wall, 1), "topics_s": summary.get("topics_s"), "load_before": load_before, "load_after": load1(),
    }, indent=1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--n", type=int, default=1_000_000)
    g.add_argument("--out", required=True)
    g.add_argument("--domain", default="accounting")
    g.add_argument("--foreign", type=float, default=0.1, help="share of questions from the other domains' corpora")
    g.add_argument("--seed", type=int, default=7)
    g.set_defaults(func=cmd_generate)
    for name, func in (("scaling", cmd_scaling), ("run", cmd_run), ("ray", cmd_ray), ("ceiling", cmd_ceiling)):
        s = sub.add_parser(name)
        s.add_argument("--file", required=True)
        s.add_argument("--domain", default="accounting")
        s.add_argument("--workers", type=int, default=2)
        s.add_argument("--repeat", type=int, default=2)
        s.add_argument("--route-cache", action="store_true", help="pass --route-cache to the command (local engine)")
        s.add_argument("--ceiling", action=argparse.BooleanOptionalAction, default=True, help="scaling: also measure the machine's ceiling")
        s.add_argument("--ceiling-rows", type=int, default=20000)
        s.set_defaults(func=func)
    rp = sub.add_parser("_route")
    rp.add_argument("--file", required=True)
    rp.add_argument("--domain", default="accounting")
    rp.add_argument("--rows", type=int, default=20000)
    rp.add_argument("--part", default="0/1")
    rp.set_defaults(func=cmd_route_part)
    pu = sub.add_parser("purity")
    pu.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "banking77"), help="from a worktree: /work/shared/data/banking77")
    pu.add_argument("--split", default="test.csv")
    pu.add_argument("--seed", type=int, default=0)
    pu.set_defaults(func=cmd_purity)
    args = p.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
