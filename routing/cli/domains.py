"""`domains`: every domain with its design, languages and tools."""
from __future__ import annotations

from pathlib import Path

from routing.cli.common import EXIT_OK, dump
from routing.core.lexicon import list_domain_names, load_domain


def cmd_domains(args) -> int:
    print(dump([load_domain(name, args.lexicons).describe() for name in list_domain_names(Path(args.lexicons))]))
    return EXIT_OK


def register(sub) -> None:
    ds = sub.add_parser("domains", help="list the domains")
    ds.set_defaults(func=cmd_domains)
