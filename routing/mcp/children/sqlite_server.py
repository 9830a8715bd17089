"""Child MCP server of the `sqlite` power: a read-only SQLite database.

The database is built in memory from a SQL file (the bundled sample) or opened read-only from a
.db/.sqlite file; then every statement goes through an authorizer that allows reading only, and
a progress handler that stops a query running longer than QUERY_SECONDS.
"""
from __future__ import annotations

import argparse
import sqlite3
import time
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

MAX_ROWS = 200
QUERY_SECONDS = 2.0
_READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION}
_RECURSIVE = getattr(sqlite3, "SQLITE_RECURSIVE", 33)


def open_database(path: Path) -> sqlite3.Connection:
    if path.suffix.lower() == ".sql":
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        conn.executescript(path.read_text(encoding="utf-8"))
    else:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    conn.execute("PRAGMA query_only = ON")
    conn.set_authorizer(_authorize)
    return conn


def _authorize(action, *_):
    """Reading only: every other action (writes, ATTACH, PRAGMA, schema changes) is denied."""
    return sqlite3.SQLITE_OK if action in _READ_ACTIONS or action == _RECURSIVE else sqlite3.SQLITE_DENY


def build(database: Path) -> MCPServer:
    conn = open_database(database)
    server = MCPServer("sqlite", instructions=f"Read-only SQLite database {database.name}.")

    def run(sql: str, params: tuple = ()) -> sqlite3.Cursor:
        deadline = time.monotonic() + QUERY_SECONDS
        conn.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 10_000)
        try:
            return conn.execute(sql, params)
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if "not authorized" in text:
                raise ToolError("Only reading is allowed: this database is read-only (SELECT / WITH statements).") from None
            if "interrupted" in text:
                raise ToolError(f"The query ran longer than {QUERY_SECONDS:g} s and was stopped; add filters or LIMIT.") from None
            raise ToolError(f"SQLite error: {text}") from None
        finally:
            conn.set_progress_handler(None, 0)

    def table_names() -> list[str]:
        conn.set_authorizer(None)
        try:
            return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        finally:
            conn.set_authorizer(_authorize)

    @server.tool()
    def list_tables() -> dict:
        """List the tables of the SQLite database with their row counts."""
        return {"tables": [{"name": t, "rows": run(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0]} for t in table_names()]}

    @server.tool()
    def describe_table(table: str) -> dict:
        """Columns, types and keys of one table."""
        if table not in table_names():
            raise ToolError(f"No table named {table!r}. Tables: {', '.join(table_names())}.")
        conn.set_authorizer(None)
        try:
            cols = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
            fks = conn.execute(f'PRAGMA foreign_key_list("{table}")').fetchall()
        finally:
            conn.set_authorizer(_authorize)
        return {
            "table": table,
            "columns": [{"name": c[1], "type": c[2], "not_null": bool(c[3]), "primary_key": bool(c[5])} for c in cols],
            "foreign_keys": [{"column": f[3], "references": f"{f[2]}.{f[4]}"} for f in fks],
        }

    @server.tool()
    def query_database(sql: str, limit: int = 50) -> dict:
        """Run one read-only SQL SELECT and return the rows (at most 200)."""
        if not isinstance(sql, str) or not sql.strip():
            raise ToolError("sql is empty: pass one SELECT statement.")
        if sql.strip().rstrip(";").count(";"):
            raise ToolError("One statement at a time, please.")
        limit = max(1, min(int(limit), MAX_ROWS))
        cur = run(sql)
        columns = [d[0] for d in cur.description or ()]
        rows = cur.fetchmany(limit + 1)
        return {"columns": columns, "rows": [list(r) for r in rows[:limit]], "truncated": len(rows) > limit}

    return server


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--database", required=True, help="a .sql file (built in memory) or a SQLite file (opened read-only)")
    p.add_argument("--instance", default="", help="a tag naming the gateway instance (lets tests find their processes)")
    args = p.parse_args(argv)
    build(Path(args.database)).run("stdio")


if __name__ == "__main__":
    main()
