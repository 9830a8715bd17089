"""servers.yaml `server:` blocks (program, placeholders, validation) and `python -m routing mcp
--refresh`: a power's tools rewritten from what its real server lists, through the safe writer."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from routing.core.errors import LexiconError
from routing.core.lexicon import load_domain
from routing.designs import build_router
from routing.mcp.launch import launch_for, server_status

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def lexicons(tmp_path):
    root = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons" / "powers", root / "powers", ignore=shutil.ignore_patterns(".history", ".*.json", ".*.npz"))
    shutil.copytree(ROOT / "lexicons" / "_shared", root / "_shared")
    return root


def gateway_of(root: Path):
    return build_router(load_domain("powers", root))


def test_a_server_block_is_expanded_and_checked(lexicons, monkeypatch):
    monkeypatch.setenv("ROUTING_GIT_REPOSITORY", "/srv/repos/shop")
    monkeypatch.setenv("ROUTING_MCP_STATE", "/tmp/routing-state-test")
    monkeypatch.delenv("ROUTING_POSTGRES_URL", raising=False)
    gw = gateway_of(lexicons)
    git = launch_for(gw.catalog.get("git"), gw.catalog, instance="tag-1")
    assert git.args == ["--repository", "/srv/repos/shop"] and git.env["ROUTING_MCP_INSTANCE"] == "tag-1"
    pg = launch_for(gw.catalog.get("postgres"), gw.catalog)
    assert pg.args == ["postgresql://postgres@127.0.0.1:5439/powers"]  # the documented default
    assert pg.command.endswith(".mcp-node/node_modules/.bin/mcp-server-postgres")
    memory = launch_for(gw.catalog.get("memory"), gw.catalog)
    assert memory.env["MEMORY_FILE_PATH"] == "/tmp/routing-state-test/memory.jsonl"
    fs = launch_for(gw.catalog.get("filesystem"), gw.catalog)
    assert fs.args == [str(lexicons / "powers" / "sandbox")]
    monkeypatch.delenv("ROUTING_GIT_REPOSITORY")
    assert launch_for(gw.catalog.get("git"), gw.catalog).args == ["--repository", str(ROOT)]  # {repo}

    rows = {r["power"]: r for r in server_status(gw)}
    assert rows["stripe"]["state"] == "described" and rows["sqlite"]["state"] == "live"
    monkeypatch.setenv("PATH", str(lexicons))  # no program on this PATH
    rows = {r["power"]: r for r in server_status(gw)}
    assert rows["time"]["state"] == "missing" and "pip install mcp-server-time" in rows["time"]["message"]


@pytest.mark.parametrize("bad, says", [
    ("command: 42", "server.command must be the program"),
    ("command: mcp-server-time\n      args: --local-timezone", "server.args must be a list"),
    ("command: mcp-server-time\n      timeout: -1", "server.timeout must be a number of seconds above 0"),
    ("command: mcp-server-time\n      restart: always", "unknown key 'restart'"),
    ("bundled: oracle", "server.bundled must be one of sqlite, filesystem"),
])
def test_a_broken_server_block_names_file_line_and_problem(lexicons, bad, says):
    path = lexicons / "powers" / "servers.yaml"
    text = path.read_text()
    block = "      command: mcp-server-time\n      args: [--local-timezone, UTC]\n"
    assert block in text
    path.write_text(text.replace(block, f"      {bad}\n"))
    with pytest.raises(LexiconError) as err:
        gateway_of(lexicons)
    messages = [str(p) for p in err.value.problems]
    assert any("servers.yaml line" in m and "power time" in m and says in m for m in messages), messages


def test_refresh_writes_what_the_server_lists(lexicons):
    if shutil.which("mcp-server-time") is None:
        pytest.skip("mcp-server-time is not installed (pip install -r requirements.txt)")
    servers = lexicons / "powers" / "servers.yaml"
    tools = lexicons / "powers" / "tools.yaml"
    # a stale listing: one tool with an old description (its guidance a person wrote), nothing from the server yet
    text = servers.read_text()
    start = text.index("  time:\n")
    end = text.index("\n  # A knowledge graph", start)
    stale = ("  time:\n    server:\n      command: mcp-server-time\n      args: [--local-timezone, UTC]\n"
             "      install: pip install mcp-server-time (requirements.txt)\n    tools:\n"
             "      - name: get_current_time\n        description: Old words.\n"
             "        guidance: Use IANA names.\n        input_schema: {type: object, properties: {}}\n")
    servers.write_text(text[:start] + stale + text[end:])
    tools.write_text(re.sub(r"\n      mcp: \[Get current time[^\n]*", "", tools.read_text()))
    git = servers.read_text().replace("command: mcp-server-git\n", "command: mcp-server-git-not-here\n")
    servers.write_text(git)

    gw = gateway_of(lexicons)
    assert [t.name for t in gw.catalog.get("time").tools] == ["get_current_time"]
    out = subprocess.run([sys.executable, "-m", "routing", "--lexicons", str(lexicons), "mcp", "--refresh", "--power", "time", "--power", "git"],
                         cwd=str(ROOT), capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    report = json.loads(out.stdout)
    assert out.returncode == 0 and report["status"] == "saved", out.stdout + out.stderr
    states = {r["power"]: r for r in report["powers"]}
    assert states["time"]["tools"] == ["get_current_time", "convert_time"]
    assert states["git"]["state"] == "not refreshed" and "mcp-server-git-not-here" in states["git"]["message"]

    gw = gateway_of(lexicons)  # what the gateway now says, read back from disk
    listed = {t.name: t for t in gw.catalog.get("time").tools}
    assert list(listed) == ["get_current_time", "convert_time"]
    assert listed["get_current_time"].description == "Get current time in a specific timezone"
    assert listed["get_current_time"].guidance == "Use IANA names."  # kept by name
    assert "source_timezone" in listed["convert_time"].input_schema["properties"]
    examples = dict(gw.domain.tools[[t.name for t in gw.domain.tools].index("time")].examples)
    assert {text for lang, text in gw.domain.tools[[t.name for t in gw.domain.tools].index("time")].examples if lang == "mcp"} == {
        "Get current time in a specific timezone", "Convert time between timezones"}
    assert examples  # and the hand-written ones stay
    after = servers.read_text()
    assert "  # A knowledge graph the agent keeps" in after and "  # Local git repositories" in after  # comments survive
    assert any((lexicons / "powers" / ".history").iterdir())  # the save can be undone
    again = subprocess.run([sys.executable, "-m", "routing", "--lexicons", str(lexicons), "mcp", "--refresh", "--power", "time"],
                           cwd=str(ROOT), capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert json.loads(again.stdout)["status"] == "unchanged"
