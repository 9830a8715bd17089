"""Real MCP servers behind the gateway, driven over both transports by the SDK's own clients
(mcp.ClientSession over stdio_client, and over streamable_http_client): resolve, activate a
reference server, call its tool and get a real result (the git log of a fixture repository, a
PostgreSQL row, the time in a zone), the cap closing the least recently used child, a killed child,
a missing program, a slow call's deadline, the bearer token off loopback. Every test ends by
checking that no process it started (tagged with a unique instance id) is left behind.

Needs what .ci/run installs: mcp-server-git / mcp-server-time (pip), .mcp-node (npm) and Debian's
postgresql; a test whose piece is missing here is skipped and says which.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

anyio = pytest.importorskip("anyio")
pytest.importorskip("mcp")
from mcp import MCPError  # noqa: E402

from tests.mcp_harness import (  # noqa: E402
    NODE_BIN,
    ROOT,
    gateway_env,
    http_client,
    kill_all,
    make_git_repo,
    start_http_gateway,
    stdio_gateway,
    stop_http_gateway,
    tagged_pids,
    text_of,
    wait_reaped,
)

PG_PORT = 8643        # the throwaway PostgreSQL of these tests (this feature's port range 8641-8649)
HTTP_PORT = 8644
HTTP_TOKEN_PORT = 8645
SCENARIO_SECONDS = 120


def _need(program: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed (pip install -r requirements.txt)")


@pytest.fixture(scope="module")
def reference():
    """What every scenario needs: the programs, a fixture git repository, PostgreSQL, a state folder."""
    _need("mcp-server-git")
    _need("mcp-server-time")
    for program in ("mcp-server-postgres", "mcp-server-memory", "mcp-server-filesystem"):
        if not (NODE_BIN / program).exists():
            pytest.skip(f"{program} is not installed (npm install --prefix .mcp-node)")
    from routing.mcp.pgfixture import PgCluster, PgUnavailable

    try:
        cluster = PgCluster(tempfile.mkdtemp(prefix="routing-pg-"), PG_PORT).start()
    except PgUnavailable as exc:
        pytest.skip(str(exc))
    repo, messages = make_git_repo()
    state = Path(tempfile.mkdtemp(prefix="routing-state-"))
    try:
        yield {"pg": cluster, "repo": repo, "messages": messages, "state": state}
    finally:
        cluster.stop()
        shutil.rmtree(repo, ignore_errors=True)
        shutil.rmtree(state, ignore_errors=True)


def env_for(reference, tag: str, **extra: str) -> dict:
    return gateway_env(tag, ROUTING_GIT_REPOSITORY=str(reference["repo"]), ROUTING_POSTGRES_URL=reference["pg"].url,
                       ROUTING_MCP_STATE=str(reference["state"]), **extra)


def child_pid(tag: str, program: str) -> int:
    for pid in tagged_pids(tag):
        try:
            if program.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        except OSError:
            pass
    raise AssertionError(f"no running {program} child of {tag}")


async def session_with_three_servers(c, reference, tag: str) -> None:
    """resolve -> activate -> call on git, time and postgres; the cap closes git for memory; a killed child."""
    repo, messages = reference["repo"], reference["messages"]
    assert c.init.capabilities.tools.list_changed  # announced on both transports
    assert await c.tool_names() == ["resolve_intent", "activate_power"]

    seen = len(c.changed)
    hit = await c.json("resolve_intent", {"query": "show the git log of this repository"})
    assert hit["status"] == "activated" and hit["power"]["name"] == "git"
    assert {"git__git_log", "git__git_status", "git__git_show"} <= {t["name"] for t in hit["tools"]}
    await c.wait_changed(seen + 1)
    log = await c.call("git__git_log", {"repo_path": str(repo), "max_count": 5})
    text = text_of(log)
    assert not log.is_error and all(m in text for m in messages) and "Ana Putri" in text
    assert text.index(messages[-1]) < text.index(messages[0])  # newest first

    found = await c.json("resolve_intent", {"query": "what time is it in Tokyo"})
    assert found["status"] == "activated" and found["power"]["name"] == "time"
    converted = await c.call("time__convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Jakarta"})
    assert not converted.is_error and "19:00" in text_of(converted) and "Asia/Jakarta" in text_of(converted)

    act = await c.json("activate_power", {"name": "postgres"})
    assert act["status"] == "activated" and act["live"] and act["closed"] == []
    assert [t["name"] for t in act["tools"]] == ["postgres__query"]
    row = await c.call("postgres__query", {"sql": "SELECT name, city FROM customers WHERE id = 3"})
    assert not row.is_error and "Chen Wei" in text_of(row) and "Surabaya" in text_of(row)
    refused = await c.call("postgres__query", {"sql": "DELETE FROM customers"})
    assert refused.is_error and "TOOL_ERROR" in text_of(refused) and "read-only" in text_of(refused)
    assert len(tagged_pids(tag)) >= 4  # the gateway and its three children

    # the cap (settings children.max_running: 3): memory closes the least recently used, git
    seen = len(c.changed)
    mem = await c.json("activate_power", {"name": "memory"})
    assert mem["status"] == "activated" and mem["closed"] == ["git"]
    await c.wait_changed(seen + 1)
    names = await c.tool_names()
    assert not [n for n in names if n.startswith("git__")] and "memory__create_entities" in names
    with pytest.raises(MCPError) as gone:
        await c.call("git__git_log", {"repo_path": str(repo)})
    assert "Unknown tool 'git__git_log'" in str(gone.value)
    made = await c.call("memory__create_entities", {"entities": [{"name": "Ana Putri", "entityType": "customer", "observations": ["prefers email"]}]})
    assert not made.is_error
    searched = await c.call("memory__search_nodes", {"query": "Ana"})
    assert "prefers email" in text_of(searched)

    # a killed child: the call says POWER_DIED, its tools leave the list, activation restarts it
    os.kill(child_pid(tag, "mcp-server-postgres"), signal.SIGKILL)
    seen = len(c.changed)
    dead = await c.call("postgres__query", {"sql": "SELECT 1"})
    assert dead.is_error and "POWER_DIED" in text_of(dead)
    await c.wait_changed(seen + 1)
    assert not [n for n in await c.tool_names() if n.startswith("postgres__")]
    again = await c.json("activate_power", {"name": "postgres"})
    assert again["status"] == "activated"
    assert "Chen Wei" in text_of(await c.call("postgres__query", {"sql": "SELECT name FROM customers WHERE id = 3"}))


def test_stdio_session_with_reference_servers(reference):
    tag = f"ref-stdio-{uuid.uuid4().hex[:10]}"

    async def main():
        with anyio.fail_after(SCENARIO_SECONDS):
            async with stdio_gateway(env_for(reference, tag)) as c:
                await session_with_three_servers(c, reference, tag)
                # the reference filesystem server, read-only: its write tools are not exposed
                fs = await c.json("activate_power", {"name": "filesystem"})
                listed = {t["name"] for t in fs["tools"]}
                assert "filesystem__read_text_file" in listed and not {"filesystem__write_file", "filesystem__edit_file"} & listed
                readme = await c.call("filesystem__read_text_file", {"path": str(ROOT / "lexicons/powers/sandbox/README.txt")})
                assert not readme.is_error and text_of(readme).strip()

    try:
        anyio.run(main)
    finally:
        left = wait_reaped(tag)
        kill_all(left)
    assert not left, f"processes left behind after the client disconnected: {left}"


def test_streamable_http_session_with_reference_servers(reference):
    tag = f"ref-http-{uuid.uuid4().hex[:10]}"
    proc = start_http_gateway(f"127.0.0.1:{HTTP_PORT}", env_for(reference, tag))
    try:
        async def main():
            with anyio.fail_after(SCENARIO_SECONDS):
                async with http_client(f"http://127.0.0.1:{HTTP_PORT}/mcp") as c:
                    await session_with_three_servers(c, reference, tag)

        anyio.run(main)
        # the client closed its session (DELETE): that session's children are reaped, the gateway serves on
        left = wait_reaped(tag, keep=(proc.pid,))
        assert not left, f"children left behind after the HTTP session ended: {left}"
        assert proc.poll() is None
    finally:
        code = stop_http_gateway(proc)
        left = wait_reaped(tag)
        kill_all(left)
    assert code in (0, -signal.SIGTERM) and not left  # uvicorn re-raises SIGTERM after its graceful shutdown


@pytest.fixture()
def degraded_lexicons(tmp_path):
    """A copy of the powers lexicon where git's program is missing and postgres has a 1.5 s deadline."""
    root = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons" / "powers", root / "powers", ignore=shutil.ignore_patterns(".history", ".*.json", ".*.npz"))
    shutil.copytree(ROOT / "lexicons" / "_shared", root / "_shared")
    path = root / "powers" / "servers.yaml"
    text = path.read_text()
    assert "command: mcp-server-git\n" in text
    text = text.replace("command: mcp-server-git\n", "command: mcp-server-git-not-installed-here\n")
    text = text.replace('      command: "{node_bin}/mcp-server-postgres"\n', '      command: "{node_bin}/mcp-server-postgres"\n      timeout: 1.5\n')
    path.write_text(text)
    return root


def test_missing_program_and_slow_call_deadline(reference, degraded_lexicons):
    tag = f"ref-degraded-{uuid.uuid4().hex[:10]}"

    async def main():
        with anyio.fail_after(SCENARIO_SECONDS):
            async with stdio_gateway(env_for(reference, tag, ROUTING_LEXICONS=str(degraded_lexicons))) as c:
                missing = await c.call("activate_power", {"name": "git"})
                body = text_of(missing)
                assert missing.is_error and "SERVER_MISSING" in body and "mcp-server-git-not-installed-here" in body
                assert "pip install mcp-server-git" in body
                hit = await c.json("resolve_intent", {"query": "show the git log of this repository"})
                assert hit["status"] == "activated" and hit["activation_error"]["code"] == "SERVER_MISSING"
                # the gateway keeps serving every other power
                ok = await c.json("activate_power", {"name": "postgres"})
                assert ok["status"] == "activated"
                seen = len(c.changed)
                slow = await c.call("postgres__query", {"sql": "SELECT pg_sleep(20)"})
                assert slow.is_error and "POWER_TIMEOUT" in text_of(slow) and "1.5 s" in text_of(slow)
                await c.wait_changed(seen + 1)
                assert not [n for n in await c.tool_names() if n.startswith("postgres__")]
                back = await c.json("activate_power", {"name": "postgres"})
                assert back["status"] == "activated"
                assert "Budi Santoso" in text_of(await c.call("postgres__query", {"sql": "SELECT name FROM customers WHERE id = 2"}))

    try:
        anyio.run(main)
    finally:
        left = wait_reaped(tag)
        kill_all(left)
    assert not left, f"processes left behind: {left}"


def test_http_off_loopback_needs_a_bearer_token(reference):
    import httpx

    tag = f"ref-token-{uuid.uuid4().hex[:10]}"
    refused = subprocess.run([sys.executable, "-m", "routing", "mcp", "--http", f"0.0.0.0:{HTTP_TOKEN_PORT}"], cwd=str(ROOT),
                             env=gateway_env(tag), capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "ROUTING_MCP_TOKEN" in refused.stderr

    token = uuid.uuid4().hex
    proc = start_http_gateway(f"0.0.0.0:{HTTP_TOKEN_PORT}", env_for(reference, tag, ROUTING_MCP_TOKEN=token))
    try:
        url = f"http://127.0.0.1:{HTTP_TOKEN_PORT}/mcp"
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
        headers = {"Accept": "application/json, text/event-stream"}
        assert httpx.post(url, json=init, headers=headers, timeout=10).status_code == 401
        assert httpx.post(url, json=init, headers={**headers, "Authorization": "Bearer wrong"}, timeout=10).status_code == 401

        async def main():
            with anyio.fail_after(SCENARIO_SECONDS):
                async with http_client(url, token=token) as c:
                    found = await c.json("resolve_intent", {"query": "what time is it in Tokyo"})
                    assert found["status"] == "activated" and found["power"]["name"] == "time"
                    now = await c.call("time__get_current_time", {"timezone": "Asia/Tokyo"})
                    assert not now.is_error and "Asia/Tokyo" in text_of(now)

        anyio.run(main)
    finally:
        code = stop_http_gateway(proc)
        left = wait_reaped(tag)
        kill_all(left)
    assert code in (0, -signal.SIGTERM) and not left  # uvicorn re-raises SIGTERM after its graceful shutdown


def test_a_crashed_gateway_leaves_no_children(reference):
    """The gateway killed outright (SIGKILL, no clean-up): its children see their stdin close and exit."""
    tag = f"ref-crash-{uuid.uuid4().hex[:10]}"

    async def main():
        with anyio.fail_after(SCENARIO_SECONDS):
            async with stdio_gateway(env_for(reference, tag)) as c:
                for power in ("git", "memory", "postgres"):
                    assert (await c.json("activate_power", {"name": power}))["status"] == "activated"
                gateway = [p for p in tagged_pids(tag) if b"-m\x00routing\x00mcp" in Path(f"/proc/{p}/cmdline").read_bytes()]
                assert len(gateway) == 1 and len(tagged_pids(tag)) == 4
                os.kill(gateway[0], signal.SIGKILL)
                left = await anyio.to_thread.run_sync(wait_reaped, tag)
                assert not left, f"children outlived their gateway: {left}"

    try:
        anyio.run(main)
    except BaseExceptionGroup as group:  # the client's own pipe to the killed gateway breaks: expected
        if group.subgroup(AssertionError) is not None:
            raise
    except Exception as exc:  # noqa: BLE001 - same, when not grouped
        if isinstance(exc, AssertionError):
            raise
    finally:
        left = wait_reaped(tag)
        kill_all(left)
    assert not left
