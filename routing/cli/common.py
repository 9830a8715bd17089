"""What every command of the command line shares: exit codes, argument errors, JSON out, the
reference date, and building a domain's router (whatever its design).

Exit status: 0 for any routed answer (not_found included), 2 for bad arguments, 3 for an invalid
lexicon (shared/CONTRACT.md).
"""
from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from routing.core.clock import parse_today
from routing.core.lexicon import list_domain_names, load_domain
from routing.designs import build_router

EXIT_OK, EXIT_USAGE, EXIT_LEXICON = 0, 2, 3


class UsageError(Exception):
    """A bad argument: exit 2 with error code BAD_ARGUMENTS."""


def parse_cli_today(value: str | None) -> date:
    try:
        return parse_today(value)
    except ValueError:
        raise UsageError(f"--today must be a date as YYYY-MM-DD, not {value!r}") from None


def dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def domain_name(args) -> str:
    """An unknown domain is a bad argument (exit 2), not a broken lexicon."""
    known = list_domain_names(Path(args.lexicons))
    if args.domain not in known:
        raise UsageError(f"unknown domain {args.domain!r}; known: {', '.join(known) or 'none'}")
    return args.domain


def load_cli_router(args):
    """The domain's router, built by its design."""
    return build_router(load_domain(domain_name(args), args.lexicons))


def add_domain_args(sp, *, default: str | None = None) -> None:
    sp.add_argument("--domain", default=default, help=f"domain (default {default})" if default else "domain")
    sp.add_argument("--today", default=None, help="reference date YYYY-MM-DD (default: today)")
