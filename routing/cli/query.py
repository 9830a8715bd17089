"""`route` and `batch`: one query, or one a line, to the contract's route result as JSON."""
from __future__ import annotations

import json
import sys

from routing.cli.common import EXIT_OK, UsageError, add_domain_args, dump, load_cli_router, parse_cli_today


def cmd_route(args) -> int:
    router = load_cli_router(args)
    result = router.route(args.query, today=parse_cli_today(args.today))
    if args.llm:
        run_llm = getattr(router, "run_llm", None)
        if run_llm is None:
            raise UsageError(f"the {router.design} design of domain {router.name!r} has no LLM path")
        result = run_llm(result)
    out = result.to_dict()
    print(json.dumps(out, ensure_ascii=False, indent=2) if args.pretty else dump(out))
    return EXIT_OK


def cmd_batch(args) -> int:
    router = load_cli_router(args)
    today = parse_cli_today(args.today)
    for line in sys.stdin:
        # One result per input line, blank lines included (INVALID_QUERY), so lines stay aligned.
        query = line.rstrip("\r\n")
        print(dump(router.route(query, today=today).to_dict()), flush=False)
    sys.stdout.flush()
    return EXIT_OK


def register(sub) -> None:
    r = sub.add_parser("route", help="route one query; prints the route result as JSON")
    r.add_argument("query")
    add_domain_args(r, default="accounting")
    r.add_argument("--llm", action="store_true", help="run the LLM path for real (OPENAI_API_KEY / OPENAI_BASE_URL)")
    r.add_argument("--pretty", action="store_true", help="indented JSON")
    r.set_defaults(func=cmd_route)

    b = sub.add_parser("batch", help="route one query per input line; one JSON result per output line")
    add_domain_args(b, default="accounting")
    b.set_defaults(func=cmd_batch)
