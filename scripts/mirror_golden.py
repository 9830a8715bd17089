"""The mirror's measurement on lexicons/factory/golden.yaml (20 slang/noisy + 20 plain questions):
L1 hit rate raw (raw query vs raw sample questions) against mirrored (canonical query vs enriched
index), where each question ends (L0 / L1 / L2 / L3 / none), accuracy, latency per layer, and the LLM
calls saved (a question answered at L0, L1 or L2 needs no LLM call; L3 costs one).

    python scripts/mirror_golden.py [--golden lexicons/factory/heldout.yaml]

A file may hold only some of the parts (a held-out set has `slang:` alone).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    from routing import load_router

    ap = argparse.ArgumentParser()
    ap.add_argument("--golden", default=str(ROOT / "lexicons/factory/golden.yaml"), help="a file of slang:/plain: questions")
    args = ap.parse_args()
    router = load_router("factory")
    golden = yaml.safe_load(Path(args.golden).read_text())
    out = {"golden": args.golden}
    for part in ("slang", "plain"):
        if not golden.get(part):
            continue
        raw_l1 = mirrored_l1 = correct = 0
        layers: dict[str, int] = {}
        ms: dict[str, list[float]] = {}
        misses = []
        for case in golden[part]:
            q, want = case["q"], case["expect"]
            near = router.nearest(q.lower(), raw=True)
            raw_l1 += near["distance"] < router.config.l1 and near["datasource"] == want
            mnear = router.nearest(router.route(q).to_dict()["canonical"])
            mirrored_l1 += mnear["distance"] < router.config.l1 and mnear["datasource"] == want
            times = []
            for _ in range(20):
                t = time.perf_counter()
                r = router.route(q, today=golden["today"]).to_dict()
                times.append((time.perf_counter() - t) * 1000)
            layer = r["layer"] or "none"
            layers[layer] = layers.get(layer, 0) + 1
            ms.setdefault(layer, []).append(statistics.median(times))
            correct += r["datasource"] == want
            if r["datasource"] != want:
                misses.append({"q": q, "canonical": r["canonical"], "got": r["datasource"], "layer": r["layer"], "want": want})
        n = len(golden[part])
        out[part] = {
            "n": n, "raw_l1_hits": raw_l1, "mirrored_l1_hits": mirrored_l1, "correct": correct, "layers": layers,
            "p50_ms_by_layer": {k: round(statistics.median(v), 3) for k, v in ms.items()},
            "llm_calls_saved": layers.get("L0", 0) + layers.get("L1", 0) + layers.get("L2", 0), "misses": misses,
        }
    out["thresholds"] = {"l1": router.config.l1, "l2": router.config.l2, "from": router.config.sources}
    out["encoder"], out["entries"] = router.encoder.name, len(router.entries)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
