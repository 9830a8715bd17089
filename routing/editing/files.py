"""Lexicon files on disk: snapshots with their content digest (what an edit was based on), the
in-memory edit of one file and its diff, atomic writes (temp file, fsync, os.replace), the domain
lock, and the outcome of a save."""
from __future__ import annotations

import difflib
import fcntl
import hashlib
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from routing.core.errors import ErrorCode, LexiconError, Problem
from routing.core.lexicon import (
    DEFAULT_LEXICON_ROOT,
    domain_name_problem,
    domain_files,
    fingerprint_files,
    list_domain_names,
)
from routing.core.safefile import read_bounded, read_text_bounded
from routing.core.yamlio import file_label as _label, parse_yaml

EDITABLE_FILES = ("synonyms.yaml", "patterns.yaml", "settings.yaml")
# Written by a command, not the editor page: `python -m routing mcp --refresh` (routing.mcp.refresh)
# rewrites powers' tools from what their MCP servers list.
REFRESHED_FILES = ("servers.yaml", "tools.yaml")
GOLDEN_FILE = "golden.yaml"  # written only by routing.editing.golden (a demo's question kept as a test)
THRESHOLD_KEYS = ("high", "medium", "low", "margin")
PATTERN_KEYS = ("phrase", "terms", "regex", "tool", "params", "weight", "order")
HISTORY_DIR = ".history"
HISTORY_KEEP = 50  # save records kept per domain; older ones are pruned
class EditRejected(ValueError):
    """A requested edit that cannot be made (unknown term, duplicate variant, empty text); the
    message says why in plain words. Nothing was written."""


# ---------------------------------------------------------------- snapshots and edits


def _root(root: Path | str | None) -> Path:
    return Path(root) if root is not None else DEFAULT_LEXICON_ROOT


def digest_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def domain_fingerprint(domain: str, root: Path | str | None = None) -> str:
    """The same fingerprint RouterRegistry.state(domain).fingerprint reports."""
    return fingerprint_files(domain_files(_root(root), domain))


@dataclass(frozen=True)
class FileSnapshot:
    """One lexicon file exactly as read (bytes decoded as UTF-8, line endings untouched)."""

    domain: str
    file: str
    path: Path
    text: str
    digest: str
    label: str  # how validation messages name the file, e.g. lexicons/accounting/synonyms.yaml

    @property
    def exists(self) -> bool:
        return self.digest != ""


def read_file(domain: str, file: str, root: Path | str | None = None) -> FileSnapshot:
    root = _root(root)
    require_plain_name(domain)
    if file not in EDITABLE_FILES + REFRESHED_FILES and file != GOLDEN_FILE:
        raise EditRejected(f"{file} cannot be edited here (editable: {', '.join(EDITABLE_FILES)})")
    if domain not in list_domain_names(root):
        known = ", ".join(list_domain_names(root)) or "none"
        raise EditRejected(f"unknown domain {domain!r} (known: {known})")
    path = root / domain / file
    label = _label(root, path)
    if not os.path.lexists(path):
        return FileSnapshot(domain, file, path, "", "", label)
    text = read_text_bounded(path, label, root=root)  # a link out, a FIFO or a device is refused, unread
    return FileSnapshot(domain, file, path, text, digest_text(text), label)


@dataclass(frozen=True)
class FileEdit:
    """The new text of one file, computed in memory from a snapshot; nothing written yet."""

    snapshot: FileSnapshot
    new_text: str
    action: str = ""  # what the edit does, in words, for the history record

    @property
    def file(self) -> str:
        return self.snapshot.file

    @property
    def path(self) -> Path:
        return self.snapshot.path

    @property
    def changed(self) -> bool:
        return self.new_text != self.snapshot.text

    def diff(self, context: int = 2) -> str:
        return unified_diff(self.snapshot.text, self.new_text, self.snapshot.label, context=context)

    def parsed(self) -> Any:
        """The new text parsed the way the router reads it (line numbers point into the new text)."""
        return parse_yaml(self.new_text, self.snapshot.label)

    def changed_lines(self) -> int:
        """How many lines of the file differ (removed + added), the size of the diff."""
        old, new = self.snapshot.text.splitlines(), self.new_text.splitlines()
        ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
        return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")


def unified_diff(old: str, new: str, label: str, *, context: int = 2, new_label: str | None = None) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"a/{label}",
        tofile=f"b/{new_label or label}",
        n=context,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


# ---------------------------------------------------------------- saving


@dataclass(frozen=True)
class SaveResult:
    status: str  # saved | unchanged | conflict | invalid | rejected
    message: str
    files: tuple[str, ...] = ()
    diff: str = ""  # saved: what was written; conflict: what changed on disk since it was read
    problems: tuple[Problem, ...] = ()
    history_id: str | None = None
    fingerprint: str = ""  # of the domain's files after the save

    @property
    def ok(self) -> bool:
        return self.status in ("saved", "unchanged")

    @property
    def code(self) -> str | None:
        """The contract's error code of a refused save (CONFLICT, LEXICON_INVALID) or None."""
        return {"conflict": ErrorCode.CONFLICT.value, "invalid": ErrorCode.LEXICON_INVALID.value}.get(self.status)

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "code": self.code,
            "message": self.message,
            "files": list(self.files),
            "diff": self.diff,
            "problems": [p.to_dict() for p in self.problems],
            "history_id": self.history_id,
            "fingerprint": self.fingerprint,
        }


def atomic_write(path: Path, text: str) -> None:
    """Temp file beside the target, flush, fsync, os.replace, fsync the folder: a crash at any
    point leaves either the old file or the new one, whole."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}{TMP_SUFFIX}")
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def require_plain_name(domain: str) -> None:
    """A domain is a folder name, never a path (`../evil`, `/etc`): refused before any file is read."""
    problem = domain_name_problem(domain)
    if problem:
        raise EditRejected(problem)


@contextmanager
def _domain_lock(folder: Path, *, blocking: bool = True) -> Iterator[bool]:
    """One writer per domain at a time, across processes (app sessions, the CLI). Every read ->
    validate -> write of a save happens while this is held. With blocking=False, yields False at
    once when another process holds it (nothing may then be written)."""
    hist = folder / HISTORY_DIR
    hist.mkdir(exist_ok=True)
    with open(hist / ".lock", "a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


TMP_SUFFIX = ".tmp"


def sweep_temp_files(folder: Path) -> list[Path]:
    """Temp files of writers that died between writing and renaming (call with the lock held: no
    live writer has one open then). Returns what was removed."""
    gone = []
    for where in (folder, folder / HISTORY_DIR):
        if not where.is_dir():
            continue
        for tmp in where.glob(f".*{TMP_SUFFIX}"):
            tmp.unlink(missing_ok=True)
            gone.append(tmp)
    return gone


def _disk_digest(path: Path) -> str:
    """The digest a snapshot of this file would have now ("" when the file does not exist)."""
    return digest_text(_disk_text(path)) if path.exists() else ""


def _disk_text(path: Path) -> str:
    if not os.path.lexists(path):
        return ""
    try:
        return read_bounded(path, root=path.parent.parent).decode("utf-8", errors="replace")
    except LexiconError as exc:  # what stands there now is no lexicon file: it differs from any snapshot
        return f"<{exc}>"
