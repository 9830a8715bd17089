"""The `ray` engine of a coverage job: Ray Data reads the file (a local path, or any URL Ray reads:
s3://, gs://, abfs://, hdfs:// with its filesystem installed), `map_batches` routes it on a pool
of router actors (one per worker, each building the router once), and the rows come back to the
driver in file order, where routing.quality.coverage_run writes the same chunks, manifest and
summary as the local engine.

A router actor gets the domain's lexicon files as bytes (the domain's folder with its cached
learned model and calibration fit, and `_shared/`) and builds the router from a temporary folder:
a node of a cluster needs the `routing` package (the runtime_env ships this repository) but no
copy of the lexicons, and every actor routes with exactly the lexicon version the driver checked.

`--address` joins an existing cluster (`ray start --head` / KubeRay / Anyscale); without it a local
Ray is started with as many CPUs as workers (at least 2) and shut down at the end. A rerun of an
interrupted job routes only the chunks still missing, like the local engine: Ray Data has no row
offset to start from, so the driver reads the file once into the object store, cuts it at the
chunk boundaries (`split_at_indices`), numbers the rows of the missing pieces (a `_row` column,
block by block, in the object store) and routes a dataset of those blocks in order; every chunk
written is checked to start at its row.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterator

from routing.quality.coverage_input import cell_text, detect_format
from routing.quality.coverage_run import JobSpec, build_router_from, route_rows, workers_for, write_chunk

REPO = Path(__file__).resolve().parents[2]
SKIP_PARTS = (".history",)


def lexicon_snapshot(root: str | Path, domain: str) -> dict[str, bytes]:
    """The files a router of `domain` is built from (its folder and `_shared/`), as bytes."""
    root = Path(root)
    files: dict[str, bytes] = {}
    for folder in (root / domain, root / "_shared"):
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(root)
            if path.is_file() and not any(p in SKIP_PARTS for p in rel.parts) and not path.name.endswith(".tmp"):
                files[rel.as_posix()] = path.read_bytes()
    return files


class RouterActor:
    """One per Ray worker: builds the router once, then routes batch after batch."""

    def __init__(self, files: dict[str, bytes], domain: str, today: str, text_col: str, label_col: str | None, time_col: str | None, fmt: str):
        self.tmp = tempfile.TemporaryDirectory(prefix="routing-lexicons-")
        root = Path(self.tmp.name)
        for rel, data in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        self.router = build_router_from(root, domain)
        self.today, self.cols, self.fmt = today, (text_col, label_col, time_col), fmt

    def __call__(self, batch):
        import pyarrow as pa

        from routing.quality.coverage_run import result_schema

        text_col, label_col, time_col = self.cols
        n = batch.num_rows
        texts = [cell_text(v) or "" for v in batch.column(text_col).to_pylist()]
        if self.fmt == "text":
            texts = [t.rstrip("\r") for t in texts]
        labels = [cell_text(v) for v in batch.column(label_col).to_pylist()] if label_col else [None] * n
        times = [cell_text(v) for v in batch.column(time_col).to_pylist()] if time_col else [None] * n
        cols = route_rows(self.router, texts, labels, times, self.today)
        schema = result_schema()
        table = pa.Table.from_pydict(cols, schema=pa.schema([f for f in schema if f.name != "row"]))
        if "_row" in batch.schema.names:  # a rerun's rows carry their row number
            table = table.append_column("_row", batch.column("_row"))
        return table


def read_dataset(spec: JobSpec):
    """The input as a Ray Dataset, read the way routing.quality.coverage_input reads it locally
    (the question, label and time columns as strings, so a cell is the same string either way)."""
    import pyarrow as pa
    import ray

    fmt = detect_format(spec.input, spec.fmt)
    c = spec.columns
    wanted = [x for x in dict.fromkeys((c.text, c.label, c.time)) if x]
    if fmt == "csv":
        import pyarrow.csv as pacsv

        convert = pacsv.ConvertOptions(column_types={n: pa.string() for n in wanted}, strings_can_be_null=False)
        return ray.data.read_csv(spec.input, convert_options=convert, file_extensions=None)
    if fmt == "jsonl":
        import pyarrow.json as pajson

        schema = pa.schema([(n, pa.string()) for n in wanted])
        return ray.data.read_json(spec.input, parse_options=pajson.ParseOptions(explicit_schema=schema), file_extensions=None)
    if fmt == "parquet":
        return ray.data.read_parquet(spec.input, columns=wanted, file_extensions=None)
    return ray.data.read_text(spec.input, drop_empty_lines=True, file_extensions=None)


def _numbered(pieces, chunks: list[int], n: int):
    """The pieces named by `chunks` (piece i holds rows i*n..), as one dataset of their blocks in
    order, each row with its row number in a `_row` column."""
    import pyarrow as pa
    import ray

    @ray.remote
    def rows_of(block) -> int:
        return block.num_rows

    @ray.remote
    def numbered(block, first: int):
        return block.append_column("_row", pa.array(range(first, first + block.num_rows), type=pa.int64()))

    refs = []
    for i in chunks:
        blocks = pieces[i].to_arrow_refs()
        first = i * n
        for block, rows in zip(blocks, ray.get([rows_of.remote(b) for b in blocks])):
            if rows:
                refs.append(numbered.remote(block, first))
                first += rows
    return ray.data.from_arrow_refs(refs)


class RayEngine:
    def __init__(self, spec: JobSpec, router):
        import ray

        self.spec = spec
        self.workers = workers_for(spec.workers)
        self.started = False
        if not ray.is_initialized():
            if spec.address:  # a cluster: ship this repository so every node can import `routing`
                ray.init(address=spec.address, runtime_env={"working_dir": str(REPO), "excludes": [".git", "coverage-runs", "test-output", "**/.history", "*.parquet"]},
                         log_to_driver=False)
            else:
                path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
                ray.init(num_cpus=self.workers + 1, include_dashboard=False, log_to_driver=False,
                         runtime_env={"env_vars": {"PYTHONPATH": path, **{k: os.environ[k] for k in ("ROUTING_ENCODER",) if os.environ.get(k)}}})
            self.started = True
        ctx = ray.data.DataContext.get_current()
        ctx.execution_options.preserve_order = True  # rows come back in file order: chunk i is rows i*N..
        ctx.enable_progress_bars = False  # the job draws its own
        import logging

        logging.getLogger("ray.data").setLevel(logging.WARNING)
        self.files = lexicon_snapshot(spec.root, spec.domain)

    def results(self, skip: set[int]) -> Iterator[tuple[int, dict]]:
        import ray

        spec = self.spec
        n = spec.chunk_rows
        ds = read_dataset(spec)
        chunks: list[int] | None = None  # the chunk index of each batch routed, when some are skipped
        if skip:
            ds = ds.materialize()  # read once; counted and cut without reading again
            total = ds.count()
            count = -(-total // n)
            chunks = [i for i in range(count) if i not in skip]
            if not chunks:
                return
            pieces = ds.split_at_indices([i * n for i in range(1, count)])  # piece i is chunk i
            ds = _numbered(pieces, chunks, n)
        fmt = detect_format(spec.input, spec.fmt)
        text_col = "text" if fmt == "text" else spec.columns.text
        ds = ds.map_batches(
            RouterActor,
            fn_constructor_kwargs=dict(files=self.files, domain=spec.domain, today=spec.today, text_col=text_col,
                                       label_col=spec.columns.label if fmt != "text" else None,
                                       time_col=spec.columns.time if fmt != "text" else None, fmt=fmt),
            batch_size=min(spec.chunk_rows, 1000), batch_format="pyarrow", compute=ray.data.ActorPoolStrategy(size=self.workers), num_cpus=1,
        )
        self.rows_routed = 0
        # Every piece but the file's last holds exactly n rows, so batches of n are whole chunks.
        for j, batch in enumerate(ds.iter_batches(batch_size=n, batch_format="pyarrow", drop_last=False)):
            i = chunks[j] if chunks is not None else j
            self.rows_routed += batch.num_rows
            if i in skip:
                continue
            if "_row" in batch.schema.names:
                rows = batch.column("_row").to_pylist()
                if rows != list(range(i * n, i * n + batch.num_rows)):
                    raise RuntimeError(f"Ray returned chunk {i} out of order (rows {rows[0]}..{rows[-1]}): nothing of it was written")
                batch = batch.drop_columns(["_row"])
            yield i, write_chunk(Path(spec.out), i, i * n, {name: batch.column(name).to_pylist() for name in batch.schema.names})

    def close(self, cancel: bool = False) -> None:
        import ray

        if self.started and ray.is_initialized():
            ray.shutdown()
