"""`python -m routing import-tools FILE --domain NAME`: an agent's tool catalog -> a new domain."""
from __future__ import annotations

import json
from pathlib import Path

from routing.cli.common import UsageError
from routing.quality.importer import ImportProblem
from routing.quality.tool_import import import_tool_catalog


def cmd_import_tools(args) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    try:
        result = import_tool_catalog(path, args.domain, root=Path(args.lexicons), fmt=args.format, force=args.force,
                                     source_label=str(path))
    except ImportProblem as exc:
        raise UsageError(str(exc)) from None
    out = result.to_dict()
    out["next"] = f"python -m routing --lexicons {args.lexicons} route --domain {args.domain} \"...\""
    print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


def register(sub) -> None:
    p = sub.add_parser("import-tools", help="a tool catalog (OpenAI tools, MCP tools/list, OpenAPI 3) -> a new domain: one tool per function")
    p.add_argument("file", help="JSON or YAML: an OpenAI tools list, an MCP tools/list result or an OpenAPI 3 document")
    p.add_argument("--domain", required=True, help="name of the new domain (folder under the lexicon root)")
    p.add_argument("--format", choices=("openai", "mcp", "openapi"), default=None, help="the file's format (default: recognised)")
    p.add_argument("--force", action="store_true", help="replace the domain if it exists")
    p.set_defaults(func=cmd_import_tools)
