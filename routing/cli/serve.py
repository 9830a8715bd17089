"""`serve`: the HTTP API (routing.serve.app) on uvicorn."""
from __future__ import annotations

from routing.cli.common import EXIT_OK, UsageError


def cmd_serve(args) -> int:
    import uvicorn

    from routing.serve.app import create_app

    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, not {args.port}")
    uvicorn.run(create_app(args.lexicons), host=args.host, port=args.port, log_level=args.log_level)
    return EXIT_OK


def register(sub) -> None:
    s = sub.add_parser("serve", help="HTTP API: POST /route, POST /route/stream (SSE), GET /domains, GET /healthz")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    s.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    s.set_defaults(func=cmd_serve)
