"""`dates`: resolve date expressions to inclusive ranges (a domain sets fiscal year and week start)."""
from __future__ import annotations

import sys
from pathlib import Path

from routing.cli.common import EXIT_OK, EXIT_USAGE, UsageError, add_domain_args, domain_name, dump, parse_cli_today
from routing.core.lexicon import load_domain


def cmd_dates(args) -> int:
    from routing.dates import DateSettings, load_date_lexicon, resolve_expression

    settings = DateSettings()
    if args.domain:
        s = load_domain(domain_name(args), args.lexicons).settings
        settings = DateSettings.of(s)
    lexicon = load_date_lexicon(Path(args.lexicons) / "_shared" / "dates.yaml")
    if args.batch:
        # Like `batch`: every line is answered (a bad one with its error, in place), bytes in, UTF-8 out;
        # the exit code says afterwards whether any line was bad.
        bad = 0
        out = sys.stdout.buffer
        for n, raw in enumerate(sys.stdin.buffer, 1):
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
                if not line.strip():
                    continue
                ref, sep, expr = line.partition("\t")
                if not sep:
                    raise UsageError("expected 'YYYY-MM-DD<TAB>expression'")
                answer = [r.to_dict() for r in resolve_expression(expr, today=parse_cli_today(ref.strip()), settings=settings, lexicon=lexicon)]
            except (UsageError, UnicodeDecodeError) as exc:
                bad += 1
                why = "the line is not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
                answer = {"line": n, "error": {"code": "BAD_ARGUMENTS", "message": f"line {n}: {why}"}}
            out.write(dump(answer).encode("utf-8", "backslashreplace") + b"\n")
        out.flush()
        if bad:
            print(f"{bad} line(s) could not be read; each is answered with its error", file=sys.stderr)
            return EXIT_USAGE
        return EXIT_OK
    if args.expression is None:
        raise UsageError("dates needs an EXPRESSION, or --batch with lines on standard input")
    ranges = resolve_expression(args.expression, today=parse_cli_today(args.today), settings=settings, lexicon=lexicon)
    print(dump([r.to_dict() for r in ranges]))
    return EXIT_OK


def register(sub) -> None:
    d = sub.add_parser("dates", help="resolve date expressions to inclusive ranges")
    d.add_argument("expression", nargs="?")
    add_domain_args(d)
    d.add_argument("--batch", action="store_true", help="read 'YYYY-MM-DD<TAB>expression' lines from standard input")
    d.set_defaults(func=cmd_dates)
