"""`python -m routing bench`: latency per query (p50, p99) per domain and for synthetic catalogs.

Measured, never asserted in unit tests (these machines are noisy). Each domain's golden queries
are routed repeatedly after a warm-up, then 20,000 times in a row as a long-running app would
(`sequential`: p99, max, routes over 10 ms, garbage-collector pauses, memory); the synthetic catalogs (1,000 and 10,000 tools built in
memory from made-up words, with synonyms, examples and typos in the queries) show how routing
scales with the catalog, and how long the index takes to build.

Every domain row says its `design`, whether the semantic (embedding) signal is on and with which
`encoder`. Each shipped `tools` domain without that signal is benched a second time with it
switched on (row "<name>+semantic", weight SEMANTIC_WEIGHT, as imported domains have it), and
`import_csv` benches a labelled CSV imported into a temporary root (row "imported:<name>", and
"imported:<name>-semantic" with that signal off).
"""
from __future__ import annotations

import random
import shutil
import statistics
import string
import tempfile
import time
from pathlib import Path

from routing.quality.evaluate import load_golden, percentile, run_cases
from routing.core.lexicon import SHARED_DIR, domain_from_data, list_domain_names, load_domain, load_shared_words
from routing.core.model import Domain
from routing.core.router import Router
from routing.designs import build_router
from routing.quality.importer import IMPORTED_WEIGHTS

TODAY = "2026-01-22"
SEMANTIC_WEIGHT = IMPORTED_WEIGHTS["semantic"]  # the "+semantic" rows weigh it as an imported domain does


QUICK_SECONDS = 8.0  # --quick: a domain's sequential routes stop after this long (100 at least)


def golden_queries(path: Path) -> list[str]:
    """The questions of a golden file (its `cases:`, `negative:` and the mirror's `slang:` / `plain:`)."""
    return [c.query for c in load_golden(path)] if path.is_file() else []


def golden_accuracy(router, path: Path) -> dict:
    """Top-1 and tier accuracy on the golden file, by evaluate.accuracy (the figures eval and Coverage show)."""
    if not path.is_file():
        return {}
    m = run_cases(router, load_golden(path), default_today=TODAY).metrics()
    return {"golden_top1": m["top1"], "golden_tier_accuracy": m["tier_accuracy"]}


def semantic_info(router) -> dict:
    """Which signal a row measured: the design, whether embeddings take part, and the encoder.
    `semantic_weight` is the scoring weight where the design scores with routing.core (tools, and
    power_gateway around it); the mirror embeds by design and has none."""
    scorer = router if isinstance(router, Router) else getattr(router, "router", None)
    encoder = getattr(scorer if isinstance(scorer, Router) else router, "encoder", None)
    if encoder is not None and not hasattr(encoder, "name"):
        encoder = getattr(encoder, "encoder", None)  # the scoring signal keeps a SemanticIndex holding it
    weight = router.domain.settings.weights.semantic if isinstance(scorer, Router) else None
    return {"design": router.design, "semantic": encoder is not None, "semantic_weight": weight,
            "encoder": getattr(encoder, "name", None)}


def with_semantic(domain: Domain, weight: float = SEMANTIC_WEIGHT) -> Domain:
    """The same domain with the semantic signal weighed `weight` (as scripts/banking77_compare.py)."""
    return domain.with_weights(semantic=weight)


def _time_queries(router: Router, queries: list[str], rounds: int) -> dict:
    for q in queries[:50]:
        router.route(q, today=TODAY)  # warm caches (typo corrections, lazy imports)
    times = []
    for _ in range(rounds):
        for q in queries:
            t0 = time.perf_counter()
            router.route(q, today=TODAY)
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "queries": len(queries),
        "routed": len(times),
        "p50_ms": round(percentile(times, 50), 3),
        "p99_ms": round(percentile(times, 99), 3),
        "mean_ms": round(statistics.fmean(times), 3),
    }


def _word(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(n))


def synthetic_domain(n_tools: int, root: Path, seed: int = 7):
    """A catalog of n_tools tools over made-up words: each tool has 2 keywords (canonical terms
    with 2 variants each), 1 related term and 3 example questions; 5% of tools share keywords."""
    rng = random.Random(seed)
    n_terms = max(50, n_tools // 2)
    terms = sorted({_word(rng, rng.randint(5, 9)) for _ in range(n_terms * 2)})[:n_terms]
    synonyms = {t: [_word(rng, rng.randint(5, 9)), _word(rng, rng.randint(5, 9))] for t in terms}
    fillers = [_word(rng, rng.randint(4, 8)) for _ in range(300)]
    kinds = ["list", "search", "summary", "report"]
    tools = []
    for i in range(n_tools):
        kw = rng.sample(terms, 2)
        examples = [" ".join([rng.choice(synonyms[kw[0]] + [kw[0]]), kw[1]] + rng.sample(fillers, 3)) for _ in range(3)]
        tools.append(
            {
                "name": f"{kw[0]}_{kw[1]}_{i}",
                "description": f"Synthetic tool {i}.",
                "kind": kinds[i % len(kinds)],
                "keywords": kw,
                "related": [rng.choice(terms)],
                "params": [{"name": "date_from", "type": "date", "role": "date_from"}],
                "examples": examples,
            }
        )
    raw = {
        "settings.yaml": {"name": f"synthetic{n_tools}", "thresholds": {"high": 0.85, "medium": 0.5, "low": 0.3, "margin": 0.1}},
        "tools.yaml": {"tools": tools},
        "synonyms.yaml": synonyms,
        "patterns.yaml": {"patterns": []},
    }
    domain = domain_from_data(f"synthetic{n_tools}", raw, root=root, shared=load_shared_words(root))
    queries = []
    for t in rng.sample(tools, min(500, n_tools)):
        words = rng.choice(t["examples"]).split()
        if rng.random() < 0.3:  # a typo in a keyword: swap two inner letters
            w = list(words[0])
            if len(w) > 5:
                w[2], w[3] = w[3], w[2]
            words[0] = "".join(w)
        queries.append(" ".join(words[: rng.randint(2, len(words))]))
    return domain, queries


SEQUENTIAL_ROUTES = 20_000


def _rss_mb() -> float:
    try:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS")) / 1024
    except (OSError, StopIteration):
        return float("nan")


def sequential(router: Router, queries: list[str], n: int = SEQUENTIAL_ROUTES, seed: int = 3,
               budget_s: float | None = None) -> dict:
    """n routes one after another, as a long-running app serves them: the domain's queries, half
    with a made-up word added (new words keep the per-word caches filling, as real traffic does).
    Reports the tail (p99, max, routes over 10 ms), the collector's pauses and memory. `budget_s`
    (--quick): stop earlier once that many seconds have gone (the factory mirror's transformer takes
    ~17 ms a route); `routes` says how many ran."""
    import gc

    rng = random.Random(seed)
    for q in queries[:50]:
        router.route(q, today=TODAY)
    gc.collect()
    gc.freeze()  # as RouterRegistry does after a build
    pauses: list[float] = []
    started: list[float] = []

    def watch(phase: str, _info: dict) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            pauses.append((time.perf_counter() - started.pop()) * 1000)

    rss_before = _rss_mb()
    times = []
    gc.callbacks.append(watch)
    deadline = time.perf_counter() + budget_s if budget_s else None
    try:
        for i in range(n):
            if deadline is not None and i >= 100 and time.perf_counter() > deadline:
                break
            q = queries[i % len(queries)]
            if rng.random() < 0.5:
                q = f"{q} {_word(rng, rng.randint(4, 9))}"
            t0 = time.perf_counter()
            router.route(q, today=TODAY)
            times.append((time.perf_counter() - t0) * 1000)
    finally:
        gc.callbacks.remove(watch)
    times.sort()
    return {
        "routes": len(times),
        "p50_ms": round(percentile(times, 50), 3),
        "p99_ms": round(percentile(times, 99), 3),
        "max_ms": round(times[-1], 1),
        "over_10ms": sum(t > 10 for t in times),
        "gc_pauses": len(pauses),
        "gc_max_ms": round(max(pauses, default=0.0), 1),
        "rss_mb_before": round(rss_before, 1),
        "rss_mb_after": round(_rss_mb(), 1),
    }


def _bench_one(out: dict, row: str, domain: Domain, queries: list[str] | None, quick: bool) -> None:
    t0 = time.perf_counter()
    router = build_router(domain)  # each domain by its own design
    build_ms = (time.perf_counter() - t0) * 1000
    figures = {}
    if queries is None:
        golden = router.domain.root / "golden.yaml"
        queries = golden_queries(golden) or [ex for t in router.domain.tools for _, ex in t.examples]
        figures = golden_accuracy(router, golden)
    if not queries:
        return
    rounds = max(1, (300 if quick else 3000) // len(queries))
    out["domains"][row] = {"tools": len(router.domain.tools), "build_ms": round(build_ms, 1), **semantic_info(router),
                           **figures, **_time_queries(router, queries, rounds)}
    out["sequential"][row] = sequential(router, queries, 2_000 if quick else SEQUENTIAL_ROUTES, budget_s=QUICK_SECONDS if quick else None)


def _imported(out: dict, csv_path: Path, root: Path, quick: bool) -> None:
    """Import a labelled CSV (text,category) into a temporary root and bench it on the sibling
    test.csv's texts when there is one, else on its own."""
    from routing.quality.evaluate import load_labelled_csv
    from routing.quality.importer import import_labelled_csv

    name = csv_path.parent.name if csv_path.stem in ("train", "test") else csv_path.stem
    name = "".join(c if c.isalnum() else "_" for c in name.lower()) or "imported"
    test = csv_path.with_name("test.csv")
    tmp = Path(tempfile.mkdtemp(prefix="bench-import-"))
    try:
        shutil.copytree(root / SHARED_DIR, tmp / SHARED_DIR)
        import_labelled_csv(csv_path, name, root=tmp, force=True)
        source = test if test.is_file() and test.resolve() != csv_path.resolve() else csv_path
        queries = [c.query for c in load_labelled_csv(source)]
        domain = load_domain(name, tmp)
        # As imported (semantic signal on), and without it: what the embedding signal costs.
        for row, dom in ((f"imported:{name}", domain), (f"imported:{name}-semantic", with_semantic(domain, 0.0))):
            _bench_one(out, row, dom, queries, quick)
            out["domains"][row]["queries_from"] = str(source)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class UnknownDomains(ValueError):
    """`run_bench(domains=...)` names a domain the root lacks."""


def run_bench(root: Path, *, quick: bool = False, sizes: list[int] | tuple[int, ...] = (1000, 10000),
              import_csv: Path | str | None = None, domains: list[str] | tuple[str, ...] | None = None) -> dict:
    """Latency per domain (every domain under `root`, or only `domains`), per imported CSV and per synthetic size."""
    out: dict = {"domains": {}, "synthetic": {}, "sequential": {}}
    names = list_domain_names(root)
    unknown = [d for d in domains or () if d not in names]
    if unknown:
        raise UnknownDomains(f"no domain {', '.join(map(repr, unknown))} under {root} (domains: {', '.join(names)})")
    for name in [n for n in names if not domains or n in domains]:
        domain = load_domain(name, root)
        _bench_one(out, name, domain, None, quick)
        if domain.settings.design == "tools" and domain.settings.weights.semantic <= 0:
            _bench_one(out, f"{name}+semantic", with_semantic(domain), None, quick)
    if import_csv:
        _imported(out, Path(import_csv), root, quick)
    for n in sizes:
        domain, queries = synthetic_domain(n, root)
        t0 = time.perf_counter()
        router = Router(domain)
        build_ms = (time.perf_counter() - t0) * 1000
        rounds = 1 if quick else 3
        out["synthetic"][f"{n}_tools"] = {"tools": n, "build_ms": round(build_ms, 1), **_time_queries(router, queries, rounds)}
    return out
