"""Live powers: the child MCP servers the gateway starts, lists and forwards calls to.

    ChildServer   one child process, owned by one task (the SDK's stdio_client + ClientSession are
                  entered and left in that task); stop() closes its stdin, and the SDK waits, then
                  terminates / kills the process tree, so every child is reaped.
    ChildPool     activate(name) -> {status, power, tools}: a live power's child is started and its
                  own tools listed (expert guidance from servers.yaml appended); a described-only
                  power gets its tools from servers.yaml. call(tool, args) forwards to the child.
                  A child that died, hangs or cannot start gives a ProxyError with a plain message.
    BlockingPool  the same from synchronous code (the Streamlit app): an event loop in a thread.

Protocol-agnostic towards the agent: routing.mcp.server maps these to MCP replies.
"""
from __future__ import annotations

import atexit
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import TaskGroup
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import CONNECTION_CLOSED

from routing.designs.power_gateway.catalog import PowerSpec, steered
from routing.designs.power_gateway.design import TOOL_SEPARATOR, PowerGateway

from .launch import Launch, launch_for

REPO_ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 20.0   # a child must answer initialize + tools/list within this
CALL_SECONDS = 30.0    # a forwarded call must answer within this
STOP_SECONDS = 8.0     # stdin closed -> grace -> SIGTERM -> SIGKILL (the SDK's bounded shutdown)
IDLE_SECONDS = 600.0   # the app's children stop after this long unused


class ProxyError(Exception):
    """A forwarded call could not be answered (child not running, died, timed out, no server)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ChildLimits:
    """settings.yaml `children:` of a gateway domain (see lexicons/powers/settings.yaml)."""

    max_running: int = 3
    call_seconds: float = CALL_SECONDS
    start_seconds: float = START_SECONDS

    @classmethod
    def of(cls, gateway: PowerGateway) -> "ChildLimits":
        raw = gateway.domain.settings.extra.get("children") or {}

        def number(key: str, default: float) -> float:
            value = raw.get(key, default)
            return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else default

        return cls(max(1, int(number("max_running", cls.max_running))), number("call_seconds", CALL_SECONDS),
                   number("start_seconds", START_SECONDS))


def child_command(spec: PowerSpec, gateway: PowerGateway, instance: str = "") -> tuple[str, list[str]]:
    """The program and arguments a power's child starts with (routing.mcp.launch)."""
    launch = launch_for(spec, gateway.catalog, instance=instance)
    return launch.command, launch.args


def _errlog():
    """Children's stderr: ours when it is a real file, else the null device (never the MCP stdout)."""
    try:
        sys.stderr.fileno()
        return sys.stderr
    except (AttributeError, OSError, ValueError):
        return open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process


@dataclass
class ChildServer:
    power: str
    launch: Launch
    call_seconds: float = CALL_SECONDS
    start_seconds: float = START_SECONDS
    tools: list = field(default_factory=list)  # mcp Tool objects, as the child lists them
    session: Any = None
    last_used: float = 0.0  # time.monotonic() of the last activation or call
    error: str | None = None
    pid_hint: str = ""

    def __post_init__(self):
        self._stop = anyio.Event()
        self._done = anyio.Event()
        self._ready = anyio.Event()

    @property
    def alive(self) -> bool:
        return self.session is not None and not self._done.is_set()

    async def run(self) -> None:
        """The child's whole life, in one task: start, serve calls until stop() or death, reap."""
        from mcp import ClientSession, StdioServerParameters, stdio_client

        params = StdioServerParameters(command=self.launch.command, args=self.launch.args, cwd=self.launch.cwd,
                                       env=self.launch.env)
        try:
            async with stdio_client(params, errlog=_errlog()) as (read, write):
                async with ClientSession(read, write) as session:
                    with anyio.fail_after(self.start_seconds):
                        await session.initialize()
                        self.tools = list((await session.list_tools()).tools)
                    self.session = session
                    self._ready.set()
                    await self._stop.wait()
        except Exception as exc:  # noqa: BLE001 - reported to the caller as a plain message
            self.error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        finally:
            self.session = None
            self._ready.set()
            self._done.set()

    async def started(self) -> None:
        with anyio.fail_after(self.start_seconds + STOP_SECONDS):
            await self._ready.wait()
        if self.session is None:
            raise ProxyError("POWER_START_FAILED", f"The {self.power} server could not start ({self.error or 'no reply'}).")

    async def call(self, tool: str, arguments: dict) -> Any:
        self.last_used = time.monotonic()
        session = self.session
        if session is None:
            raise ProxyError("POWER_NOT_RUNNING", self._gone())
        try:
            with anyio.fail_after(self.call_seconds):
                return await session.call_tool(tool, arguments)
        except MCPError as exc:
            if getattr(exc, "code", None) == CONNECTION_CLOSED or self._done.is_set():
                self.error = self.error or str(exc)
                raise ProxyError("POWER_DIED", self._gone()) from None
            # the child answered with a JSON-RPC error: it is alive, this call failed
            raise ProxyError("TOOL_ERROR", f"The {self.power} server refused {tool}: {exc}") from None
        except TimeoutError:
            raise ProxyError("POWER_TIMEOUT", f"The {self.power} server did not answer {tool} within {self.call_seconds:g} s, "
                                              f"so it was stopped and its tools removed; call activate_power('{self.power}') "
                                              f"to start it again.") from None
        except Exception as exc:  # noqa: BLE001 - the child died or closed its pipes
            self.error = self.error or f"{type(exc).__name__}: {exc}"
            raise ProxyError("POWER_DIED", self._gone()) from None

    def _gone(self) -> str:
        return (f"The {self.power} server stopped (its process exited or closed its connection). "
                f"Its tools were removed; call activate_power('{self.power}') to start it again.")

    async def stop(self) -> None:
        self._stop.set()
        with anyio.move_on_after(STOP_SECONDS * 2):
            await self._done.wait()


class ChildPool:
    """The powers activated in one gateway session, and their live children."""

    def __init__(self, gateway: PowerGateway, task_group: TaskGroup, *, instance: str = "", limits: ChildLimits | None = None):
        self.gateway = gateway
        self.tg = task_group
        self.instance = instance
        self.limits = limits or ChildLimits.of(gateway)
        self.children: dict[str, ChildServer] = {}
        self.active: dict[str, list[dict]] = {}  # power -> its tools as listed by the gateway
        self._routes: dict[str, tuple[str, str]] = {}  # listed tool name -> (power, child tool name)
        self._schemas: dict[str, dict] = {}
        self._lock = anyio.Lock()

    # ------------------------------------------------------------ activation

    async def activate(self, name: Any) -> dict:
        """activate_power: {status: activated, power, live, tools, closed} or the design's error dict.
        `closed` names the powers whose children were stopped to stay within max_running (LRU)."""
        out = self.gateway.activate(name)
        if out.get("status") != "activated":
            return out
        power = out["power"]
        spec = self.gateway.catalog.get(power)
        closed: list[str] = []
        async with self._lock:
            if spec.live:
                child = self.children.get(power)
                if child is None or not child.alive:
                    if child is not None:
                        await child.stop()
                    launch = launch_for(spec, self.gateway.catalog, instance=self.instance)
                    if launch.missing:
                        self.children.pop(power, None)
                        return {"status": "error", "error": {"code": "SERVER_MISSING", "message": launch.missing},
                                "power": power, "server": spec.server_label}
                    closed = await self._make_room(keep=power)
                    timeout = spec.server.get("timeout")
                    child = ChildServer(power, launch, call_seconds=float(timeout or self.limits.call_seconds),
                                        start_seconds=self.limits.start_seconds)
                    self.children[power] = child
                    self.tg.start_soon(child.run)
                child.last_used = time.monotonic()
                try:
                    await child.started()
                except ProxyError as exc:
                    self.children.pop(power, None)
                    return {"status": "error", "error": {"code": exc.code, "message": exc.message}, "power": power,
                            "closed": closed, "changed": bool(closed)}
                tools = []
                for t in child.tools:
                    if not spec.exposes(t.name):
                        continue
                    listed = f"{power}{TOOL_SEPARATOR}{t.name}"
                    schema = dict(t.input_schema or {"type": "object", "properties": {}})
                    tools.append({"name": listed, "description": steered(t.description or "", spec.guidance_for(t.name)),
                                  "inputSchema": schema})
                    self._routes[listed] = (power, t.name)
                    self._schemas[listed] = schema
            else:
                tools = out["tools"]
                for t in tools:
                    self._routes[t["name"]] = (power, t["name"].split(TOOL_SEPARATOR, 1)[1])
                    self._schemas[t["name"]] = t["inputSchema"]
            changed = self.active.get(power) != tools or bool(closed)
            self.active[power] = tools
        return {**out, "tools": tools, "live": spec.live, "changed": changed, "closed": closed}

    async def _make_room(self, *, keep: str) -> list[str]:
        """Stop the least recently used children until one more fits under max_running."""
        closed = []
        while sum(1 for p in self.children if p != keep) >= self.limits.max_running:
            oldest = min((p for p in self.children if p != keep), key=lambda p: self.children[p].last_used)
            await self._forget(oldest)
            closed.append(oldest)
        return closed

    async def deactivate(self, power: str) -> None:
        await self._forget(power)

    async def _forget(self, power: str) -> None:
        """The power's tools leave the list and its child (if any) is stopped and reaped."""
        self.active.pop(power, None)
        for listed in [k for k, (p, _) in self._routes.items() if p == power]:
            self._routes.pop(listed, None)
            self._schemas.pop(listed, None)
        child = self.children.pop(power, None)
        if child is not None:
            await child.stop()

    def listed_tools(self) -> list[dict]:
        return [t for tools in self.active.values() for t in tools]

    def schema_of(self, listed: str) -> dict | None:
        return self._schemas.get(listed)

    def knows(self, listed: str) -> bool:
        return listed in self._routes

    # ------------------------------------------------------------ calls

    async def call(self, listed: str, arguments: dict) -> Any:
        """Forward a call to the power's child; the child's CallToolResult comes back as is."""
        power, tool = self._routes[listed]
        spec = self.gateway.catalog.get(power)
        if not spec.live:
            raise ProxyError("NO_SERVER_CONFIGURED",
                             f"The {power} power is described only: no MCP server is configured for it, so {tool} cannot run here. "
                             f"Add a server for it in lexicons/{self.gateway.name}/servers.yaml.")
        child = self.children.get(power)
        if child is None:
            raise ProxyError("POWER_NOT_RUNNING", f"The {power} server is not running; call activate_power('{power}').")
        try:
            return await child.call(tool, arguments)
        except ProxyError as exc:
            if exc.code in ("POWER_DIED", "POWER_TIMEOUT"):
                await self.deactivate(power)  # a hung child is stopped too: it would hold the next call
            raise

    async def stop_idle(self, idle_seconds: float) -> list[str]:
        """Stop the children unused for `idle_seconds` (their power stays active, described from
        its last listing; activating it again restarts the child)."""
        now = time.monotonic()
        idle = [p for p, c in self.children.items() if now - c.last_used > idle_seconds]
        for power in idle:
            await self.deactivate(power)
        return idle

    async def close(self) -> None:
        for power in list(self.children):
            child = self.children.pop(power)
            await child.stop()
        self.active.clear()
        self._routes.clear()


class BlockingPool:
    """A ChildPool for synchronous callers (the Streamlit app): its own event loop in a daemon
    thread. Children unused for `idle_seconds` are stopped (a browser session can end without a
    word); close() stops every child, and runs at interpreter exit too."""

    def __init__(self, gateway: PowerGateway, *, instance: str = "", idle_seconds: float = IDLE_SECONDS):
        self.gateway = gateway
        self.instance = instance
        self.idle_seconds = idle_seconds
        self._portal_cm = anyio.from_thread.start_blocking_portal()
        self._portal = self._portal_cm.__enter__()
        self._closed = False
        self._lock = threading.Lock()
        self._owner_future, self._pool = self._portal.start_task(self._owner)
        atexit.register(self.close)

    async def _owner(self, *, task_status=anyio.TASK_STATUS_IGNORED) -> None:
        """Owns the task group the children run in, from start to close (one task, as anyio wants)."""
        self._stop = anyio.Event()
        async with anyio.create_task_group() as tg:
            pool = ChildPool(self.gateway, tg, instance=self.instance)
            task_status.started(pool)
            while not self._stop.is_set():
                with anyio.move_on_after(min(self.idle_seconds / 2, 30.0)):
                    await self._stop.wait()
                if not self._stop.is_set():
                    await pool.stop_idle(self.idle_seconds)
            with anyio.CancelScope(shield=True):
                await pool.close()
            tg.cancel_scope.cancel()

    def activate(self, name: str) -> dict:
        return self._portal.call(self._pool.activate, name)

    def call(self, listed: str, arguments: dict) -> Any:
        return self._portal.call(self._pool.call, listed, arguments)

    def live_powers(self) -> list[str]:
        return [p for p, c in self._pool.children.items() if c.alive]

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        try:
            self._portal.call(self._stop.set)
            self._owner_future.result(timeout=STOP_SECONDS * 3)
        except Exception:  # noqa: BLE001 - closing must not raise at exit
            pass
        finally:
            try:
                self._portal_cm.__exit__(None, None, None)
            except Exception:  # noqa: BLE001
                pass
