"""`mcp`: serve a power_gateway domain as an MCP server over stdio (routing.mcp)."""
from __future__ import annotations

from routing.cli.common import UsageError, load_cli_router


def cmd_mcp(args) -> int:
    gateway = load_cli_router(args)
    if getattr(gateway, "design", None) != "power_gateway":
        raise UsageError(f"domain {args.domain!r} uses design {gateway.design!r}; `mcp` serves power_gateway domains (e.g. powers)")
    from routing.mcp.server import run

    run(gateway)
    return 0


def register(sub) -> None:
    m = sub.add_parser("mcp", help="serve a power gateway as an MCP server over stdio (resolve_intent, activate_power)")
    m.add_argument("--domain", default="powers", help="a domain of design power_gateway (default powers)")
    m.set_defaults(func=cmd_mcp)
