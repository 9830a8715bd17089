"""`coverage`: route a large file of logged questions on every core (or a Ray cluster) and write
per-question results plus a summary the Coverage page opens (routing.quality.coverage_run)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from routing.cli.common import EXIT_OK, UsageError, domain_name, parse_cli_today

EXIT_INTERRUPTED = 130


def cmd_coverage(args) -> int:
    from routing.quality.coverage_input import Columns, InputProblem
    from routing.quality.coverage_run import JobInterrupted, JobSpec, run_job, stderr_progress

    domain_name(args)
    today = parse_cli_today(args.today).isoformat()
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be 1 or more")
    if args.chunk_rows < 1:
        raise UsageError("--chunk-rows must be 1 or more")
    remote = "://" in args.file
    if remote and args.engine != "ray":
        raise UsageError(f"{args.file} is not a local file: only --engine ray reads object-store URLs")
    if not remote and not Path(args.file).is_file():
        raise UsageError(f"no file at {args.file}")
    from routing.quality.coverage_run import runs_root

    name = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in Path(args.file).stem) + "-" + args.domain
    out = args.out or str(runs_root(args.lexicons) / name)  # where the Coverage page lists runs
    spec = JobSpec(
        input=args.file, domain=args.domain, root=args.lexicons, out=out, today=today,
        columns=Columns(text=args.text_col, label=args.label_col, time=args.time_col), fmt=args.format,
        engine=args.engine, workers=args.workers or 0, chunk_rows=args.chunk_rows, address=args.address,
        topics=not args.no_topics, route_cache=args.route_cache,
    )
    quiet = args.quiet

    def log(msg: str) -> None:
        if not quiet:
            print(("\n" if msg else "") + msg, file=sys.stderr, flush=True)

    try:
        summary = run_job(spec, progress=None if quiet else stderr_progress(), log=log)
    except InputProblem as exc:
        raise UsageError(str(exc)) from None
    except JobInterrupted as exc:
        print(f"\n{exc}", file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    brief = {k: summary.get(k) for k in ("domain", "rows", "engine", "workers", "throughput_qps", "tiers", "uncovered", "uncovered_share", "labelled", "routed_questions", "repeat_share", "route_cache")}
    brief["topics"] = [{"name": t["name"], "size": t["size"], "fix": t["fix"]["summary"]} for t in summary.get("topics", [])[:10]]
    brief["out"] = str(Path(out).resolve())
    print(json.dumps(brief, ensure_ascii=False, indent=2))
    return EXIT_OK


def register(sub) -> None:
    c = sub.add_parser("coverage", help="route a large file of questions on every core (or Ray) and write results + a summary for the Coverage page")
    c.add_argument("file", help="CSV, JSONL, Parquet or a text file (one question a line); with --engine ray also a URL Ray reads (s3://...)")
    c.add_argument("--domain", required=True)
    c.add_argument("--today", default=None, help="reference date YYYY-MM-DD for questions with no time (default: today)")
    c.add_argument("--out", default=None, help="output folder (default: <file>-<domain> in coverage-runs/ beside the lexicon folder, or ROUTING_COVERAGE_RUNS, where the Coverage page lists runs); a rerun continues it")
    c.add_argument("--engine", choices=("local", "ray"), default="local")
    c.add_argument("--workers", type=int, default=None, help="processes (local) or router actors (ray); default: every core")
    c.add_argument("--address", default=None, help="ray: the address of an existing cluster (default: a local Ray)")
    c.add_argument("--text-col", default="text", help="the question column of a CSV / JSONL / Parquet file")
    c.add_argument("--label-col", default=None, help="the expected-tool column, if any")
    c.add_argument("--time-col", default=None, help="when the question was asked (ISO date or time): routed on that day, drawn over time")
    c.add_argument("--format", choices=("csv", "jsonl", "parquet", "text"), default=None, help="default: from the file's suffix")
    c.add_argument("--chunk-rows", type=int, default=5000, help="questions per chunk (per output part)")
    c.add_argument("--no-topics", action="store_true", help="skip grouping the uncovered questions into topics")
    c.add_argument("--route-cache", action="store_true",
                   help="local engine: each worker remembers every (question, reference date) it routed, across chunks, and "
                        "answers a repeat from memory (same answer; the summary says how many rows were repeats)")
    c.add_argument("--quiet", action="store_true", help="no progress on stderr")
    c.set_defaults(func=cmd_coverage)
