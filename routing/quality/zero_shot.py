"""Zero-shot benchmark: a tool catalog known only by its descriptions, routed on questions it never saw.

    python -m routing bench --zero-shot [--data ../shared/data/seal-tools] [--split dev]

Seal-Tools (tool.jsonl: name, description, parameters; dev_split.json: one question -> one tool)
is turned into an OpenAI `tools` list, imported with `import-tools` into a temporary lexicon root
(descriptions only: no example question), the router built, and every question routed. Printed:
top-1 / top-5 (is the right tool first / among the first five candidates), the tiers and how many
questions come back not_found although the right tool ranks first, p50 / p99 per query, import
and build seconds, peak resident memory (per query also the process's CPU time and the load average,
since wall-clock figures on a shared machine move 3x with its load); and, in the same run, a TF-IDF baseline (word unigrams,
smooth idf, sublinear tf, cosine) over the same tool texts. When the MiniLM encoder is built
(`python -m routing build-encoder`; the router then fuses its dense list in), also MiniLM cosine
alone over the same texts (`minilm_cosine`) and the router without the dense list
(`router_without_dense`).

Timings are taken over the routes whose question differs from the one before (`timed_routes`):
Seal-Tools lists a question once per tool it needs, so 1,104 of the dev split's 1,804 routes repeat
the question just routed, and the token table keeps the last text's vector (a page rerun routes the
same question again), which such a repeat would take for free. The accuracy figures count every route.
"""
from __future__ import annotations

import json
import math
import os
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from routing.core.enrich import name_words
from routing.quality.tier_precision import tier_report



def default_data() -> Path:
    """`shared/data/seal-tools` beside the checkout (../shared from the repository, or further up)."""
    repo = Path(__file__).resolve().parents[2]
    for p in (repo, *repo.parents):
        if (p / "shared" / "data" / "seal-tools").is_dir():
            return p / "shared" / "data" / "seal-tools"
    return repo.parent / "shared" / "data" / "seal-tools"

SPLITS = {"dev": "dev_split.json", "test": "test_in_domain_split.json"}
TYPES = {"str": "string", "string": "string", "int": "integer", "integer": "integer", "float": "number",
         "number": "number", "bool": "boolean", "boolean": "boolean"}


def seal_tools_as_openai(tool_jsonl: Path) -> list[dict]:
    """Seal-Tools' tool.jsonl as an OpenAI `tools` list (the format agents hand over)."""
    out = []
    for line in tool_jsonl.read_text(encoding="utf-8-sig").splitlines():
        if not line.strip():
            continue
        t = json.loads(line)
        props = {}
        for pname, spec in (t.get("parameters") or {}).items():
            spec = spec if isinstance(spec, dict) else {}
            props[pname] = {"type": TYPES.get(str(spec.get("type", "str")).lower(), "string"), "description": spec.get("description", "")}
        out.append({"type": "function", "function": {
            "name": t["api_name"], "description": t.get("api_description", ""),
            "parameters": {"type": "object", "properties": props, "required": list(t.get("required") or [])}}})
    return out


def load_questions(data: Path, split: str) -> list[tuple[str, str]]:
    rows = json.loads((data / SPLITS[split]).read_text(encoding="utf-8-sig"))
    return [(r["question"], r["positive_ctxs"][0]["title"]) for r in rows if r.get("positive_ctxs")]


# ------------------------------------------------------------------ the TF-IDF baseline

TOKEN = re.compile(r"\b\w\w+\b")


def _tf(text: str) -> Counter:
    return Counter(TOKEN.findall(text.lower()))


class TfIdfBaseline:
    """TF-IDF cosine (scikit-learn's TfidfVectorizer defaults + sublinear tf), in plain Python."""

    def __init__(self, docs: list[str]):
        tfs = [_tf(d) for d in docs]
        df: Counter = Counter()
        for tf in tfs:
            df.update(tf.keys())
        n = len(docs)
        self.idf = {w: math.log((1 + n) / (1 + c)) + 1 for w, c in df.items()}
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for i, tf in enumerate(tfs):
            vec = {w: (1 + math.log(c)) * self.idf[w] for w, c in tf.items()}
            norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
            for w, v in vec.items():
                self.postings.setdefault(w, []).append((i, v / norm))

    def rank(self, query: str, k: int = 5) -> list[int]:
        scores: dict[int, float] = {}
        for w, c in _tf(query).items():
            idf = self.idf.get(w)
            if idf is None:
                continue
            q = (1 + math.log(c)) * idf
            for i, v in self.postings[w]:
                scores[i] = scores.get(i, 0.0) + q * v
        return sorted(scores, key=lambda i: (-scores[i], i))[:k]


def tool_text(fn: dict, *, with_params: bool) -> str:
    parts = [name_words(fn["name"]), fn.get("description", "")]
    if with_params:
        for pname, spec in (fn.get("parameters") or {}).get("properties", {}).items():
            parts += [name_words(pname), spec.get("description", "")]
    return " ".join(p for p in parts if p)


def fresh_routes(questions: list[tuple[str, str]]) -> list[bool]:
    """Per route: is its question other than the one just before (the routes that are timed)."""
    return [i == 0 or q != questions[i - 1][0] for i, (q, _) in enumerate(questions)]


def _timed(values: list[float], fresh: list[bool]) -> list[float]:
    return [v for v, keep in zip(values, fresh) if keep]


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def _peak_rss_mb() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(kb / 1024 if sys.platform != "darwin" else kb / 1024 / 1024, 1)


def run_zero_shot(lexicons: Path, data: Path | None = None, *, split: str = "dev", limit: int | None = None,
                  weights: dict | None = None, lexical_too: bool = True) -> dict:
    from routing.core.router import Router
    from routing.quality.tool_import import import_tool_catalog

    data = Path(data) if data else default_data()
    if not (data / "tool.jsonl").is_file():
        raise FileNotFoundError(f"no Seal-Tools data at {data} (tool.jsonl)")
    tools = seal_tools_as_openai(data / "tool.jsonl")
    questions = load_questions(data, split)[:limit]
    out: dict = {"data": str(data), "split": split, "tools": len(tools), "questions": len(questions)}
    fresh = fresh_routes(questions)  # the routes that are timed (see above), for the router and the baselines alike
    tmp = Path(tempfile.mkdtemp(prefix="zero-shot-"))
    try:
        shutil.copytree(lexicons / "_shared", tmp / "_shared")
        catalog = tmp / "catalog.json"
        catalog.write_text(json.dumps(tools), encoding="utf-8")
        t0 = time.perf_counter()
        import_tool_catalog(catalog, "zeroshot", root=tmp)
        t1 = time.perf_counter()
        from routing.core.lexicon import load_domain

        domain = load_domain("zeroshot", tmp)
        if weights:
            domain = domain.with_weights(**weights)
        router = Router(domain)
        t2 = time.perf_counter()
        out.update(import_s=round(t1 - t0, 2), build_s=round(t2 - t1, 2), import_build_s=round(t2 - t0, 2))
        top1 = top5 = 0
        outcomes: list[tuple[str, bool]] = []
        times: list[float] = []
        cpu: list[float] = []  # the process's own CPU time per route: what a shared, busy machine does not inflate
        for q, gold in questions:
            s, c = time.perf_counter(), time.process_time()
            r = router.route(q, today="2026-01-22")
            times.append((time.perf_counter() - s) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            names = [c["name"] for c in r.candidates]
            outcomes.append((r.status.value, names[:1] == [gold]))
            top1 += names[:1] == [gold]
            top5 += gold in names[:5]
        n = max(len(questions), 1)
        report = tier_report(outcomes)
        times, cpu = _timed(times, fresh), _timed(cpu, fresh)
        out["timed_routes"] = sum(fresh)
        out["router"] = {
            "top1": round(top1 / n, 4), "top5": round(top5 / n, 4),
            "p50_ms": round(statistics.median(times), 3) if times else 0.0, "p99_ms": round(_percentile(times, 0.99), 3),
            "cpu_p50_ms": round(statistics.median(cpu), 3) if cpu else 0.0, "cpu_p99_ms": round(_percentile(cpu, 0.99), 3),
            "load_average": round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else None,
            "tiers": report["tiers"], "precision_by_tier": report["precision"],
            "not_found_when_right_first": report["not_found_when_right_first"],
            "activated_precision": report["precision"].get("activated"),
            "confidence_made_by": router.describe().get("confidence"),
        }
        if router.dense is not None:
            # In the same run: MiniLM cosine alone over the same tool texts (the dense list by
            # itself; the question's vector is the one routing just made), and the router
            # without the dense list (the lexical signals alone, as before the encoder is built).
            d1 = d5 = 0
            for q, gold in questions:
                ranked = [router.index.tools[t].name for t, _ in router.dense.rank(q, 5)]
                d1 += ranked[:1] == [gold]
                d5 += gold in ranked
            out["minilm_cosine"] = {"top1": round(d1 / n, 4), "top5": round(d5 / n, 4),
                                    "encoder": router.dense.encoder.name, "texts": "name words + description + parameters"}
            if lexical_too:
                lexical = Router(domain, dense=False)
                l1 = l5 = 0
                ltimes: list[float] = []
                for q, gold in questions:
                    s = time.perf_counter()
                    names = [c["name"] for c in lexical.route(q, today="2026-01-22").candidates]
                    ltimes.append((time.perf_counter() - s) * 1000)
                    l1 += names[:1] == [gold]
                    l5 += gold in names[:5]
                ltimes = _timed(ltimes, fresh)
                out["router_without_dense"] = {"top1": round(l1 / n, 4), "top5": round(l5 / n, 4),
                                               "p50_ms": round(statistics.median(ltimes), 3) if ltimes else 0.0}
        out["peak_rss_mb"] = _peak_rss_mb()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fns = [t["function"] for t in tools]
    names = [f["name"] for f in fns]
    for label, with_params in (("tfidf_name_description", False), ("tfidf_name_description_params", True)):
        t0 = time.perf_counter()
        base = TfIdfBaseline([tool_text(f, with_params=with_params) for f in fns])
        build = time.perf_counter() - t0
        b1 = b5 = 0
        times = []
        for q, gold in questions:
            s = time.perf_counter()
            ranked = [names[i] for i in base.rank(q)]
            times.append((time.perf_counter() - s) * 1000)
            b1 += ranked[:1] == [gold]
            b5 += gold in ranked
        times = _timed(times, fresh)
        out[label] = {"top1": round(b1 / n, 4), "top5": round(b5 / n, 4), "build_s": round(build, 2),
                      "p50_ms": round(statistics.median(times), 3) if times else 0.0}
    return out
