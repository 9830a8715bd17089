"""`mcp`: serve a power_gateway domain as an MCP server (routing.mcp), over stdio or Streamable HTTP;
`--list` shows each power's server and whether it can start here; `--refresh` rewrites the powers'
tools from what their servers list. `mcp-postgres` runs the throwaway PostgreSQL the postgres power
is tested against."""
from __future__ import annotations

import json
import os
import sys

from routing.cli.common import UsageError, load_cli_router


def _host_port(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--http must be HOST:PORT (e.g. 127.0.0.1:8641), not {text!r}")
    return host.strip("[]"), int(port)


def cmd_mcp(args) -> int:
    gateway = load_cli_router(args)
    if getattr(gateway, "design", None) != "power_gateway":
        raise UsageError(f"domain {args.domain!r} uses design {gateway.design!r}; `mcp` serves power_gateway domains (e.g. powers)")
    if args.list:
        from routing.mcp.launch import server_status

        print(json.dumps(server_status(gateway), indent=1, ensure_ascii=False))
        return 0
    if args.refresh:
        from routing.mcp.refresh import refresh_domain

        report = refresh_domain(gateway, powers=args.power or None, dry_run=args.dry_run)
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return 0 if report["status"] in ("saved", "unchanged", "dry_run") else 1
    if args.http:
        from routing.mcp.server import TOKEN_ENV, is_loopback, run_http

        host, port = _host_port(args.http)
        token = os.environ.get(TOKEN_ENV) or None
        if not is_loopback(host) and not token:
            raise UsageError(f"--http {host}:{port} is not loopback: set {TOKEN_ENV} to the bearer token clients must send")
        print(f"power gateway: Streamable HTTP on http://{args.http}/mcp" + (" (bearer token required)" if token else ""),
              file=sys.stderr, flush=True)
        run_http(gateway, host, port, token=token)
        return 0
    from routing.mcp.server import run

    run(gateway)
    return 0


def cmd_mcp_postgres(args) -> int:
    from routing.mcp.pgfixture import serve_forever

    return serve_forever(args.dir, port=args.port)


def register(sub) -> None:
    m = sub.add_parser("mcp", help="serve a power gateway as an MCP server (stdio, or --http HOST:PORT) with resolve_intent, activate_power")
    m.add_argument("--domain", default="powers", help="a domain of design power_gateway (default powers)")
    m.add_argument("--http", metavar="HOST:PORT", help="serve MCP Streamable HTTP at http://HOST:PORT/mcp instead of stdio "
                                                       "(off loopback, ROUTING_MCP_TOKEN must be set: a bearer token)")
    m.add_argument("--list", action="store_true", help="print each power's server and whether it can start on this machine")
    m.add_argument("--refresh", action="store_true", help="start each live power's server and write its listed tools into the lexicon")
    m.add_argument("--power", action="append", help="with --refresh: only this power (repeatable)")
    m.add_argument("--dry-run", action="store_true", help="with --refresh: show the diff, write nothing")
    m.set_defaults(func=cmd_mcp)
    pg = sub.add_parser("mcp-postgres", help="run a throwaway PostgreSQL with the powers' fixture schema (for the postgres power)")
    pg.add_argument("--dir", default=".mcp-state/postgres", help="cluster folder (created; default .mcp-state/postgres)")
    pg.add_argument("--port", type=int, default=8641, help="TCP port on 127.0.0.1 (default 8641)")
    pg.set_defaults(func=cmd_mcp_postgres)
