"""`route` and `batch`: one query, or one a line, to the contract's route result as JSON."""
from __future__ import annotations

import inspect
import json
import sys

from routing.cli.common import EXIT_OK, UsageError, add_domain_args, dump, load_cli_router, parse_cli_today


def request_context(args) -> dict | None:
    """--context JSON plus the request options (--max-depth, --data-mode) a design reads from it."""
    context: dict = {}
    if getattr(args, "context", None):
        try:
            context = json.loads(args.context)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--context must be a JSON object: {exc}") from None
        if not isinstance(context, dict):
            raise UsageError("--context must be a JSON object, e.g. '{\"mode\": \"cfo\"}'")
    for key in ("max_depth", "data_mode"):
        if getattr(args, key, None) is not None:
            context[key] = getattr(args, key)
    return context or None


def _print_event(event: dict) -> None:
    print(dump({"event": event}), flush=True)


def cmd_route(args) -> int:
    router = load_cli_router(args)
    kwargs = {}
    if args.events:
        if "on_event" not in inspect.signature(router.route).parameters:
            raise UsageError(f"the {router.design} design of domain {router.name!r} does not stream events")
        kwargs["on_event"] = _print_event
    result = router.route(args.query, today=parse_cli_today(args.today), context=request_context(args), **kwargs)
    if args.llm:
        run_llm = getattr(router, "run_llm", None)
        if run_llm is None:
            raise UsageError(f"the {router.design} design of domain {router.name!r} has no LLM path")
        printed = len(result.events)
        result = run_llm(result)
        if args.events:
            for event in result.events[printed:]:
                _print_event(event)
    out = result.to_dict()
    print(json.dumps(out, ensure_ascii=False, indent=2) if args.pretty else dump(out))
    return EXIT_OK


def cmd_batch(args) -> int:
    router = load_cli_router(args)
    today = parse_cli_today(args.today)
    base = request_context(args)
    carry = getattr(router, "next_context", None) if args.conversation else None
    context = base
    for line in sys.stdin:
        # One result per input line, blank lines included (INVALID_QUERY), so lines stay aligned.
        query = line.rstrip("\r\n")
        result = router.route(query, today=today, context=context)
        print(dump(result.to_dict()), flush=False)
        if carry is not None:  # --conversation: each turn starts from what the previous one left
            context = {**(base or {}), **carry(result, context)}
    sys.stdout.flush()
    return EXIT_OK


def register(sub) -> None:
    r = sub.add_parser("route", help="route one query; prints the route result as JSON")
    r.add_argument("query")
    add_domain_args(r, default="accounting")
    _request_args(r)
    r.add_argument("--llm", action="store_true", help="run the LLM path for real (OPENAI_API_KEY / OPENAI_BASE_URL)")
    r.add_argument("--pretty", action="store_true", help="indented JSON")
    r.add_argument("--events", action="store_true", help='print each event as a JSON line {"event": ...} as it happens, then the result')
    r.set_defaults(func=cmd_route)

    b = sub.add_parser("batch", help="route one query per input line; one JSON result per output line")
    add_domain_args(b, default="accounting")
    _request_args(b)
    b.add_argument("--conversation", action="store_true", help="one turn a line: each turn carries the previous turn's context")
    b.set_defaults(func=cmd_batch)


def _request_args(sp) -> None:
    sp.add_argument("--context", default=None, help="conversation context as a JSON object")
    sp.add_argument("--max-depth", dest="max_depth", choices=["L1", "L2"], default=None, help="deepest data tier allowed (design intent_tiers)")
    sp.add_argument("--data-mode", dest="data_mode", choices=["live", "replay"], default=None, help="replay: tools read bundled fixtures, no network")
