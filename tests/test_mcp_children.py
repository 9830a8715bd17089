"""The bundled child servers in process (their MCPServer, no pipes): read-only SQLite with a time
limit, and a filesystem sandbox nothing escapes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

anyio = pytest.importorskip("anyio")
pytest.importorskip("mcp")

from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402

from routing.mcp.children import filesystem_server, sqlite_server  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "lexicons" / "powers" / "sample" / "sample.sql"
SANDBOX = ROOT / "lexicons" / "powers" / "sandbox"


def call(server, tool, args):
    async def go():
        return await server.call_tool(tool, args)
    return json.loads(anyio.run(go).content[0].text)


def test_sqlite_reads_and_refuses_everything_else(monkeypatch):
    server = sqlite_server.build(SAMPLE)
    top = call(server, "query_database", {"sql": "SELECT c.name, SUM(l.quantity * p.price) AS spent FROM customers c "
                                                 "JOIN orders o ON o.customer_id = c.id JOIN order_lines l ON l.order_id = o.id "
                                                 "JOIN products p ON p.id = l.product_id WHERE o.status = 'paid' "
                                                 "GROUP BY c.id ORDER BY spent DESC LIMIT 1"})
    assert top["columns"] == ["name", "spent"] and top["rows"] == [["Fatima Noor", 60.5]]
    assert call(server, "describe_table", {"table": "orders"})["foreign_keys"] == [{"column": "customer_id", "references": "customers.id"}]
    assert call(server, "query_database", {"sql": "SELECT id FROM orders", "limit": 3})["truncated"] is True
    for sql, words in (("DROP TABLE orders", "read-only"), ("INSERT INTO products VALUES (9, 'x', 'y', 1)", "read-only"),
                       ("ATTACH DATABASE '/tmp/x.db' AS x", "read-only"), ("SELECT 1; SELECT 2", "One statement"),
                       ("SELECT nope FROM orders", "no such column")):
        with pytest.raises(ToolError, match=words):
            call(server, "query_database", {"sql": sql})
    monkeypatch.setattr(sqlite_server, "QUERY_SECONDS", 0.2)
    slow = sqlite_server.build(SAMPLE)
    with pytest.raises(ToolError, match="longer than"):
        call(slow, "query_database", {"sql": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"})


def test_filesystem_stays_in_the_sandbox(tmp_path):
    server = filesystem_server.build(SANDBOX)
    names = {e["name"] for e in call(server, "list_directory", {"path": "."})["entries"]}
    assert {"README.txt", "notes", "data"} <= names
    assert "Espresso" in call(server, "read_file", {"path": "data/products.csv"})["text"]
    for path in ("../settings.yaml", "notes/../../tools.yaml"):
        with pytest.raises(ToolError, match="outside the sandbox"):
            call(server, "read_file", {"path": path})
    with pytest.raises(ToolError, match="not a file in the sandbox"):  # absolute paths are read from the sandbox root
        call(server, "read_file", {"path": "/etc/passwd"})
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    box = tmp_path / "box"
    box.mkdir()
    (box / "link.txt").symlink_to(outside)
    with pytest.raises(ToolError, match="outside the sandbox"):
        call(filesystem_server.build(box), "read_file", {"path": "link.txt"})


def test_filesystem_search_stays_in_the_sandbox_too(tmp_path):
    """search_files followed a link out and returned /etc/passwd (read_file refused the same path)."""
    import os

    outside = tmp_path / "secret.txt"
    outside.write_text("root:x:0:0 the secret line\n")
    away = tmp_path / "away"
    away.mkdir()
    (away / "more.txt").write_text("root: another secret\n")
    box = tmp_path / "box"
    box.mkdir()
    (box / "mine.txt").write_text("root of my own notes\n")
    (box / "link.txt").symlink_to(outside)
    (box / "passwd").symlink_to("/etc/passwd")
    (box / "dir-link").symlink_to(away, target_is_directory=True)
    os.mkfifo(box / "pipe")  # reading it would block forever
    hits = call(filesystem_server.build(box), "search_files", {"text": "root"})["hits"]
    assert [h["path"] for h in hits] == ["mine.txt"], hits
