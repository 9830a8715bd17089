"""Save history: each save keeps the previous text in lexicons/<domain>/.history/ so the last save
can be undone (refused when the file changed after that save)."""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

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
    unified_diff,
)


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
    for rec in reversed(_records(_root(root) / domain)):
        meta_path = rec / "save.json"
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
                complete=bool(meta),
            )
        )
    return out


def undo_last_save(domain: str, root: Path | str | None = None) -> SaveResult:
    """Put back the files as they were before the last save, if nobody changed them since."""
    root = _root(root)
    folder = root / domain
    with _domain_lock(folder):
        candidates = [r for r in _records(folder) if not r.name.endswith("-undone") and (r / "save.json").exists()]
        if not candidates:
            return SaveResult("rejected", "There is no save to undo.")
        record = candidates[-1]
        meta = json.loads((record / "save.json").read_text(encoding="utf-8"))
        files = meta.get("files", {})
        moved = [f for f, d in files.items() if digest_text(_disk_text(folder / f)) != d["after"]]
        if moved:
            return SaveResult(
                "conflict",
                f"Cannot undo: {', '.join(moved)} changed after that save. Nothing was changed.",
                tuple(moved),
            )
        diffs = []
        for f, d in files.items():
            before = (record / f).read_bytes().decode("utf-8") if (record / f).exists() else ""
            diffs.append(unified_diff(_disk_text(folder / f), before, _label(root, folder / f)))
            if d["before"] == "" and not (record / f).exists():
                (folder / f).unlink(missing_ok=True)
            else:
                atomic_write(folder / f, before)
        record.rename(record.with_name(record.name + "-undone"))
    return SaveResult(
        "saved",
        f"Undid the last save ({meta.get('action', 'edit')}).",
        tuple(files),
        diff="".join(diffs),
        history_id=record.name,
        fingerprint=domain_fingerprint(domain, root),
    )
