"""Read a file of logged questions in chunks, whatever its format, with flat memory.

CSV, JSONL (one JSON object a line), Parquet (pyarrow) or plain text (one question a line, blank
lines skipped). A column of each row is the question (`text_col`); optional columns hold the
expected tool (`label_col`) and when it was asked (`time_col`). Every chunk is a `Chunk` of
parallel lists, numbered from 0 in file order, so a job can skip the chunks it already wrote.

The same rows come out whichever engine reads them: the Ray engine reads with Ray's readers, which
are pyarrow's too, and `cell_text` turns a cell into the same string in both.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Iterator

FORMATS = ("csv", "jsonl", "parquet", "text")
_SUFFIXES = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".parquet": "parquet", ".pq": "parquet", ".txt": "text", ".text": "text"}


class InputProblem(ValueError):
    """The file cannot be read as asked (no such column, not UTF-8, a broken line): said plainly."""


@dataclass(frozen=True)
class Columns:
    text: str = "text"
    label: str | None = None
    time: str | None = None


@dataclass
class Chunk:
    index: int  # 0, 1, 2 ... in file order
    start: int  # the row number (0-based) of its first question
    texts: list[str]
    labels: list[str | None]
    times: list[str | None]

    def __len__(self) -> int:
        return len(self.texts)


def detect_format(path: str | Path, fmt: str | None = None) -> str:
    if fmt:
        if fmt not in FORMATS:
            raise InputProblem(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
        return fmt
    suffix = Path(str(path)).suffix.lower()
    return _SUFFIXES.get(suffix, "text")


def cell_text(value) -> str | None:
    """A cell as the string the job keeps: None stays None, a timestamp is ISO, the rest str()."""
    if value is None:
        return None
    if isinstance(value, float) and value != value:  # NaN from a reader that fills gaps
        return None
    if isinstance(value, datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def day_of(value: str | None) -> str | None:
    """The calendar day (YYYY-MM-DD) a time cell names, or None when it names none."""
    if not value:
        return None
    try:
        return date.fromisoformat(str(value).strip()[:10]).isoformat()
    except ValueError:
        return None


def count_rows(path: str | Path, fmt: str | None = None) -> int | None:
    """How many questions the file holds, cheaply (Parquet metadata, else a count of lines); an
    estimate for CSV (a quoted cell may span lines). For the progress bar only."""
    path = Path(path)
    fmt = detect_format(path, fmt)
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return pq.ParquetFile(path).metadata.num_rows
        n = 0
        blank = 0
        with path.open("rb") as f:
            for line in f:
                n += 1
                blank += not line.strip()
        return max(0, n - blank - (1 if fmt == "csv" else 0))
    except OSError:
        return None


def read_chunks(path: str | Path, columns: Columns, *, chunk_rows: int = 5000, fmt: str | None = None) -> Iterator[Chunk]:
    """The file's questions, `chunk_rows` at a time, in order."""
    path = Path(path)
    if not path.is_file():
        raise InputProblem(f"no file at {path}")
    fmt = detect_format(path, fmt)
    rows = {"csv": _csv_rows, "jsonl": _jsonl_rows, "parquet": _parquet_rows, "text": _text_rows}[fmt](path, columns)
    index, start = 0, 0
    texts: list[str] = []
    labels: list[str | None] = []
    times: list[str | None] = []
    for text, label, when in rows:
        texts.append(text)
        labels.append(label)
        times.append(when)
        if len(texts) >= chunk_rows:
            yield Chunk(index, start, texts, labels, times)
            index, start = index + 1, start + len(texts)
            texts, labels, times = [], [], []
    if texts:
        yield Chunk(index, start, texts, labels, times)


def _need(names: list[str], columns: Columns, path: Path) -> None:
    for role, name in (("question", columns.text), ("label", columns.label), ("time", columns.time)):
        if name and name not in names:
            raise InputProblem(f"{path.name} has no {role} column {name!r}; its columns: {', '.join(names) or 'none'}")


def _batch_rows(batches, columns: Columns, path: Path):
    """Rows of pyarrow record batches (CSV, Parquet)."""
    checked = False
    for batch in batches:
        if not checked:
            _need(batch.schema.names, columns, path)
            checked = True
        texts = batch.column(columns.text).to_pylist()
        labels = batch.column(columns.label).to_pylist() if columns.label else [None] * len(texts)
        times = batch.column(columns.time).to_pylist() if columns.time else [None] * len(texts)
        for t, lab, when in zip(texts, labels, times):
            yield cell_text(t) or "", cell_text(lab), cell_text(when)


def _csv_rows(path: Path, columns: Columns):
    import pyarrow as pa
    import pyarrow.csv as pacsv

    # Every column read as a string: a label "1" stays "1", a time stays what the file says.
    try:
        names = pacsv.open_csv(path, read_options=pacsv.ReadOptions(block_size=1 << 20)).schema.names
        convert = pacsv.ConvertOptions(column_types={n: pa.string() for n in names}, strings_can_be_null=False)
        reader = pacsv.open_csv(path, read_options=pacsv.ReadOptions(block_size=1 << 20), convert_options=convert)
        yield from _batch_rows(reader, columns, path)
    except pa.ArrowInvalid as exc:
        raise InputProblem(f"{path.name} does not read as CSV: {exc}") from None


def _parquet_rows(path: Path, columns: Columns):
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        f = pq.ParquetFile(path)
    except pa.ArrowInvalid as exc:
        raise InputProblem(f"{path.name} does not read as Parquet: {exc}") from None
    _need(f.schema_arrow.names, columns, path)
    wanted = [c for c in (columns.text, columns.label, columns.time) if c]
    yield from _batch_rows(f.iter_batches(batch_size=8192, columns=list(dict.fromkeys(wanted))), columns, path)


def _jsonl_rows(path: Path, columns: Columns):
    with path.open("r", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputProblem(f"{path.name} line {n} is not JSON: {exc.msg}") from None
            except UnicodeDecodeError:
                raise InputProblem(f"{path.name} is not UTF-8 text") from None
            if not isinstance(obj, dict):
                raise InputProblem(f"{path.name} line {n} is not a JSON object")
            if columns.text not in obj:
                raise InputProblem(f"{path.name} line {n} has no question field {columns.text!r}; its fields: {', '.join(obj) or 'none'}")
            yield (cell_text(obj.get(columns.text)) or "", cell_text(obj.get(columns.label)) if columns.label else None,
                   cell_text(obj.get(columns.time)) if columns.time else None)


def _text_rows(path: Path, columns: Columns):
    try:
        with path.open("r", encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\r\n")
                if line.strip():
                    yield line, None, None
    except UnicodeDecodeError:
        raise InputProblem(f"{path.name} is not UTF-8 text") from None
