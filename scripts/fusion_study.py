"""The fusion study (issue 22): each dev set's two lists dumped once, every fusion tried offline on them.

    python scripts/fusion_study.py dump [--sets hwu64-k0 ... seal] [--split dev|test] --out DIR
    python scripts/fusion_study.py eval [--split dev|test] --out DIR

`dump` builds each set's domain as the benches do (scripts/dense_fewshot_bench.py, `bench --zero-shot`),
and keeps per question the lexical list (tool, raw sum) and the dense list (tool, cosine), 20 each, the
gold tool, and how many of the question's content words the catalog knows; and per catalog the same
lists for the synthetic questions the dense calibration makes at build (routing.semantic.dense_calibration),
so a per-catalog choice can be judged with no labelled question. `eval` prints, per set, top-1 of
each list alone, of the shipped rule (the policy chosen from the synthetic pseudo-questions) and of
the alternatives the README's "Fusion: which list leads" lists as tried (fixed z-score weights,
reciprocal rank fusion, a weight per question from each list's own lead, the known share squared),
and what the pseudo-questions' own top-1 under each fixed weight would have chosen.
"""
from __future__ import annotations

import argparse
import json
import pickle
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

TODAY = __import__("datetime").date(2026, 1, 22)
SETS = ("hwu64-k0", "hwu64-k1", "hwu64-k3", "banking77-k0", "banking77-k1", "banking77-k3", "seal")


def _router_for(name: str, split: str, tmp: Path):
    from dense_fewshot_bench import build, questions_for, rows  # noqa: E402

    from routing.core.lexicon import load_domain
    from routing.core.router import Router
    from routing.quality.importer import tool_name_for
    from routing.quality.zero_shot import default_data, load_questions, seal_tools_as_openai
    from routing.quality.tool_import import import_tool_catalog

    shutil.copytree(ROOT / "lexicons" / "_shared", tmp / "_shared")
    data = default_data()
    if name == "seal":
        catalog = tmp / "catalog.json"
        catalog.write_text(json.dumps(seal_tools_as_openai(data / "tool.jsonl")), encoding="utf-8")
        import_tool_catalog(catalog, "zeroshot", root=tmp)
        router = Router(load_domain("zeroshot", tmp))
        return router, load_questions(data, "dev" if split == "dev" else "test"), lambda g: g
    set_name, k = name.rsplit("-k", 1)
    folder = data.parent / set_name
    train = rows(folder / "train.csv")
    questions = questions_for(set_name, folder, split)
    dom = build(tmp, train, int(k))
    return Router(load_domain(dom, tmp)), questions, tool_name_for


def _coverage(a, index) -> dict:
    content = [u for u in a.units if u.role in ("concept", "literal", "action")]
    known = sum(u.role != "literal" or u.key in index.example_vocab or index._fold_example_key(u.key) is not None
                for u in content)
    return {"content": len(content), "known": known}


def dump(names: list[str], split: str, out: Path) -> None:
    import numpy as np

    from routing.semantic import dense_calibration as dc

    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        tmp = Path(tempfile.mkdtemp(prefix="fusion-study-"))
        try:
            t0 = time.perf_counter()
            router, questions, gold_name = _router_for(name, split, tmp)
            names_ = [t.name for t in router.index.tools]
            pos = {n: i for i, n in enumerate(names_)}
            rows_ = []
            for q, gold in questions:
                a = router.index.analyze(q, today=TODAY)
                f = router.fusion(a)
                rows_.append({"gold": pos.get(gold_name(gold), -1), "lexical": f.lexical, "ranked": f.ranked,
                              "ranked_as_written": router.dense.rank(q), "analysed": a.text,
                              **_coverage(a, router.index), "text": q})
            seed = 12345
            rng = np.random.default_rng(seed)
            held = dc.held_out_examples(router.domain, rng)
            synth = [{"gold": c["tool"], "kind": c["kind"], "held": bool(c.get("held")), "lexical": f.lexical, "ranked": f.ranked,
                      **_coverage(a, router.index), "text": c["text"]}
                     for c, a, f in dc.synthetic_fusions(router, rng, held)]
            with open(out / f"{name}-{split}.pkl", "wb") as fh:
                pickle.dump({"name": name, "split": split, "tools": len(names_), "questions": rows_, "synthetic": synth,
                             "has_examples": any(t.examples for t in router.domain.tools)}, fh)
            print(name, split, len(rows_), "questions", len(synth), "synthetic", round(time.perf_counter() - t0, 1), "s",
                  flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _top1(rows, pick) -> float:
    return round(100.0 * sum(pick(r) == r["gold"] for r in rows) / max(len(rows), 1), 1)


def _rrf(lexical, ranked, weight: float, k: int = 60):
    score: dict[int, float] = {}
    for w, lst in ((1.0, lexical), (weight, ranked)):
        for r, (t, _) in enumerate(lst):
            score[t] = score.get(t, 0.0) + w / (k + r + 1)
    return max(score, key=lambda t: (score[t], -t)) if score else None


def _lead(lst) -> float:
    import numpy as np

    if len(lst) < 2:
        return 1.0
    v = np.array([x for _, x in lst])
    return float((v[0] - v[1]) / (v.std() or 1.0))


def evaluate(out: Path, split: str) -> dict:
    from routing.semantic import dense as dn

    def best(fused):
        return max(fused, key=lambda t: (fused[t], -t)) if fused else None

    def known(r):
        return r["known"] / r["content"] if r["content"] else 0.0

    result = {}
    for path in sorted(out.glob(f"*-{split}.pkl")):
        with open(path, "rb") as fh:
            x = pickle.load(fh)
        rows = x["questions"]
        frag = [r for r in x["synthetic"] if r["kind"] == "pseudo-questions" and not r.get("held")]
        policy = dn.choose_policy(len(frag), sum(bool(r["lexical"]) and r["lexical"][0][0] == r["gold"] for r in frag),
                                  sum(bool(r["ranked"]) and r["ranked"][0][0] == r["gold"] for r in frag),
                                  dn.FusionPolicy(1.0 if x["has_examples"] else 0.0))
        row = {"lexical": _top1(rows, lambda r: r["lexical"][0][0] if r["lexical"] else None),
               "dense": _top1(rows, lambda r: r["ranked"][0][0] if r["ranked"] else None),
               "shipped": _top1(rows, lambda r: best(policy.fuse(r["lexical"], r["ranked"], known(r)))),
               "lead": policy.lead}
        for w in (0.3, 1.0, 3.0):
            row[f"z w{w}"] = _top1(rows, lambda r: best(dn.zfuse([(1.0, r["lexical"]), (w, r["ranked"])])))
            row[f"rrf w{w}"] = _top1(rows, lambda r: _rrf(r["lexical"], r["ranked"], w))
            row[f"z per-question lead w{w}"] = _top1(rows, lambda r: best(dn.zfuse([(_lead(r["lexical"]), r["lexical"]),
                                                                                    (w * _lead(r["ranked"]), r["ranked"])])))
        row["z known^2 w5"] = _top1(rows, lambda r: best(dn.zfuse([(known(r) ** 2, r["lexical"]), (5.0, r["ranked"])])))
        synth = [r for r in x["synthetic"] if r["gold"] is not None]
        by_weight = {w: _top1(synth, lambda r: best(dn.zfuse([(1.0, r["lexical"]), (w, r["ranked"])]))) for w in (0.3, 1.0, 3.0, 5.0)}
        row["synthetic top-1 by dense weight"] = by_weight
        result[x["name"]] = row
    return result


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("cmd", choices=("dump", "eval"))
    p.add_argument("--sets", nargs="+", default=list(SETS))
    p.add_argument("--split", choices=("dev", "test"), default="dev")
    p.add_argument("--out", default="/tmp/fusion-study")
    args = p.parse_args()
    if args.cmd == "eval":
        print(json.dumps(evaluate(Path(args.out), args.split), indent=1))
        return 0
    dump(args.sets, args.split, Path(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
