"""Measure the router on the public data sets in ../shared/data, one command per target:

    python scripts/measure.py banking77       # Banking77: import train.csv, route test.csv: top-1, top-3
    python scripts/measure.py banking77-oos   # in-scope accuracy, id_oos recall, precision of activated
    python scripts/measure.py hwu64           # HWU64 test questions against the banking77-oos domain: rejected share
    python scripts/measure.py calibration     # ECE of every built-in domain and of banking77-oos

Each imports into a temporary lexicon root (a copy of lexicons/_shared), so nothing in lexicons/
changes. The data sets are for measuring only: nothing here feeds words back into a lexicon.
Prints one JSON object; `--data DIR` points at another copy of the data.
"""
from __future__ import annotations

import argparse
import csv
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from routing.core.router import Router  # noqa: E402
from routing.core.schema import Status  # noqa: E402
from routing.quality.importer import import_labelled_csv, read_queries, relabel_cases  # noqa: E402

DATA = ROOT.parent.parent / "shared" / "data" if (ROOT.parent.parent / "shared" / "data").is_dir() else Path("/work/shared/data")
TRAIN_ONLY = False  # --train-only: import train.csv without the negatives (the figure issue 14 started from)
SHOWN = {Status.ACTIVATED, Status.MULTIPLE_MATCHES, Status.WEAK_MATCHES}


def _root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="measure."))
    shutil.copytree(ROOT / "lexicons" / "_shared", root / "_shared")
    return root


def _cases(path: Path, router: Router):
    return relabel_cases(router.domain, read_queries(path.read_bytes(), is_csv=True, text_col="text", label_col="category"))


def _concat(out: Path, *files: Path) -> Path:
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["text", "category"])
        for src in files:
            with src.open(encoding="utf-8-sig", newline="") as g:
                for row in csv.DictReader(g):
                    w.writerow([row["text"], row["category"]])
    return out


def _route_all(router: Router, cases) -> list:
    return [(c, router.route(c.query, today="2026-01-22")) for c in cases]


def banking77(data: Path) -> dict:
    root = _root()
    t0 = time.perf_counter()
    import_labelled_csv(data / "banking77" / "train.csv", "banking77", root=root, holdout=0.1)
    router = Router.load("banking77", root)
    build_s = time.perf_counter() - t0
    routed = _route_all(router, _cases(data / "banking77" / "test.csv", router))
    n = len(routed)
    top1 = sum(r.ranked_candidates[0]["name"] == c.tool for c, r in routed if r.ranked_candidates) / n
    top3 = sum(c.tool in [x["name"] for x in r.ranked_candidates[:3]] for c, r in routed) / n
    shutil.rmtree(root, ignore_errors=True)
    return {"target": "banking77", "n": n, "top1": round(top1, 4), "top3": round(top3, 4), "import_and_build_s": round(build_s, 2)}


def _oos_router(data: Path, root: Path) -> Router:
    d = data / "banking77-oos"
    # The out-of-scope training rows are negatives (label `oos`): the importer keeps them apart.
    extra = [] if TRAIN_ONLY else [d / "id_oos_train.csv"]
    train = _concat(root / "train+oos.csv", d / "train.csv", *extra)
    import_labelled_csv(train, "banking77oos", root=root, holdout=0.1)
    return Router.load("banking77oos", root)


def banking77_oos(data: Path) -> dict:
    root = _root()
    t0 = time.perf_counter()
    router = _oos_router(data, root)
    build_s = time.perf_counter() - t0
    d = data / "banking77-oos"
    ins = _route_all(router, _cases(d / "test.csv", router))
    oos = _route_all(router, _cases(d / "id_oos_test.csv", router))
    right = sum(r.status in SHOWN and r.top is not None and r.top.name == c.tool for c, r in ins)
    top1 = sum(bool(r.ranked_candidates) and r.ranked_candidates[0]["name"] == c.tool for c, r in ins)
    rejected = sum(r.status not in SHOWN for _, r in oos)
    activated = [(c, r) for c, r in ins + oos if r.status is Status.ACTIVATED]
    act_right = sum(c.tool == r.top.name for c, r in activated)
    shutil.rmtree(root, ignore_errors=True)
    return {
        "target": "banking77-oos",
        "in_scope_n": len(ins),
        "in_scope_accuracy": round(right / len(ins), 4),
        "in_scope_top1_any_tier": round(top1 / len(ins), 4),
        "oos_n": len(oos),
        "oos_recall": round(rejected / len(oos), 4),
        "activated_n": len(activated),
        "activated_precision": round(act_right / len(activated), 4) if activated else None,
        "status_in_scope": _counts(r for _, r in ins),
        "status_oos": _counts(r for _, r in oos),
        "import_and_build_s": round(build_s, 2),
    }


def hwu64(data: Path) -> dict:
    root = _root()
    router = _oos_router(data, root)
    routed = _route_all(router, read_queries((data / "hwu64" / "test.csv").read_bytes(), is_csv=True))
    rejected = sum(r.status not in SHOWN for _, r in routed)
    shutil.rmtree(root, ignore_errors=True)
    return {"target": "hwu64-vs-banking", "n": len(routed), "rejected": round(rejected / len(routed), 4), "status": _counts(r for _, r in routed)}


def calibration(data: Path) -> dict:
    from routing.core.calibration import reliability
    from routing.quality.evaluate import load_golden

    out = {}
    for name, files in (("accounting", ["golden.yaml", "heldout.yaml", "heldout2.yaml"]), ("cfo", ["golden.yaml"])):
        router = Router.load(name, ROOT / "lexicons")
        cases = [c for f in files for c in load_golden(ROOT / "lexicons" / name / f)]
        out[name] = reliability(router, cases)
    root = _root()
    router = _oos_router(data, root)
    d = data / "banking77-oos"
    cases = _cases(d / "test.csv", router) + [c.__class__(query=c.query, line=c.line, status="not_found") for c in _cases(d / "id_oos_test.csv", router)]
    out["banking77oos"] = reliability(router, cases)
    shutil.rmtree(root, ignore_errors=True)
    for v in out.values():
        v.pop("bins", None)
    return {"target": "calibration", **out}


def _counts(results) -> dict:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status.value] = counts.get(r.status.value, 0) + 1
    return dict(sorted(counts.items()))


TARGETS = {"banking77": banking77, "banking77-oos": banking77_oos, "hwu64": hwu64, "calibration": calibration}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("target", choices=sorted(TARGETS))
    p.add_argument("--data", type=Path, default=DATA)
    p.add_argument("--train-only", action="store_true", help="import the in-scope rows only, without negatives")
    p.add_argument("--lexical-only", action="store_true", help="imported domains without the semantic (embedding) and learned signals")
    p.add_argument("--without-learned", action="store_true", help="imported domains without the learned signal (the weights of small imports)")
    args = p.parse_args(argv)
    global TRAIN_ONLY
    TRAIN_ONLY = args.train_only
    if args.lexical_only:  # the signals issue 14 measured with: words and examples, no embeddings
        import routing.quality.importer as importer

        importer.IMPORTED_WEIGHTS = {**importer.IMPORTED_WEIGHTS, "example": 1.0, "semantic": 0.0}
        importer.IMPORTED_WEIGHTS_LEARNED = importer.IMPORTED_WEIGHTS
    elif args.without_learned:  # issue 13's first measurement: words, examples and embeddings
        import routing.quality.importer as importer

        importer.IMPORTED_WEIGHTS_LEARNED = importer.IMPORTED_WEIGHTS
    if not args.data.is_dir():
        print(f"no data folder at {args.data}", file=sys.stderr)
        return 2
    print(json.dumps(TARGETS[args.target](args.data), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
