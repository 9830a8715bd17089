"""Save history: each save keeps the previous text in lexicons/<domain>/.history/ so the last save
can be undone (refused when the file changed after that save).

Crash safety: a save writes its whole record (the previous texts and save.json, marked PENDING)
before it replaces any lexicon file, and removes the mark once every file is written. The next
writer to take the domain lock (or the next load, when the lock is free) settles what a dead
writer left: a record without save.json is removed; a PENDING record whose files all say what it
wrote is completed (so that save can be undone); one whose files were not all written is rolled
back to the previous texts and removed; temp files are deleted."""
from __future__ import annotations

import json
import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from routing.editing.files import (
    HISTORY_DIR,
    HISTORY_KEEP,
    SaveResult,
    _disk_text,
    _domain_lock,
    _label,
    _root,
    atomic_write,
    digest_text,
    domain_fingerprint,
    sweep_temp_files,
    unified_diff,
)

PENDING = ".pending"  # inside a record: its save has not replaced every file yet
META = "save.json"


def _records(folder: Path) -> list[Path]:
    hist = folder / HISTORY_DIR
    if not hist.is_dir():
        return []
    return sorted((p for p in hist.iterdir() if p.is_dir() and p.name.split("-")[0].isdigit()), key=lambda p: int(p.name.split("-")[0]))


def _new_record(folder: Path) -> Path:
    existing = _records(folder)
    n = int(existing[-1].name.split("-")[0]) + 1 if existing else 1
    record = folder / HISTORY_DIR / f"{n:05d}"
    record.mkdir(parents=True)
    return record


def write_record(folder: Path, meta: dict, before: dict[str, str | None]) -> Path:
    """The record of a save about to happen, complete and marked PENDING, before any file is
    replaced. `before` maps each file to its text now (None: the file does not exist)."""
    record = _new_record(folder)
    (record / PENDING).write_bytes(b"")
    for file, text in before.items():
        if text is not None:
            (record / file).write_bytes(text.encode("utf-8"))
    atomic_write(record / META, json.dumps(meta, ensure_ascii=False, indent=2))
    return record


def finish_record(record: Path) -> None:
    """Every file of the save is written: the record counts (and can be undone)."""
    (record / PENDING).unlink(missing_ok=True)


def discard_record(folder: Path, record: Path) -> None:
    """A save that failed in this process: put back what it replaced, then forget it."""
    _roll_back(folder, record)


def _disk_digest_of(path: Path) -> str:
    return digest_text(_disk_text(path)) if path.exists() else ""


def _roll_back(folder: Path, record: Path) -> None:
    try:
        meta = json.loads((record / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        meta = {}
    for file, d in meta.get("files", {}).items():
        path = folder / file
        if _disk_digest_of(path) == d.get("after") and d.get("after") != d.get("before"):
            if (record / file).exists():
                atomic_write(path, (record / file).read_bytes().decode("utf-8"))
            else:
                path.unlink(missing_ok=True)
    shutil.rmtree(record, ignore_errors=True)


UNDOING = ".undoing"  # inside a record: an undo of it has started


def _before_text(record: Path, file: str) -> str:
    return (record / file).read_bytes().decode("utf-8") if (record / file).exists() else ""


def _put_back(folder: Path, record: Path, files: dict) -> None:
    """Write back the texts before the save recorded in `record`, then mark it undone."""
    for f, d in files.items():
        if d["before"] == "" and not (record / f).exists():
            (folder / f).unlink(missing_ok=True)
        elif _disk_digest_of(folder / f) != d["before"]:
            atomic_write(folder / f, _before_text(record, f))
    record.rename(record.with_name(record.name + "-undone"))
    (record.with_name(record.name + "-undone") / UNDOING).unlink(missing_ok=True)


def recover(folder: Path) -> dict[str, int]:
    """Settle what dead writers left (call with the domain lock held). Returns counts."""
    counts = {"temp_files": len(sweep_temp_files(folder)), "incomplete": 0, "completed": 0, "rolled_back": 0}
    for record in _records(folder):
        if not (record / META).exists():
            shutil.rmtree(record, ignore_errors=True)
            counts["incomplete"] += 1
        elif (record / PENDING).exists():
            meta = json.loads((record / META).read_text(encoding="utf-8"))
            files = meta.get("files", {})
            if all(_disk_digest_of(folder / f) == d.get("after") for f, d in files.items()):
                finish_record(record)
                counts["completed"] += 1
            else:
                _roll_back(folder, record)
                counts["rolled_back"] += 1
        elif (record / UNDOING).exists() and record.name.endswith("-undone"):
            (record / UNDOING).unlink(missing_ok=True)
        elif (record / UNDOING).exists():  # an undo that died half-way: finish it
            files = json.loads((record / META).read_text(encoding="utf-8")).get("files", {})
            _put_back(folder, record, files)
            counts["undone"] = counts.get("undone", 0) + 1
    return counts


@contextmanager
def locked_domain(folder: Path) -> Iterator[None]:
    """The domain lock, with what dead writers left settled first."""
    with _domain_lock(folder):
        recover(folder)
        yield


def recover_if_idle(folder: Path) -> None:
    """At load: settle dead writers' leftovers when no writer is at work (never waits)."""
    if not (folder / HISTORY_DIR).is_dir():
        return
    with _domain_lock(folder, blocking=False) as got:
        if got:
            recover(folder)


def _prune_history(folder: Path) -> None:
    for old in _records(folder)[:-HISTORY_KEEP]:
        shutil.rmtree(old, ignore_errors=True)


@dataclass(frozen=True)
class HistoryEntry:
    id: str
    action: str
    source: str
    files: tuple[str, ...]
    saved_at: float  # the record's modification time (seconds since the epoch)
    undone: bool
    complete: bool


def history(domain: str, root: Path | str | None = None) -> list[HistoryEntry]:
    """Save records, newest first."""
    out = []
    folder = _root(root) / domain
    recover_if_idle(folder)
    for rec in reversed(_records(folder)):
        meta_path = rec / META
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        out.append(
            HistoryEntry(
                id=rec.name.split("-")[0],
                action=str(meta.get("action", "")),
                source=str(meta.get("source", "")),
                files=tuple(meta.get("files", {})),
                saved_at=(meta_path if meta_path.exists() else rec).stat().st_mtime,
                undone=rec.name.endswith("-undone"),
                complete=bool(meta) and not (rec / PENDING).exists(),
            )
        )
    return out


def undo_last_save(domain: str, root: Path | str | None = None) -> SaveResult:
    """Put back the files as they were before the last save, if nobody changed them since."""
    root = _root(root)
    folder = root / domain
    with locked_domain(folder):
        candidates = [r for r in _records(folder) if not r.name.endswith("-undone") and (r / META).exists() and not (r / PENDING).exists()]
        if not candidates:
            return SaveResult("rejected", "There is no save to undo.")
        record = candidates[-1]
        meta = json.loads((record / META).read_text(encoding="utf-8"))
        files = meta.get("files", {})
        moved = [f for f, d in files.items() if digest_text(_disk_text(folder / f)) != d["after"]]
        if moved:
            return SaveResult(
                "conflict",
                f"Cannot undo: {', '.join(moved)} changed after that save. Nothing was changed.",
                tuple(moved),
            )
        diffs = [unified_diff(_disk_text(folder / f), _before_text(record, f), _label(root, folder / f)) for f in files]
        (record / UNDOING).write_bytes(b"")  # a crash from here on is finished by the next writer
        _put_back(folder, record, files)
    return SaveResult(
        "saved",
        f"Undid the last save ({meta.get('action', 'edit')}).",
        tuple(files),
        diff="".join(diffs),
        history_id=record.name,
        fingerprint=domain_fingerprint(domain, root),
    )
