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


def build_server(gateway: PowerGateway, *, instance: str = "") -> Server:
    """The MCP server of one gateway; children live as long as the server's lifespan."""
    own = {t["name"]: t for t in GATEWAY_TOOLS}

    @asynccontextmanager
    async def lifespan(_server: Server):
        async with anyio.create_task_group() as tg:
            pool = ChildPool(gateway, tg, instance=instance)
            try:
                yield {"pool": pool}
            finally:
                with anyio.CancelScope(shield=True):
                    await pool.close()  # every child reaped before the gateway exits
                tg.cancel_scope.cancel()

    async def list_tools(ctx, params) -> types.ListToolsResult:
        pool: ChildPool = ctx.lifespan_context["pool"]
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
        pool: ChildPool = ctx.lifespan_context["pool"]
        name = params.name
        if name == "resolve_intent":
            args = _check(params.arguments, own[name]["inputSchema"], name)
            result = gateway.route(args["query"]).to_dict()
            if result["status"] == "activated":
                out = await activate(ctx, pool, result["power"]["name"])
                if out.get("status") == "activated":
                    result["tools"] = out["tools"]
            view = agent_view(result)
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
            if exc.code == "POWER_DIED":
                await ctx.session.send_tool_list_changed()
            return _text_result({"status": "error", "error": {"code": exc.code, "message": exc.message}}, error=True)

    return Server(
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
