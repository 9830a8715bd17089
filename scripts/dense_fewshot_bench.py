"""The dense list where a domain has few or no examples: HWU64's 64 intents imported with k example
questions each (the first k of train.csv; k=0: known only by the intent's name, as a tool catalog),
the valid (or test) questions routed with and without the dense list, in one run.

    python scripts/dense_fewshot_bench.py [--k 0 1 3] [--split valid|test] [--limit N] [--encoder static|transformer]
    python scripts/dense_fewshot_bench.py --data ../shared/data/banking77 [--split valid|test]

Banking77 (77 intents; no valid split): its test.csv halved, decided before any measurement: the odd
rows (0-based) are the dev half (`--split valid`), the even rows the held-out test half (`--split test`).

`--encoder transformer` needs the built encoder (`python -m routing build-encoder`); `static` (the
default) is the shipped token table. `minilm_cosine` is the dense list's cosine alone, whichever encoder. Prints JSON: per k, top-1 / top-3 of the
router with the dense list, without it (the lexical signals alone) and of MiniLM cosine alone, the
tiers, and p50 per query.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from routing.core.lexicon import load_domain  # noqa: E402
from routing.core.router import Router  # noqa: E402
from routing.quality.importer import description_for, import_labelled_csv, tool_name_for  # noqa: E402
from routing.quality.tier_precision import tier_report  # noqa: E402
from routing.quality.tool_import import import_tool_catalog  # noqa: E402
from routing.quality.zero_shot import default_data  # noqa: E402


def rows(path: Path) -> list[tuple[str, str]]:
    with open(path, encoding="utf-8-sig") as f:
        return [(r["text"], r["category"]) for r in csv.DictReader(f)]


def questions_for(set_name: str, folder: Path, split: str) -> list[tuple[str, str]]:
    """The questions of a split. HWU64: valid.csv ("valid" or "dev") / test.csv. Banking77 has no
    valid split: its test.csv is halved, decided before any measurement, the odd rows (0-based) the
    dev half and the even rows the held-out test half."""
    if set_name == "banking77":
        every = rows(folder / "test.csv")
        return every[1::2] if split in ("valid", "dev") else every[0::2]
    return rows(folder / ("valid.csv" if split in ("valid", "dev") else "test.csv"))


def build(root: Path, train: list[tuple[str, str]], k: int) -> str:
    labels = sorted({c for _, c in train})
    if k == 0:
        tools = [{"type": "function", "function": {"name": tool_name_for(c), "description": description_for(c),
                                                   "parameters": {"type": "object", "properties": {}}}} for c in labels]
        (root / "catalog.json").write_text(json.dumps(tools), encoding="utf-8")
        import_tool_catalog(root / "catalog.json", "fewshot", root=root)
    else:
        by: dict[str, list[str]] = defaultdict(list)
        for text, c in train:
            if len(by[c]) < k:
                by[c].append(text)
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(["text", "category"])
        for c in labels:
            for text in by[c]:
                w.writerow([text, c])
        import_labelled_csv(buf.getvalue().encode("utf-8"), "fewshot", root=root, holdout=0.0)
    return "fewshot"


def measure(router: Router, questions: list[tuple[str, str]]) -> dict:
    top1 = top3 = 0
    outcomes = []
    times = []
    for q, gold in questions:
        s = time.perf_counter()
        r = router.route(q, today="2026-01-22")
        times.append((time.perf_counter() - s) * 1000)
        names = [c["name"] for c in r.candidates]
        gold_name = tool_name_for(gold)
        top1 += names[:1] == [gold_name]
        top3 += gold_name in names[:3]
        outcomes.append((r.status.value, names[:1] == [gold_name]))
    n = max(len(questions), 1)
    report = tier_report(outcomes)
    return {"top1": round(top1 / n, 4), "top3": round(top3 / n, 4), "tiers": report["tiers"],
            "precision_by_tier": report["precision"], "not_found_when_right_first": report["not_found_when_right_first"],
            "p50_ms": round(statistics.median(times), 2) if times else 0.0}


def measure_set(data: Path, train: list[tuple[str, str]], questions: list[tuple[str, str]], k: int, encoder: str) -> dict:
    """One data set at k examples an intent: the fused router, the same without the dense list, and
    the dense list's cosine alone, on the same questions; with the fusion's policy (which list leads)."""
    tmp = Path(tempfile.mkdtemp(prefix="dense-fewshot-"))
    try:
        shutil.copytree(ROOT / "lexicons" / "_shared", tmp / "_shared")
        name = build(tmp, train, k)
        with open(tmp / name / "settings.yaml", "a", encoding="utf-8") as f:
            f.write(f"dense_encoder: {encoder}\n")
        domain = load_domain(name, tmp)
        t0 = time.perf_counter()
        fused = Router(domain)
        build_s = round(time.perf_counter() - t0, 2)
        if fused.dense is None:
            return {"error": "no dense list: " + (fused.dense_off or "the domain has enough examples")}
        row = {"examples_per_intent": k, "build_s": build_s, "dense": fused.describe()["confidence"]["dense"],
               "with_dense": measure(fused, questions), "without_dense": measure(Router(domain, dense=False), questions)}
        d1 = d3 = 0
        for q, gold in questions:
            ranked = [fused.index.tools[t].name for t, _ in fused.dense.rank(q, 3)]
            d1 += ranked[:1] == [tool_name_for(gold)]
            d3 += tool_name_for(gold) in ranked
        row["minilm_cosine"] = {"top1": round(d1 / len(questions), 4), "top3": round(d3 / len(questions), 4)}
        return row
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--data", default=str(default_data().parent / "hwu64"),
                   help="a folder with train.csv and valid.csv / test.csv (hwu64), or banking77 (its test.csv halved: "
                        "odd rows the dev half, even rows the held-out test half)")
    p.add_argument("--k", type=int, nargs="+", default=[0, 1, 3])
    p.add_argument("--split", choices=("valid", "test"), default="valid")
    p.add_argument("--limit", type=int)
    p.add_argument("--encoder", choices=("static", "transformer"), default="static",
                   help="the dense list's encoder (the domain's dense_encoder setting; static: the shipped token table)")
    p.add_argument("--brief", action="store_true", help="top-1 / top-3 and tiers only (no describe())")
    args = p.parse_args()
    data = Path(args.data)
    train = rows(data / "train.csv")
    set_name = "banking77" if "banking77" in data.name else data.name
    questions = questions_for(set_name, data, args.split)[: args.limit]
    out = {"data": str(data), "split": args.split, "questions": len(questions)}
    for k in args.k:
        row = measure_set(data, train, questions, k, args.encoder)
        if args.brief and "dense" in row:
            row["dense"] = {"policy": row["dense"].get("policy")}
        out[f"k{k}"] = row
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
