"""Cache files beside a domain (a calibration fit, a learned model, LLM paraphrases): written whole
or not at all, each writer through its own temporary file, and a failure is said, never raised:
a read-only or full disk only means the work is redone at the next build."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Callable


def write_cache(path: Path, write: Callable[[IO[bytes]], None]) -> str | None:
    """`write(f)` fills a temporary file beside `path`, which then replaces it; the error text on
    failure (nothing is left behind), else None."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f"{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)
        tmp = None
        return None
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
