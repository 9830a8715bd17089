"""The command line of the routing contract (shared/CONTRACT.md). JSON out, one object a line.

Exit status: 0 for any routed answer (not_found included), 2 for bad arguments, 3 for an invalid
lexicon.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from datetime import date
from pathlib import Path

from .clock import parse_today
from .errors import LexiconError
from .lexicon import DEFAULT_LEXICON_ROOT, list_domain_names, load_domain

EXIT_OK, EXIT_USAGE, EXIT_LEXICON = 0, 2, 3


class UsageError(Exception):
    pass


def _today(value: str | None) -> date:
    try:
        return parse_today(value)
    except ValueError:
        raise UsageError(f"--today must be a date as YYYY-MM-DD, not {value!r}") from None


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _domain_name(args) -> str:
    """An unknown domain is a bad argument (exit 2), not a broken lexicon."""
    known = list_domain_names(Path(args.lexicons))
    if args.domain not in known:
        raise UsageError(f"unknown domain {args.domain!r}; known: {', '.join(known) or 'none'}")
    return args.domain


def _router(args):
    from .router import Router

    return Router(load_domain(_domain_name(args), args.lexicons))


def cmd_route(args) -> int:
    router = _router(args)
    result = router.route(args.query, today=_today(args.today), context={"max_depth": args.max_depth, "data_mode": args.data_mode})
    if args.llm:
        from .hybrid import run_llm

        result = run_llm(router, result)
    out = result.to_dict()
    print(json.dumps(out, ensure_ascii=False, indent=2) if args.pretty else _dump(out))
    return EXIT_OK


def cmd_batch(args) -> int:
    router = _router(args)
    today = _today(args.today)
    for line in sys.stdin:
        # One result per input line, blank lines included (INVALID_QUERY), so lines stay aligned.
        query = line.rstrip("\r\n")
        print(_dump(router.route(query, today=today).to_dict()), flush=False)
    sys.stdout.flush()
    return EXIT_OK


def cmd_dates(args) -> int:
    from .dates import DateSettings, load_date_lexicon, resolve_expression

    settings = DateSettings()
    if args.domain:
        s = load_domain(_domain_name(args), args.lexicons).settings
        settings = DateSettings(week_start=s.week_start, fiscal_year_start_month=s.fiscal_year_start_month, fiscal_year_label=s.fiscal_year_label)
    lexicon = load_date_lexicon(Path(args.lexicons) / "_shared" / "dates.yaml")
    if args.batch:
        for n, line in enumerate(sys.stdin, 1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            ref, sep, expr = line.partition("\t")
            if not sep:
                raise UsageError(f"line {n}: expected 'YYYY-MM-DD<TAB>expression'")
            ranges = resolve_expression(expr, today=_today(ref.strip()), settings=settings, lexicon=lexicon)
            print(_dump([r.to_dict() for r in ranges]))
        return EXIT_OK
    if args.expression is None:
        raise UsageError("dates needs an EXPRESSION, or --batch with lines on standard input")
    ranges = resolve_expression(args.expression, today=_today(args.today), settings=settings, lexicon=lexicon)
    print(_dump([r.to_dict() for r in ranges]))
    return EXIT_OK


def cmd_domains(args) -> int:
    out = []
    for name in list_domain_names(Path(args.lexicons)):
        d = load_domain(name, args.lexicons)
        out.append(
            {
                "name": name,
                "description": d.settings.description,
                "languages": list(d.settings.languages),
                "tool_count": len(d.tools),
                "tools": [t.name for t in d.tools],
            }
        )
    print(_dump(out))
    return EXIT_OK


def cmd_eval(args) -> int:
    from .evaluate import golden_path, load_golden, load_labelled_csv, run_cases

    router = _router(args)
    if args.today is not None:
        _today(args.today)
    if args.data:
        try:
            cases = load_labelled_csv(args.data, text_col=args.text_col, label_col=args.label_col)
        except (OSError, UnicodeDecodeError, csv.Error) as exc:
            raise UsageError(f"cannot read {args.data}: {exc}") from None
        from .importer import relabel_cases  # labels an import had to rename

        cases = relabel_cases(router.domain, cases)
    else:
        path = Path(args.golden) if args.golden else golden_path(router)
        if not path.is_file():
            raise UsageError(f"no golden corpus at {path}; pass --data FILE.csv")
        cases = load_golden(path)
    report = run_cases(router, cases, default_today=args.today)
    metrics = report.metrics()
    metrics["domain"] = args.domain
    if not args.failures:
        metrics["failures"] = metrics["failures"][:20]
    print(json.dumps(metrics, ensure_ascii=False, indent=2))
    return EXIT_OK


def cmd_bench(args) -> int:
    from .bench import run_bench

    print(json.dumps(run_bench(Path(args.lexicons), quick=args.quick, sizes=args.sizes), indent=2))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m routing", description="Route natural-language questions to tools.")
    p.add_argument("--lexicons", default=str(DEFAULT_LEXICON_ROOT), help="lexicon folder (default: the project's lexicons/)")
    sub = p.add_subparsers(dest="command", required=True)

    def with_domain(sp, required=False):
        sp.add_argument("--domain", default=None if not required else "accounting", help="domain (default accounting)")
        sp.add_argument("--today", default=None, help="reference date YYYY-MM-DD (default: today)")

    r = sub.add_parser("route", help="route one query; prints the route result as JSON")
    r.add_argument("query")
    with_domain(r, required=True)
    r.add_argument("--max-depth", choices=["L1", "L2"], default="L2")
    r.add_argument("--data-mode", choices=["live", "replay"], default="replay")
    r.add_argument("--llm", action="store_true", help="run the LLM path for real (OPENAI_API_KEY / OPENAI_BASE_URL)")
    r.add_argument("--pretty", action="store_true", help="indented JSON")
    r.set_defaults(func=cmd_route)

    b = sub.add_parser("batch", help="route one query per input line; one JSON result per output line")
    with_domain(b, required=True)
    b.set_defaults(func=cmd_batch)

    d = sub.add_parser("dates", help="resolve date expressions to inclusive ranges")
    d.add_argument("expression", nargs="?")
    with_domain(d)
    d.add_argument("--batch", action="store_true", help="read 'YYYY-MM-DD<TAB>expression' lines from standard input")
    d.set_defaults(func=cmd_dates)

    ds = sub.add_parser("domains", help="list the domains")
    ds.set_defaults(func=cmd_domains)

    e = sub.add_parser("eval", help="run the golden corpus (or --data FILE.csv) and print metrics")
    with_domain(e, required=True)
    e.add_argument("--data", help="CSV with a text column and an optional label column, or a text file")
    e.add_argument("--golden", help="a golden.yaml other than the domain's own")
    e.add_argument("--text-col", default="text")
    e.add_argument("--label-col", default=None)
    e.add_argument("--failures", action="store_true", help="list every failure, not only the first 20")
    e.set_defaults(func=cmd_eval)

    bn = sub.add_parser("bench", help="latency per query (p50, p99) per domain and for synthetic 1k/10k-tool catalogs")
    bn.add_argument("--quick", action="store_true", help="fewer repetitions")
    bn.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000], help="synthetic catalog sizes")
    bn.set_defaults(func=cmd_bench)

    for register in _extra_commands():
        register(sub)
    return p


def _extra_commands():
    """Commands that live beside their subsystem (lexicon store, importer)."""
    from . import commands

    return commands.REGISTRARS


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help exits 0, bad arguments exit 2
        return int(exc.code or 0)
    try:
        return args.func(args)
    except UsageError as exc:
        print(_dump({"error": {"code": "BAD_ARGUMENTS", "message": str(exc)}}), file=sys.stderr)
        return EXIT_USAGE
    except LexiconError as exc:
        print(
            _dump({"error": {"code": exc.code.value, "message": str(exc), "problems": [p.to_dict() for p in exc.problems]}}),
            file=sys.stderr,
        )
        return EXIT_LEXICON
    except BrokenPipeError:
        return EXIT_OK
