"""The command line of the routing contract (shared/CONTRACT.md): `python -m routing COMMAND`.

Each command lives in its own module with a `register(subparsers)`; this module only gathers
them (imports go one way: main -> command modules -> common). JSON out; exit 0 for any routed
answer (not_found included), 2 for bad arguments, 3 for an invalid lexicon.
"""
from __future__ import annotations

import argparse
import sys

from routing.cli import cost, coverage, dates, domains, encoder, fake_llm, import_csv, import_tools, lexicon, mcp, quality, query, serve
from routing.cli.common import EXIT_LEXICON, EXIT_OK, EXIT_USAGE, UsageError, dump
from routing.core.errors import LexiconError
from routing.core.lexicon import DEFAULT_LEXICON_ROOT

# Every command module, in the order `--help` lists them.
COMMANDS = (query, dates, domains, quality, coverage, import_csv, import_tools, lexicon, mcp, cost, serve, encoder, fake_llm)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m routing", description="Route natural-language questions to tools.")
    p.add_argument("--lexicons", default=str(DEFAULT_LEXICON_ROOT), help="lexicon folder (default: the project's lexicons/)")
    sub = p.add_subparsers(dest="command", required=True)
    for module in COMMANDS:
        module.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help exits 0, bad arguments exit 2
        return int(exc.code or 0)
    try:
        return args.func(args)
    except UsageError as exc:
        print(dump({"error": {"code": "BAD_ARGUMENTS", "message": str(exc)}}), file=sys.stderr)
        return EXIT_USAGE
    except LexiconError as exc:
        print(
            dump({"error": {"code": exc.code.value, "message": str(exc), "problems": [p.to_dict() for p in exc.problems]}}),
            file=sys.stderr,
        )
        return EXIT_LEXICON
    except BrokenPipeError:
        return EXIT_OK
