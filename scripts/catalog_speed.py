"""Where the time of a route goes in a large catalog, the lexical router alone (no dense list):
Seal-Tools (4,076 tools) imported and built, then N dev questions routed R times. Each question's
time is the best of its R passes (timeit's rule: on a machine shared with other work, the other
passes measure the neighbours), and before every pass the router's word caches are emptied, so each
pass sees every word for the first time, as the bench's single pass does. Stages: the whole route,
the query's analysis (of which date finding), the scoring (of which the tool documents).

    python scripts/catalog_speed.py [--n 400] [--repeat 5]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from routing.core.lexicon import load_domain  # noqa: E402
from routing.core.router import Router  # noqa: E402
from routing.core.scoring import score_example  # noqa: E402
from routing.dates import find_dates  # noqa: E402
from routing.quality.tool_import import import_tool_catalog  # noqa: E402
from routing.quality.zero_shot import default_data, load_questions, seal_tools_as_openai  # noqa: E402

TODAY = date(2026, 1, 22)


def forget_words(router: Router) -> None:
    """Empty the per-router word caches (typo corrections, real words, word forms)."""
    ix = router.index
    for cache in (ix._correction_cache, ix._real_word_cache, getattr(ix.stems, "_cache", {}), ix.unit_words,
                  *(c for pair in ix.word_readings.values() for c in pair)):
        cache.clear()


def best_of(questions: list[str], run, repeat: int, before=None) -> dict:
    best = [float("inf")] * len(questions)
    for _ in range(repeat):
        if before is not None:
            before()
        for i, q in enumerate(questions):
            s = time.perf_counter()
            run(q)
            best[i] = min(best[i], (time.perf_counter() - s) * 1000)
    best.sort()
    return {"p50_ms": round(statistics.median(best), 3), "p99_ms": round(best[int(0.99 * (len(best) - 1))], 3),
            "mean_ms": round(sum(best) / len(best), 3)}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=400)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    data = default_data()
    tmp = Path(tempfile.mkdtemp(prefix="catalog-speed-"))
    try:
        shutil.copytree(ROOT / "lexicons" / "_shared", tmp / "_shared")
        (tmp / "catalog.json").write_text(json.dumps(seal_tools_as_openai(data / "tool.jsonl")), encoding="utf-8")
        t0, c0 = time.perf_counter(), time.process_time()
        import_tool_catalog(tmp / "catalog.json", "seal", root=tmp)
        router = Router(load_domain("seal", tmp), dense=False)
        build = {"import_build_s": round(time.perf_counter() - t0, 2), "import_build_cpu_s": round(time.process_time() - c0, 2)}
        questions = [q for q, _ in load_questions(data, "dev")[: args.n]]
        analysed = {q: router.index.analyze(q, today=TODAY) for q in questions}
        ix = router.index
        out = {
            "questions": len(questions), "repeat": args.repeat, **build,
            "load_average": round(os.getloadavg()[0], 1),
            "route": best_of(questions, lambda q: router.route(q, today=TODAY), args.repeat, lambda: forget_words(router)),
            "analysis": best_of(questions, lambda q: ix.analyze(q, today=TODAY), args.repeat, lambda: forget_words(router)),
            "date_finding": best_of(questions, lambda q: find_dates(analysed[q].text, today=TODAY, settings=ix.date_settings,
                                                                    lexicon=ix.date_lexicon), args.repeat),
            "scoring": best_of(questions, lambda q: router.score(analysed[q]), args.repeat),
            "tool_documents": best_of(questions, lambda q: score_example(analysed[q], ix), args.repeat),
        }
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
