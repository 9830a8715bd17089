"""Where the time of a route goes with the dense list: Seal-Tools (4,076 tools) imported, the router
built twice (the second reads `.dense.npy`), then N dev questions timed per stage: the whole route,
the question's forward pass alone, the cosine with the tool vectors and the top 20, and the
router without the dense list. `--encoder transformer` needs the built encoder (`python -m routing
build-encoder`); the default is the shipped token table.

    python scripts/dense_speed.py [--n 300] [--encoder static|transformer]
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from routing.core.lexicon import load_domain  # noqa: E402
from routing.core.router import Router  # noqa: E402
from routing.quality.tool_import import import_tool_catalog  # noqa: E402
from routing.quality.zero_shot import default_data, load_questions, seal_tools_as_openai  # noqa: E402


def stats(values: list[float]) -> dict:
    s = sorted(values)
    return {"p50_ms": round(statistics.median(s) * 1000, 2), "p99_ms": round(s[int(0.99 * (len(s) - 1))] * 1000, 2)}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=300)
    p.add_argument("--encoder", choices=("static", "transformer"), default="static",
                   help="the dense list's encoder (dense_encoder in the domain's settings)")
    args = p.parse_args()
    data = default_data()
    tmp = Path(tempfile.mkdtemp(prefix="dense-speed-"))
    out: dict = {}
    try:
        shutil.copytree(ROOT / "lexicons" / "_shared", tmp / "_shared")
        (tmp / "catalog.json").write_text(json.dumps(seal_tools_as_openai(data / "tool.jsonl")), encoding="utf-8")
        t0 = time.perf_counter()
        import_tool_catalog(tmp / "catalog.json", "speed", root=tmp)
        with open(tmp / "speed" / "settings.yaml", "a", encoding="utf-8") as f:
            f.write(f"dense_encoder: {args.encoder}\n")
        t1 = time.perf_counter()
        router = Router(load_domain("speed", tmp))
        t2 = time.perf_counter()
        again = Router(load_domain("speed", tmp))
        t3 = time.perf_counter()
        if router.dense is None:
            print(json.dumps({"error": router.dense_off or "no dense list"}))
            return 2
        out.update(import_s=round(t1 - t0, 2), build_s=round(t2 - t1, 2), vectors=router.describe()["confidence"]["dense"]["vectors"],
                   build_again_s=round(t3 - t2, 2), again_vectors=again.describe()["confidence"]["dense"]["vectors"])
        questions = [q for q, _ in load_questions(data, "dev")][: args.n]
        enc = router.dense.encoder
        stages: dict[str, list[float]] = {"route": [], "question_forward_pass": [], "cosine_and_top": []}
        for q in questions:
            s = time.perf_counter()
            router.route(q, today="2026-01-22")
            stages["route"].append(time.perf_counter() - s)
            enc._last = None  # time the forward pass itself, not the one-text memo
            s = time.perf_counter()
            enc.encode([q])
            stages["question_forward_pass"].append(time.perf_counter() - s)
            s = time.perf_counter()
            router.dense.rank(q)  # the question's vector is memoised: the matrix product and the top
            stages["cosine_and_top"].append(time.perf_counter() - s)
        lexical = Router(load_domain("speed", tmp), dense=False)
        stages["route_without_dense"] = []
        for q in questions:
            s = time.perf_counter()
            lexical.route(q, today="2026-01-22")
            stages["route_without_dense"].append(time.perf_counter() - s)
        out["stages"] = {k: stats(v) for k, v in stages.items()}
        out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
