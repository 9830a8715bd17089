"""The power gateway as a real MCP server, driven by the SDK's own stdio client
(mcp.ClientSession over mcp.client.stdio.stdio_client), as an MCP client would drive it.

Every scenario is bounded in time, and ends by checking that no process it started (the gateway
and its children, tagged with a unique instance id) is left behind.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import time
import uuid
from pathlib import Path

import pytest

anyio = pytest.importorskip("anyio")
mcp = pytest.importorskip("mcp")
import mcp_types as types  # noqa: E402
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_SECONDS = 90


def tagged_pids(tag: str) -> list[int]:
    """PIDs of live processes whose command line carries the tag (the gateway's children)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes() + (entry / "environ").read_bytes()  # reference servers carry it in their environment
            state = (entry / "stat").read_text().split(") ", 1)[1][:1]
        except OSError:
            continue
        if tag.encode() in cmd and state != "Z":
            out.append(int(entry.name))
    return out


def wait_reaped(tag: str, seconds: float = 15.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = tagged_pids(tag)
        if not left:
            return []
        time.sleep(0.2)
    return tagged_pids(tag)


from tests.mcp_harness import Client  # noqa: E402 - the SDK session that records tools/list_changed


def run_scenario(scenario, tag: str) -> None:
    async def main():
        changed: list = []

        async def on_message(message):
            if isinstance(message, types.ToolListChangedNotification):
                changed.append(message)

        params = StdioServerParameters(
            command=sys.executable, args=["-m", "routing", "mcp", "--domain", "powers"], cwd=str(ROOT),
            env={"ROUTING_MCP_INSTANCE": tag, "PYTHONPATH": str(ROOT)},
        )
        with anyio.fail_after(SCENARIO_SECONDS):
            async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
                async with ClientSession(read, write, message_handler=on_message) as session:
                    init = await session.initialize()
                    assert init.capabilities.tools is not None and init.capabilities.tools.list_changed
                    await scenario(Client(session, changed))

    try:
        anyio.run(main)
    finally:
        left = wait_reaped(tag)
        for pid in left:  # never leave a process behind, even when the test failed
            os.kill(pid, signal.SIGKILL)
        assert not left, f"processes left behind: {left}"


def payload(result: types.CallToolResult) -> dict:
    return json.loads(result.content[0].text)


def test_tiers_activation_child_calls_and_errors():
    tag = f"mcp-test-{uuid.uuid4().hex[:10]}"

    async def scenario(c: Client):
        assert await c.tool_names() == ["resolve_intent", "activate_power"]

        multiple = payload(await c.call("resolve_intent", {"query": "query the database"}))
        assert multiple["status"] == "multiple_matches"
        assert 2 <= len(multiple["matches"]) <= 3
        assert {"postgres", "mysql"} <= {m["name"] for m in multiple["matches"]}
        assert multiple["message"].endswith("Use activate_power(name) to select one.")
        assert all(set(m) == {"name", "confidence", "match_type", "description", "keywords"} for m in multiple["matches"])
        assert all(m["match_type"] == "keyword" for m in multiple["matches"])  # no embedding signal: never semantic

        weak = payload(await c.call("resolve_intent", {"query": "where did we leave the customer stuff"}))
        assert weak["status"] == "weak_matches" and 1 <= len(weak["matches"]) <= 5
        assert "clarify or rephrase" in weak["message"]

        none = payload(await c.call("resolve_intent", {"query": "tell me a joke"}))
        assert none["status"] == "not_found"
        assert len(none["available_powers"]) == 17 and {"name", "description"} == set(none["available_powers"][0])

        # activated: the power and its tools, registered on the gateway at once
        seen = len(c.changed)
        hit = payload(await c.call("resolve_intent", {"query": "list my s3 buckets"}))
        assert hit["status"] == "activated" and hit["power"]["name"] == "aws" and hit["power"]["confidence"] >= 0.85
        assert "aws__aws_list_s3_buckets" in {t["name"] for t in hit["tools"]}
        assert all("--- EXPERT GUIDANCE ---" in t["description"] for t in hit["tools"])
        await c.wait_changed(seen + 1)
        assert "aws__aws_list_s3_buckets" in await c.tool_names()
        described = await c.call("aws__aws_list_s3_buckets", {})
        assert described.is_error and "no MCP server is configured" in payload(described)["error"]["message"]

        # activate_power on a live power: child started, list_changed, its tools listed, real rows
        seen = len(c.changed)
        act = await c.call("activate_power", {"name": "sqlite"})
        assert not act.is_error and payload(act)["status"] == "activated" and payload(act)["live"] is True
        await c.wait_changed(seen + 1)
        names = await c.tool_names()
        assert {"sqlite__list_tables", "sqlite__describe_table", "sqlite__query_database"} <= set(names)
        rows = await c.call("sqlite__query_database", {"sql": "SELECT name FROM customers WHERE city = 'Jakarta' ORDER BY name"})
        assert not rows.is_error
        assert payload(rows)["rows"] == [["Ana Putri"], ["Dewi Lestari"]]
        tables = payload(await c.call("sqlite__list_tables", {}))
        assert {"name": "orders", "rows": 8} in tables["tables"]
        refused = await c.call("sqlite__query_database", {"sql": "DELETE FROM customers"})
        assert refused.is_error and "read-only" in refused.content[0].text
        assert payload(await c.call("sqlite__query_database", {"sql": "SELECT COUNT(*) FROM customers"}))["rows"] == [[6]]

        # the reference filesystem server (npm), confined to the sandbox; where `npm ci` in .mcp-node
        # has not run (README's test command alone), its activation says the program is missing
        sandbox = ROOT / "lexicons" / "powers" / "sandbox"
        act = await c.call("activate_power", {"name": "filesystem"})
        if (ROOT / ".mcp-node" / "node_modules" / ".bin" / "mcp-server-filesystem").exists():
            notes = await c.call("filesystem__search_files", {"path": str(sandbox), "pattern": "**/*.md"})
            assert not notes.is_error and "meeting-notes.md" in notes.content[0].text
            escape = await c.call("filesystem__read_text_file", {"path": str(sandbox / ".." / "settings.yaml")})
            assert escape.is_error and "outside allowed directories" in escape.content[0].text
        else:
            assert act.is_error and payload(act)["error"]["code"] == "SERVER_MISSING"
            assert "npm install --prefix .mcp-node" in payload(act)["error"]["message"]

        # unknown power: a clear error with a did-you-mean
        wrong = await c.call("activate_power", {"name": "postgre"})
        assert wrong.is_error and "Did you mean postgres" in payload(wrong)["error"]["message"]

        # bad arguments: an MCP error (JSON-RPC INVALID_PARAMS), not a crash
        for tool, args in (("resolve_intent", {}), ("resolve_intent", {"query": 42}),
                           ("activate_power", {"power": "sqlite"}), ("sqlite__query_database", {"limit": 5}),
                           ("no_such_tool", {})):
            with pytest.raises(MCPError) as err:
                await c.call(tool, args)
            assert err.value.code == types.INVALID_PARAMS, (tool, args)
        assert payload(await c.call("resolve_intent", {"query": "pg tables"}))["power"]["name"] == "postgres"

    run_scenario(scenario, tag)


def test_a_child_that_dies_gives_a_clear_error_and_the_gateway_keeps_serving():
    tag = f"mcp-test-{uuid.uuid4().hex[:10]}"

    async def scenario(c: Client):
        await c.call("activate_power", {"name": "sqlite"})
        children = [p for p in tagged_pids(tag) if b"sqlite_server" in Path(f"/proc/{p}/cmdline").read_bytes()]
        assert len(children) == 1
        os.kill(children[0], signal.SIGKILL)
        seen = len(c.changed)
        with anyio.fail_after(20):
            while True:  # the child's death may take a moment to reach the gateway's pipe
                died = await c.call("sqlite__list_tables", {})
                if died.is_error:
                    break
                await anyio.sleep(0.1)
        error = payload(died)["error"]
        assert error["code"] == "POWER_DIED" and "activate_power('sqlite')" in error["message"]
        await c.wait_changed(seen + 1)
        assert "sqlite__list_tables" not in await c.tool_names()
        # the gateway keeps serving, and the power can be started again
        assert payload(await c.call("resolve_intent", {"query": "database"}))["status"] == "multiple_matches"
        again = await c.call("activate_power", {"name": "sqlite"})
        assert not again.is_error
        assert payload(await c.call("sqlite__query_database", {"sql": "SELECT COUNT(*) FROM orders"}))["rows"] == [[8]]

    run_scenario(scenario, tag)
