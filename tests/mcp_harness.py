"""Shared by the tests of real MCP servers behind the gateway: the gateway over stdio or Streamable
HTTP driven by the SDK's own clients, processes found by their instance tag, fixtures (a git
repository, a throwaway PostgreSQL). Not a test module."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[1]
NODE_BIN = ROOT / ".mcp-node" / "node_modules" / ".bin"


def tagged_pids(tag: str) -> list[int]:
    """Live processes whose command line or environment carries the tag (gateway and children)."""
    out = []
    needle = tag.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "stat").read_text().split(") ", 1)[1][:1] == "Z":
                continue
            if needle in (entry / "cmdline").read_bytes() or needle in (entry / "environ").read_bytes():
                out.append(int(entry.name))
        except OSError:
            continue
    return out


def wait_reaped(tag: str, seconds: float = 20.0, *, keep: tuple[int, ...] = ()) -> list[int]:
    deadline = time.monotonic() + seconds
    while True:
        left = [p for p in tagged_pids(tag) if p not in keep]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


def kill_all(pids) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def payload(result: types.CallToolResult) -> dict:
    return json.loads(result.content[0].text)


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


class Client:
    """A ClientSession that records tools/list_changed notifications."""

    def __init__(self, session: ClientSession, changed: list):
        self.s = session
        self.changed = changed
        self.init = None  # the server's initialize result

    async def wait_changed(self, count: int) -> None:
        with anyio.fail_after(15):
            while len(self.changed) < count:
                await anyio.sleep(0.02)

    async def tool_names(self) -> list[str]:
        return [t.name for t in (await self.s.list_tools()).tools]

    async def call(self, name: str, args: dict) -> types.CallToolResult:
        return await self.s.call_tool(name, args)

    async def json(self, name: str, args: dict) -> dict:
        return payload(await self.call(name, args))


def gateway_env(tag: str, **extra: str) -> dict:
    return {"ROUTING_MCP_INSTANCE": tag, "PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), **extra}


@asynccontextmanager
async def stdio_gateway(env: dict):
    changed: list = []

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changed.append(message)

    params = StdioServerParameters(command=sys.executable, args=["-m", "routing", "mcp", "--domain", "powers"], cwd=str(ROOT), env=env)
    async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):  # noqa: SIM115
        async with ClientSession(read, write, message_handler=on_message) as session:
            client = Client(session, changed)
            client.init = await session.initialize()
            yield client


@asynccontextmanager
async def http_client(url: str, *, token: str | None = None):
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    changed: list = []

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changed.append(message)

    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write, message_handler=on_message) as session:
                client = Client(session, changed)
                client.init = await session.initialize()
                yield client


def wait_port(host: str, port: int, seconds: float = 30.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the gateway exited with {proc.returncode}: {proc.stderr.read().decode(errors='replace') if proc.stderr else ''}")
        with socket.socket() as s:
            s.settimeout(0.5)
            if s.connect_ex((host, port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listens on {host}:{port}")


def start_http_gateway(address: str, env: dict) -> subprocess.Popen:
    host, port = address.rsplit(":", 1)
    proc = subprocess.Popen([sys.executable, "-m", "routing", "mcp", "--domain", "powers", "--http", address],
                            cwd=str(ROOT), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_port("127.0.0.1" if host == "0.0.0.0" else host, int(port), proc=proc)
    return proc


def stop_http_gateway(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def make_git_repo() -> tuple[Path, list[str]]:
    """A small repository with three commits of fixed messages, authors and dates."""
    repo = Path(tempfile.mkdtemp(prefix="routing-git-"))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "Ana Putri", "GIT_AUTHOR_EMAIL": "ana@example.org",
           "GIT_COMMITTER_NAME": "Ana Putri", "GIT_COMMITTER_EMAIL": "ana@example.org"}
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True, env=env)
    messages = ["Add the price list", "Raise espresso to 19.00", "Note the January stock count"]
    for i, message in enumerate(messages):
        (repo / "prices.txt").write_text("\n".join(messages[: i + 1]) + "\n")
        stamp = f"2026-01-{10 + i:02d}T09:00:00+00:00"
        subprocess.run(["git", "-C", str(repo), "add", "prices.txt"], check=True, env=env)
        subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", message], check=True,
                       env={**env, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp})
    return repo, messages
