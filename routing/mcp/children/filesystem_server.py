"""Child MCP server of the `filesystem` power: read-only access to one sandbox folder.

Every path is resolved (symlinks followed) and must stay inside the root; nothing is ever written.
"""
from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

MAX_READ = 64 * 1024
MAX_HITS = 100
MAX_FILES = 2000


def _inside(target: Path, root: Path) -> bool:
    return target == root or root in target.parents


def _head(path: Path, limit: int) -> bytes | None:
    """At most `limit` bytes of a regular file (None for a FIFO, device or folder), never blocking."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def build(root: Path) -> MCPServer:
    root = root.resolve()
    server = MCPServer("filesystem", instructions=f"Read-only files under the sandbox folder {root.name}.")

    def inside(relative: str) -> Path:
        if not isinstance(relative, str):
            raise ToolError("path must be text, relative to the sandbox root.")
        target = (root / relative.strip().lstrip("/")).resolve()
        if not _inside(target, root):
            raise ToolError(f"{relative!r} is outside the sandbox; paths are relative to its root.")
        return target

    def rel(p: Path) -> str:
        return p.relative_to(root).as_posix() or "."

    @server.tool()
    def list_directory(path: str = ".") -> dict:
        """List the files and folders in a folder of the sandbox."""
        folder = inside(path)
        if not folder.is_dir():
            raise ToolError(f"{path!r} is not a folder in the sandbox.")
        entries = sorted(folder.iterdir(), key=lambda p: (not p.is_dir(), p.name))
        return {"path": rel(folder), "entries": [
            {"name": e.name, "type": "folder" if e.is_dir() else "file", **({} if e.is_dir() else {"bytes": e.stat().st_size})}
            for e in entries]}

    @server.tool()
    def read_file(path: str) -> dict:
        """Read a text file from the sandbox (first 64 KB)."""
        target = inside(path)
        if not target.is_file():
            raise ToolError(f"{path!r} is not a file in the sandbox; use list_directory to see what is there.")
        data = _head(target, MAX_READ + 1)
        if data is None:
            raise ToolError(f"{path!r} is not a regular file; only files can be read.")
        return {"path": rel(target), "text": data[:MAX_READ].decode("utf-8", errors="replace"), "truncated": len(data) > MAX_READ}

    @server.tool()
    def search_files(text: str) -> dict:
        """Find lines containing a text in the sandbox's text files."""
        needle = (text or "").casefold().strip()
        if not needle:
            raise ToolError("text is empty: say what to look for.")
        hits = []
        # The same walls as read_file: a link whose target lies outside the sandbox is skipped (it
        # returned /etc/passwd), and so is anything that is not a regular file (a FIFO would hang).
        files = (p for p in root.rglob("*") if _inside(p.resolve(), root) and p.is_file())
        for i, f in enumerate(sorted(files)):
            if i >= MAX_FILES or len(hits) >= MAX_HITS:
                break
            data = _head(f.resolve(), MAX_READ)
            try:
                lines = data.decode("utf-8").splitlines() if data is not None else []
            except UnicodeDecodeError:
                continue
            hits += [{"path": rel(f), "line": n, "text": line.strip()} for n, line in enumerate(lines, 1) if needle in line.casefold()]
        return {"text": text, "hits": hits[:MAX_HITS], "truncated": len(hits) > MAX_HITS}

    return server


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--root", required=True, help="the sandbox folder")
    p.add_argument("--instance", default="", help="a tag naming the gateway instance (lets tests find their processes)")
    args = p.parse_args(argv)
    build(Path(args.root)).run("stdio")


if __name__ == "__main__":
    main()
