"""The power gateway as a real MCP server over stdio (`python -m routing mcp [--domain powers]`).

Built on the official SDK's low-level `mcp.server.lowlevel.Server`, not MCPServer (FastMCP): the
tool list here is dynamic (a power's tools appear after activate_power and vanish when its child
dies) and every proxied tool carries the child's own JSON schema, which MCPServer would rebuild
from Python signatures. The low-level server takes tools/list and tools/call handlers and plain
schemas, and nothing else is needed. The child servers (routing.mcp.children) are MCPServer.

A thin adapter: the design (routing.designs.power_gateway) decides; this maps to MCP:
    tools/list                      resolve_intent, activate_power, then every activated power's tools
    resolve_intent(query)           the design's agent view (JSON text + structuredContent); an
                                    activated tier also activates the power (as activate_power)
    activate_power(name)            starts the child / lists the tools; notifications/tools/list_changed
    <power>__<tool>(...)            forwarded to the power's child; its result comes back as is
Bad arguments -> JSON-RPC error INVALID_PARAMS; a tool that fails -> a result with isError true.
"""
from __future__ import annotations

import hmac
import json
import logging
import os
from contextlib import asynccontextmanager
from typing import Any

import anyio
import jsonschema
import mcp_types as types
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.shared.exceptions import MCPError

from routing.designs.power_gateway.design import GATEWAY_TOOLS, PowerGateway, agent_view

from .proxy import ChildPool, ProxyError

log = logging.getLogger("routing.mcp")
SERVER_NAME = "routing-power-gateway"


def _text_result(payload: dict, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(payload, ensure_ascii=False, indent=1))],
        structured_content=payload,
        is_error=error,
    )


def _check(arguments: Any, schema: dict, tool: str) -> dict:
    """Arguments valid for the tool's input schema, or INVALID_PARAMS naming what is wrong."""
    arguments = {} if arguments is None else arguments
    try:
        jsonschema.validate(arguments, schema)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        raise MCPError(code=types.INVALID_PARAMS,
                       message=f"Invalid arguments for {tool}: {exc.message}" + (f" (at {where})" if where else "")) from None
    return arguments


class SessionPools:
    """One ChildPool per client session: over stdio there is one session; over Streamable HTTP the
    lifespan is entered once for the whole app, and each session (Mcp-Session-Id) gets its own
    children, closed when that session ends (DELETE, idle timeout, crash) or the server stops."""

    def __init__(self, gateway: PowerGateway, tg, instance: str):
        self.gateway, self.tg, self.instance = gateway, tg, instance
        self.pools: dict[str | None, ChildPool] = {}

    @staticmethod
    def key_of(ctx) -> str | None:
        """The HTTP session's id (the Mcp-Session-Id header of the request), None over stdio."""
        request = getattr(ctx, "request", None)
        headers = getattr(request, "headers", None)
        return headers.get("mcp-session-id") if headers is not None else None

    def of(self, ctx) -> ChildPool:
        key = self.key_of(ctx)
        if key not in self.pools:
            self.pools[key] = ChildPool(self.gateway, self.tg, instance=self.instance)
        return self.pools[key]

    async def close(self, key: str | None) -> None:
        pool = self.pools.pop(key, None)
        if pool is not None:
            with anyio.CancelScope(shield=True):
                await pool.close()

    async def close_all(self) -> None:
        for key in list(self.pools):
            await self.close(key)


class GatewayServer(Server):
    """The low-level Server announcing tools.listChanged by default: the Streamable HTTP manager
    builds each session's initialization options without arguments."""

    def create_initialization_options(self, notification_options=None, *args, **kwargs):
        return super().create_initialization_options(notification_options or NotificationOptions(tools_changed=True), *args, **kwargs)


def build_server(gateway: PowerGateway, *, instance: str = "") -> Server:
    """The MCP server of one gateway; children live as long as their session, at most the lifespan."""
    own = {t["name"]: t for t in GATEWAY_TOOLS}

    @asynccontextmanager
    async def lifespan(_server: Server):
        async with anyio.create_task_group() as tg:
            pools = SessionPools(gateway, tg, instance)
            try:
                yield {"pools": pools}
            finally:
                with anyio.CancelScope(shield=True):
                    await pools.close_all()  # every child reaped before the gateway exits
                tg.cancel_scope.cancel()

    async def list_tools(ctx, params) -> types.ListToolsResult:
        pool: ChildPool = ctx.lifespan_context["pools"].of(ctx)
        listed = list(GATEWAY_TOOLS) + pool.listed_tools()
        return types.ListToolsResult(tools=[
            types.Tool(name=t["name"], description=t["description"], input_schema=t["inputSchema"]) for t in listed
        ])

    async def activate(ctx, pool: ChildPool, name: Any) -> dict:
        out = await pool.activate(name)
        if out.pop("changed", False):
            await ctx.session.send_tool_list_changed()
        return out

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        pool: ChildPool = ctx.lifespan_context["pools"].of(ctx)
        name = params.name
        if name == "resolve_intent":
            args = _check(params.arguments, own[name]["inputSchema"], name)
            result = gateway.route(args["query"]).to_dict()
            if result["status"] == "activated":
                out = await activate(ctx, pool, result["power"]["name"])
                if out.get("status") == "activated":
                    result["tools"] = out["tools"]
                else:  # e.g. SERVER_MISSING: the agent learns the power cannot start here
                    result["activation_error"] = out.get("error")
            view = agent_view(result)
            if result.get("activation_error"):
                view["activation_error"] = result["activation_error"]
            if args.get("verbose"):
                view["result"] = result
            return _text_result(view)
        if name == "activate_power":
            args = _check(params.arguments, own[name]["inputSchema"], name)
            out = await activate(ctx, pool, args["name"])
            return _text_result(out, error=out.get("status") != "activated")
        if not pool.knows(name):
            known = ", ".join(own)
            raise MCPError(code=types.INVALID_PARAMS,
                           message=f"Unknown tool {name!r}. Tools now: {known}, and those of activated powers "
                                   f"(find one with resolve_intent, switch it on with activate_power).")
        args = _check(params.arguments, pool.schema_of(name) or {"type": "object"}, name)
        try:
            return await pool.call(name, args)
        except ProxyError as exc:
            if exc.code in ("POWER_DIED", "POWER_TIMEOUT"):
                await ctx.session.send_tool_list_changed()
            return _text_result({"status": "error", "error": {"code": exc.code, "message": exc.message}}, error=True)

    return GatewayServer(
        SERVER_NAME,
        version="1.0",
        instructions=(
            "A gateway of MCP powers. Call resolve_intent with the user's current request; if it answers "
            "activated, the power's tools are listed and ready; otherwise pick a candidate and call "
            "activate_power(name)."
        ),
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(gateway: PowerGateway, *, instance: str = "") -> None:
    from mcp.server.stdio import stdio_server

    server = build_server(gateway, instance=instance)
    options = server.create_initialization_options(NotificationOptions(tools_changed=True))
    async with stdio_server() as (read, write):
        await server.run(read, write, options)


def run(gateway: PowerGateway) -> None:
    """Serve until the client closes stdin; children are stopped and reaped on the way out."""
    logging.basicConfig(level=os.environ.get("ROUTING_MCP_LOG", "WARNING"), format="%(asctime)s %(name)s %(message)s")
    anyio.run(lambda: serve_stdio(gateway, instance=os.environ.get("ROUTING_MCP_INSTANCE", "")))


# ---------------------------------------------------------------- Streamable HTTP

HTTP_PATH = "/mcp"
TOKEN_ENV = "ROUTING_MCP_TOKEN"  # the bearer token clients must send (required off loopback)
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    return host in LOOPBACK or host.startswith("127.")


class BearerGate:
    """ASGI middleware: every request must carry `Authorization: Bearer <token>` (401 otherwise)."""

    def __init__(self, app, token: str):
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = json.dumps({"error": "unauthorized", "message": "This gateway needs Authorization: Bearer <token>."}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(gateway: PowerGateway, *, host: str = "127.0.0.1", token: str | None = None, instance: str = ""):
    """The gateway as a Starlette app serving MCP's Streamable HTTP transport at /mcp. Each HTTP
    session has its own children; they are stopped when the session ends."""
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.routing import Route

    if not is_loopback(host) and not token:
        raise ValueError(f"Serving on {host} (not loopback) needs a bearer token: set {TOKEN_ENV}.")
    server = build_server(gateway, instance=instance)

    class Manager(StreamableHTTPSessionManager):
        async def _discard_session(self, session_id, transport):  # the SDK's one hook for "a session ended"
            await super()._discard_session(session_id, transport)
            if self._lifespan_state:
                await self._lifespan_state["pools"].close(session_id)

    security = None
    if is_loopback(host):  # DNS-rebinding protection, as the SDK sets it for loopback
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
    manager = Manager(app=server, security_settings=security)
    endpoint = StreamableHTTPASGIApp(manager)
    app = Starlette(routes=[Route(HTTP_PATH, endpoint=BearerGate(endpoint, token) if token else endpoint)],
                    lifespan=lambda _app: manager.run())
    return app


def run_http(gateway: PowerGateway, host: str, port: int, *, token: str | None = None) -> None:
    """Serve Streamable HTTP until SIGINT / SIGTERM; every session's children are reaped on the way out."""
    import uvicorn

    logging.basicConfig(level=os.environ.get("ROUTING_MCP_LOG", "WARNING"), format="%(asctime)s %(name)s %(message)s")
    app = http_app(gateway, host=host, token=token, instance=os.environ.get("ROUTING_MCP_INSTANCE", ""))
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")).run()
