"""A coverage job over a large file of logged questions: route every line on every core (or on a
Ray cluster), write the results in chunks with a manifest, and a summary the Coverage page opens.

Output folder:

    manifest.json          what the job is (input, domain, lexicon fingerprint, reference date,
                           columns, chunk size) and every chunk written so far, with its counts
    parts/part-000012.parquet   one file per chunk (written atomically, then named in the manifest)
    results.parquet, results.csv   every question, in file order (when the job has finished)
    summary.json           tiers, paths, tools, tiers and tools over time, accuracy when labelled,
                           and the topics of what is not covered (routing.quality.topics)

An interrupted job keeps every chunk the manifest names; the same command run again skips them. A
changed input file, lexicon or argument starts afresh (a mix of two versions would be a lie).

Engines: `local` (routing.quality.coverage_run.LocalEngine) routes chunks in a process pool whose
workers each *rebuild* the router once from the lexicon folder (the parent builds it first, so the
learned model and the calibration fit are cached beside the domain and a worker only loads them;
rebuilding avoids pickling tokenizers and compiled patterns, and is what a Ray worker on another
machine has to do anyway). `ray` is routing.quality.coverage_ray. Both call `route_rows`, so a
question gets the same answer whichever engine, and the same as `router.route` one at a time.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from routing.quality.coverage_input import Columns, count_rows, day_of, detect_format, read_chunks
from routing.quality.coverage_summary import UNCOVERED, VERSION, chunk_stats, summarise

MANIFEST = "manifest.json"
SUMMARY = "summary.json"
PARTS = "parts"

RESULT_FIELDS = (
    ("row", "int64"), ("text", "string"), ("label", "string"), ("time", "string"), ("day", "string"),
    ("status", "string"), ("top", "string"), ("confidence", "float64"), ("top3", "string"), ("path", "string"),
    ("error", "string"), ("unknown_words", "string"), ("correct", "bool_"), ("ms", "float64"),
)


def result_schema():
    import pyarrow as pa

    return pa.schema([(name, getattr(pa, kind)()) for name, kind in RESULT_FIELDS])


# ------------------------------------------------------------------ one question, routed


_SHARED = ("status", "top", "confidence", "top3", "path", "error", "unknown_words", "ms")
ROUTE_CACHE_MAX = 200_000  # entries of a worker's route cache before it is emptied (flat memory)


def route_rows(router, texts: list[str], labels: list[str | None], times: list[str | None], today: str,
               cache: dict | None = None, counts: dict | None = None) -> dict[str, list]:
    """Route each question once (on the day it was asked when a time says so, else `today`) and
    keep what the summary and the page need. The one function every engine calls.

    A question asked again with the same reference date is routed once: within this call always,
    and across calls when the caller passes a `cache` (a dict it owns for one router: a worker's
    route cache). The key is the exact text and the reference date it is routed on, so a cached
    answer is the one routing would give again (ms is the first routing's). `counts["routed"]`
    adds how many questions were really routed."""
    out: dict[str, list] = {name: [] for name, _ in RESULT_FIELDS if name != "row"}
    memo: dict = cache if cache is not None else {}
    routed = 0
    for text, label, when in zip(texts, labels, times):
        day = day_of(when)
        key = (text, day or today)
        fields = memo.get(key)
        if fields is None:
            fields = _route_one(router, text, day or today)
            routed += 1
            if cache is not None and len(memo) >= ROUTE_CACHE_MAX:
                memo.clear()
            memo[key] = fields
        out["text"].append(text)
        out["label"].append(label)
        out["time"].append(when)
        out["day"].append(day)
        for name, value in zip(_SHARED, fields):
            out[name].append(value)
        out["correct"].append((fields[1] == label) if label else None)
    if counts is not None:
        counts["routed"] = counts.get("routed", 0) + routed
    return out


def _route_one(router, text: str, today: str) -> tuple:
    """The result fields of one question (in _SHARED's order); an error is a row, never a stop."""
    from routing.quality.gaps import unknown_words

    try:
        result = router.route(text, today=today)
    except Exception as exc:  # noqa: BLE001 - one bad line never stops a million
        return ("error", None, 0.0, "", "", f"{type(exc).__name__}: {exc}"[:200], "", 0.0)
    status = result.status.value
    cands = result.ranked_candidates
    top = result.top_tool  # an ambiguous name's players are a clarification, never a tool hit
    confidence = result.top.confidence if result.top else (cands[0]["confidence"] if cands else 0.0)
    top3 = [c["name"] for c in cands[:3]] or [m.name for m in result.matches[:3]]
    if status in UNCOVERED or status == "needs_clarification":
        unknown = " ".join(unknown_words({"tokens": result.tokens}))
    else:
        unknown = ""
    return (status, top, round(float(confidence), 6), "|".join(top3), result.path.value,
            result.error.code if result.error else None, unknown, round(float(result.timing_ms), 4))


def build_router_from(root: str | Path, domain: str):
    from routing.core.lexicon import load_domain
    from routing.designs import build_router

    return build_router(load_domain(domain, root))


# ------------------------------------------------------------------ the job


@dataclass(frozen=True)
class JobSpec:
    input: str
    domain: str
    root: str  # the lexicon folder
    out: str
    today: str  # YYYY-MM-DD: the reference date of questions with no time
    columns: Columns = field(default_factory=Columns)
    fmt: str | None = None
    engine: str = "local"
    workers: int = 0  # 0: every core
    chunk_rows: int = 5000
    address: str | None = None  # ray: an existing cluster
    topics: bool = True
    route_cache: bool = False  # a worker remembers every (question, reference date) it routed, across chunks

    def identity(self, fingerprint: str) -> dict:
        """What must be equal for a rerun to continue the chunks already written."""
        p = Path(self.input)
        st = p.stat() if p.is_file() else None
        return {
            "version": VERSION,
            "input": str(p.resolve()) if st else self.input,
            "input_size": st.st_size if st else None,
            "input_mtime_ns": st.st_mtime_ns if st else None,
            "format": detect_format(self.input, self.fmt),
            "domain": self.domain,
            "fingerprint": fingerprint,
            "today": self.today,
            "columns": asdict(self.columns),
            "chunk_rows": self.chunk_rows,
        }


class JobInterrupted(Exception):
    def __init__(self, kept_rows: int, out: Path):
        super().__init__(f"interrupted: {kept_rows:,} questions kept in {out}; run the same command again to continue")
        self.kept_rows = kept_rows


def workers_for(n: int) -> int:
    return n if n and n > 0 else (os.cpu_count() or 1)


def run_job(spec: JobSpec, *, progress: Callable[[int, int | None, float], None] | None = None, log: Callable[[str], None] | None = None) -> dict:
    """Run (or continue) the job; return the summary (also written to summary.json)."""
    log = log or (lambda msg: None)
    out = Path(spec.out)
    out.mkdir(parents=True, exist_ok=True)
    router = build_router_from(spec.root, spec.domain)  # validates the lexicon; warms the caches the workers load
    if Path(spec.input).is_file():  # a missing column is said now, before any worker starts
        next(read_chunks(spec.input, spec.columns, chunk_rows=1, fmt=spec.fmt), None)
    identity = spec.identity(router.domain.fingerprint)
    manifest = _load_manifest(out)
    if manifest is None or manifest.get("job") != identity:
        if manifest is not None:
            log("the input, lexicon or arguments changed since the last run: starting afresh")
        shutil.rmtree(out / PARTS, ignore_errors=True)
        for name in ("results.parquet", "results.csv", SUMMARY):
            (out / name).unlink(missing_ok=True)
        manifest = {"job": identity, "parts": {}, "finished": False, "engine": spec.engine, "elapsed_s": 0.0}
    (out / PARTS).mkdir(exist_ok=True)
    done = {int(k) for k in manifest["parts"]}
    if done:
        log(f"continuing: {len(done)} chunks ({sum(p['rows'] for p in manifest['parts'].values()):,} questions) already routed")
    total = count_rows(spec.input, spec.fmt) if Path(spec.input).is_file() else None
    manifest["total_estimate"] = total
    _save_json(out / MANIFEST, manifest)

    started = time.perf_counter()
    routed_now = 0
    kept = sum(p["rows"] for p in manifest["parts"].values())
    if spec.engine == "ray":
        from routing.quality.coverage_ray import RayEngine

        engine = RayEngine(spec, router)
    elif spec.engine == "local":
        engine = LocalEngine(spec)
    else:
        raise ValueError(f"unknown engine {spec.engine!r}: use local or ray")
    try:
        for chunk_index, entry in engine.results(skip=done):  # the engine has written the part
            n = entry["rows"]
            manifest["parts"][str(chunk_index)] = entry
            routed_now += n
            kept += n
            _save_json(out / MANIFEST, manifest)
            if progress is not None:
                progress(kept, total, time.perf_counter() - started)
    except KeyboardInterrupt:
        engine.close(cancel=True)
        manifest["elapsed_s"] = round(manifest.get("elapsed_s", 0.0) + time.perf_counter() - started, 3)
        _save_json(out / MANIFEST, manifest)
        raise JobInterrupted(kept, out) from None
    engine.close()
    elapsed = time.perf_counter() - started
    manifest["elapsed_s"] = round(manifest.get("elapsed_s", 0.0) + elapsed, 3)
    manifest["finished"] = True
    manifest["total_estimate"] = kept
    _save_json(out / MANIFEST, manifest)
    log(f"routed {routed_now:,} questions in {elapsed:.1f} s ({routed_now / elapsed if elapsed else 0:,.0f}/s); writing results")
    _assemble(out, manifest)
    summary = summarise(manifest, engine=spec.engine, workers=engine.workers, routed_now=routed_now, elapsed_now=elapsed)
    summary["route_cache"] = spec.route_cache
    summary["rows_routed_this_run"] = getattr(engine, "rows_routed", routed_now)  # a rerun routes only what is missing
    routed_all = sum(p.get("routed", p["rows"]) for p in manifest["parts"].values())
    summary["routed_questions"] = routed_all  # the rest repeated a question on the same day (see route_rows)
    summary["repeat_share"] = round(1 - routed_all / summary["rows"], 4) if summary["rows"] else 0.0
    if spec.topics:
        from routing.quality.topics import topics_for_run

        log("grouping what is not covered into topics")
        t0 = time.perf_counter()
        summary.update(topics_for_run(out, router, summary))
        summary["topics_s"] = round(time.perf_counter() - t0, 2)
    _save_json(out / SUMMARY, summary)
    return summary


class LocalEngine:
    """Chunks routed in a process pool; each worker builds the router once (see the module doc)."""

    def __init__(self, spec: JobSpec):
        import multiprocessing as mp

        self.spec = spec
        self.workers = workers_for(spec.workers)
        # spawn: a clean interpreter per worker (no forked threads of the parent, e.g. Streamlit's).
        self.pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=mp.get_context("spawn"),
                                        initializer=_init_worker, initargs=(str(spec.root), spec.domain, spec.route_cache))

    def results(self, skip: set[int]) -> Iterator[tuple[int, dict]]:
        """(chunk index, manifest entry) in file order; each worker writes its chunk's part itself
        and sends back only the chunk's counts (no per-question objects cross processes back)."""
        chunks = (c for c in read_chunks(self.spec.input, self.spec.columns, chunk_rows=self.spec.chunk_rows, fmt=self.spec.fmt) if c.index not in skip)
        in_flight: dict = {}
        ready: dict[int, dict] = {}
        order: list[int] = []
        limit = self.workers * 2  # enough to keep every worker busy, few enough for flat memory
        exhausted = False
        while True:
            while not exhausted and len(in_flight) < limit:
                chunk = next(chunks, None)
                if chunk is None:
                    exhausted = True
                    break
                fut = self.pool.submit(_route_chunk, self.spec.out, chunk.index, chunk.start, chunk.texts, chunk.labels, chunk.times, self.spec.today)
                in_flight[fut] = chunk
                order.append(chunk.index)
            if not in_flight:
                break
            finished, _ = wait(list(in_flight), return_when=FIRST_COMPLETED)
            for fut in finished:
                chunk = in_flight.pop(fut)
                ready[chunk.index] = fut.result()
            while order and order[0] in ready:  # hand chunks back in file order
                idx = order.pop(0)
                yield idx, ready.pop(idx)

    def close(self, cancel: bool = False) -> None:
        self.pool.shutdown(wait=not cancel, cancel_futures=cancel)


_WORKER: dict = {}


def pin_native_threads() -> None:
    """One thread for numpy's BLAS / OpenMP in this process: a pool already has a process per core,
    and each worker's BLAS spinning up a thread per core too would oversubscribe them."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
        os.environ[var] = "1"  # for libraries loaded from now on
    try:  # and for any already loaded
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
    except ImportError:  # threadpoolctl comes with scikit-learn; without it the variables still apply
        pass
    import pyarrow as pa  # a worker writes its Parquet parts: one thread for that too

    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)


def _init_worker(root: str, domain: str, route_cache: bool = False) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it keeps what is done
    pin_native_threads()
    _WORKER["router"] = build_router_from(root, domain)
    _WORKER["cache"] = {} if route_cache else None  # for this router only (one lexicon version, one job)


def _route_chunk(out, index, start, texts, labels, times, today) -> dict:
    counts: dict = {}
    columns = route_rows(_WORKER["router"], texts, labels, times, today, cache=_WORKER["cache"], counts=counts)
    return write_chunk(Path(out), index, start, columns, routed=counts["routed"])


# ------------------------------------------------------------------ files


def _save_json(path: Path, obj) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    # the manifest is rewritten after every chunk: compact, or a million questions spend seconds on spaces
    indent = None if path.name == MANIFEST else 1
    tmp.write_text(json.dumps(obj, ensure_ascii=False, indent=indent, separators=(",", ":") if indent is None else None), encoding="utf-8")
    os.replace(tmp, path)


def _load_manifest(out: Path) -> dict | None:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "job" in data and "parts" in data else None


def part_path(out: Path, index: int) -> Path:
    return out / PARTS / f"part-{index:06d}.parquet"


def write_chunk(out: Path, index: int, start: int, columns: dict, routed: int | None = None) -> dict:
    """Write one chunk's part (atomically) and return its manifest entry: where it starts, its
    rows, how many of them were really routed (the rest repeated a question), and its counts."""
    _write_part(out, index, start, columns)
    n = len(columns["text"])
    return {"start": start, "rows": n, "routed": n if routed is None else routed, "stats": chunk_stats(columns)}


def _write_part(out: Path, index: int, start: int, columns: dict) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = len(columns["text"])
    table = pa.Table.from_pydict({"row": list(range(start, start + n)), **columns}, schema=result_schema())
    path = part_path(out, index)
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def iter_parts(out: Path, manifest: dict, columns: list[str] | None = None):
    """The result tables of the chunks written, in file order (one at a time: flat memory)."""
    import pyarrow.parquet as pq

    for key in sorted(manifest["parts"], key=int):
        yield pq.read_table(part_path(out, int(key)), columns=columns)


def _assemble(out: Path, manifest: dict) -> None:
    """results.parquet and results.csv: every chunk, in file order, streamed."""
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    schema = result_schema()
    tmp_pq, tmp_csv = out / ".results.parquet.tmp", out / ".results.csv.tmp"
    with pq.ParquetWriter(tmp_pq, schema) as pw, pacsv.CSVWriter(tmp_csv, schema) as cw:
        for table in iter_parts(out, manifest):
            pw.write_table(table)
            cw.write_table(table)
    os.replace(tmp_pq, out / "results.parquet")
    os.replace(tmp_csv, out / "results.csv")


def read_summary(path: str | Path) -> dict:
    """A summary.json (or a run folder holding one), checked to be one."""
    path = Path(path)
    if path.is_dir():
        path = path / SUMMARY
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("kind") != "routing-coverage-summary":
        raise ValueError(f"{path.name} is not a coverage summary (no kind: routing-coverage-summary)")
    return data


def run_progress(out: str | Path) -> dict | None:
    """How far a job in `out` has got (for the page's progress bar): rows done, estimate, finished."""
    manifest = _load_manifest(Path(out))
    if manifest is None:
        return None
    done = sum(p["rows"] for p in manifest["parts"].values())
    return {"done": done, "total": manifest.get("total_estimate"), "finished": bool(manifest.get("finished")),
            "domain": manifest["job"]["domain"], "input": manifest["job"]["input"]}


def stderr_progress(stream=sys.stderr) -> Callable[[int, int | None, float], None]:
    """A one-line progress bar for the terminal, redrawn at most 4 times a second."""
    last = [0.0]

    def tick(done: int, total: int | None, elapsed: float) -> None:
        now = time.monotonic()
        if now - last[0] < 0.25 and not (total and done >= total):
            return
        last[0] = now
        rate = done / elapsed if elapsed else 0.0
        if total:
            frac = min(1.0, done / total)
            bar = "#" * int(frac * 30)
            stream.write(f"\r[{bar:<30}] {done:,}/{total:,} {frac:5.1%}  {rate:,.0f} q/s ")
        else:
            stream.write(f"\r{done:,} questions  {rate:,.0f} q/s ")
        stream.flush()

    return tick


RUN_NAME = __import__("re").compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")


def runs_root(lexicon_root: str | Path) -> Path:
    """Where runs live: ROUTING_COVERAGE_RUNS, else coverage-runs/ beside the lexicon folder. The
    page opens runs from here only (a run is named, never a path)."""
    env = os.environ.get("ROUTING_COVERAGE_RUNS")
    return Path(env) if env else Path(lexicon_root).resolve().parent / "coverage-runs"


def list_runs(root: str | Path) -> list[dict]:
    """The run folders under `root`, newest first: name, finished, rows done."""
    root = Path(root)
    if not root.is_dir():
        return []
    runs = []
    for folder in root.iterdir():
        if folder.is_dir() and RUN_NAME.match(folder.name) and ((folder / MANIFEST).exists() or (folder / SUMMARY).exists()):
            prog = run_progress(folder) or {"done": None, "total": None, "finished": (folder / SUMMARY).exists()}
            prog["finished"] = prog["finished"] and (folder / SUMMARY).exists()
            runs.append({"name": folder.name, "mtime": folder.stat().st_mtime, **prog})
    return sorted(runs, key=lambda r: -r["mtime"])
