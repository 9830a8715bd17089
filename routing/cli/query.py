"""`route` and `batch`: one query, or one a line, to the contract's route result as JSON."""
from __future__ import annotations

import gc
import inspect
import json
import sys
from dataclasses import replace

from routing.cli.common import EXIT_OK, UsageError, add_domain_args, dump, load_cli_router, parse_cli_today


def request_context(args, router=None) -> dict | None:
    """--context JSON plus the request options (--max-depth, --data-mode) a design reads from it;
    an option the domain's design does not read is a bad argument, not silently ignored."""
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
            reads = getattr(router, "request_options", frozenset()) if router is not None else {key}
            if key not in reads:
                flag = "--" + key.replace("_", "-")
                raise UsageError(f"{flag} does nothing for domain {router.name!r} (design {router.design}); "
                                 f"its design reads: {', '.join(sorted(reads)) or 'no request options'}")
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
    result = router.route(args.query, today=parse_cli_today(args.today), context=request_context(args, router), **kwargs)
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
    """Bytes in, UTF-8 JSON out, one result per input line whatever the locale: a line that is not
    UTF-8 gets INVALID_QUERY (its bytes shown as \\xNN escapes) and every other line routes."""
    router = load_cli_router(args)
    gc.freeze()  # the router lives for the whole batch: keep it out of the collector's way
    today = parse_cli_today(args.today)
    base = request_context(args, router)
    carry = getattr(router, "next_context", None) if args.conversation else None
    context = base
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        # One result per input line, blank lines included (INVALID_QUERY), so lines stay aligned.
        line = raw[:-1] if raw.endswith(b"\n") else raw
        line = line[:-1] if line.endswith(b"\r") else line
        try:
            query = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            problem = f"The query is not UTF-8 text (byte {exc.start + 1} is 0x{line[exc.start]:02x})."
            result = router.route("", today=today, context=context)
            shown = line.decode("utf-8", errors="backslashreplace")
            result = replace(result, query=shown, message=problem, error=replace(result.error, message=problem))
        else:
            result = router.route(query, today=today, context=context)
        out.write(_utf8_json_line(result.to_dict()))
        if carry is not None:  # --conversation: each turn starts from what the previous one left
            context = {**(base or {}), **carry(result, context)}
    out.flush()
    return EXIT_OK


def _utf8_json_line(obj) -> bytes:
    """One JSON line as UTF-8 bytes; lone surrogates (never valid UTF-8) are written as \\u escapes."""
    text = dump(obj)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(obj, ensure_ascii=True).encode("ascii") + b"\n"


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
