"""Reading a lexicon file within its walls: a regular file, inside the lexicon root once links are
resolved, and never more than the stated limit of bytes.

A link to /etc/passwd, a file linked from outside the lexicon folder, /dev/zero, a FIFO (whose
open() would block forever) or a 50 MB file are each refused with a message naming the file; none
is read past MAX_FILE_BYTES + 1 bytes. The check is made on the opened descriptor (fstat), so a
file swapped for a FIFO between the look and the read is refused too.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from routing.core.errors import LexiconError, Problem

MAX_FILE_BYTES = 4_000_000  # a lexicon file over 4 MB is refused (the largest shipped one is ~15 kB)
TOO_BIG = f"the file is over {MAX_FILE_BYTES // 1_000_000} MB; a lexicon file must be smaller"

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def outside_root(path: Path, root: Path) -> bool:
    """True when `path`, its links resolved, does not lie inside `root` (links resolved too)."""
    try:
        real = Path(os.path.realpath(path))
        real_root = Path(os.path.realpath(root))
    except (OSError, ValueError):
        return True
    return real != real_root and real_root not in real.parents


def read_bounded(path: Path | str, label: str | None = None, *, root: Path | str | None = None,
                 limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of one lexicon file. LexiconError (naming the file) when it is missing or unreadable,
    lies outside `root` after resolving links (when a root is given), is not a regular file, or is
    larger than `limit`; at most limit + 1 bytes are ever read."""
    path = Path(path)
    label = label or str(path)
    if root is not None and outside_root(path, Path(root)):
        raise LexiconError([Problem(label, None, "is a link to a file outside the lexicon folder; lexicon files must lie inside it")])
    try:
        fd = os.open(os.path.realpath(path), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise LexiconError([Problem(label, None, f"cannot read: {exc.strerror or exc}")]) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise LexiconError([Problem(label, None, f"is {_kind(info.st_mode)}, not a regular file; a lexicon file must be one")])
        if info.st_size > limit:  # refused unread
            raise LexiconError([Problem(label, None, TOO_BIG)])
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # grew while being read, or st_size lied
            raise LexiconError([Problem(label, None, TOO_BIG)])
        return b"".join(chunks)
    except OSError as exc:
        raise LexiconError([Problem(label, None, f"cannot read: {exc.strerror or exc}")]) from None
    finally:
        os.close(fd)


def decode_text(data: bytes, label: str) -> str:
    """UTF-8 text, or LexiconError naming the line and column of the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise LexiconError([Problem(label, line, f"not UTF-8 text: byte 0x{data[exc.start]:02x} at column {column} ({exc.reason})")]) from None


def read_text_bounded(path: Path | str, label: str | None = None, *, root: Path | str | None = None) -> str:
    label = label or str(path)
    return decode_text(read_bounded(path, label, root=root), label)
