"""`eval` and `bench`: measure a domain on its golden corpus or a CSV, and time routing."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from routing.cli.common import EXIT_OK, UsageError, add_domain_args, load_cli_router, parse_cli_today


def cmd_eval(args) -> int:
    from routing.quality.evaluate import golden_path, load_golden, load_labelled_csv, run_cases

    router = load_cli_router(args)
    if args.today is not None:
        parse_cli_today(args.today)
    if args.data:
        try:
            cases = load_labelled_csv(args.data, text_col=args.text_col, label_col=args.label_col or "auto")
        except (OSError, ValueError, csv.Error) as exc:  # ValueError: no text column (named), not UTF-8
            raise UsageError(f"cannot read {args.data}: {exc}") from None
        from routing.quality.importer import relabel_cases  # labels an import had to rename

        cases = relabel_cases(router.domain, cases)
    else:
        path = Path(args.golden) if args.golden else golden_path(router)
        if not path.is_file():
            raise UsageError(f"no golden corpus at {path}; pass --data FILE.csv")
        cases = load_golden(path)
    report = run_cases(router, cases, default_today=args.today)
    metrics = report.metrics()
    design_metrics = getattr(router, "eval_metrics", None)  # a design's own success criteria
    if design_metrics is not None:
        metrics.update(design_metrics(report))
    metrics["domain"] = args.domain
    if not args.failures:
        metrics["failures"] = metrics["failures"][:20]
    print(json.dumps(metrics, ensure_ascii=False, indent=2))
    return EXIT_OK


def cmd_bench(args) -> int:
    from routing.quality.bench import UnknownDomains, run_bench

    if args.zero_shot and args.domains:
        raise UsageError("--domains benches the lexicon root's domains; --zero-shot imports its own catalog")
    if args.zero_shot:
        from routing.quality.zero_shot import run_zero_shot

        try:
            report = run_zero_shot(Path(args.lexicons), Path(args.data) if args.data else None, split=args.split, limit=args.limit)
        except FileNotFoundError as exc:
            raise UsageError(str(exc)) from None
        print(json.dumps(report, indent=2))
        return EXIT_OK
    if args.import_csv and not Path(args.import_csv).is_file():
        raise UsageError(f"no CSV at {args.import_csv}")
    try:
        report = run_bench(Path(args.lexicons), quick=args.quick, sizes=args.sizes, import_csv=args.import_csv, domains=args.domains)
    except UnknownDomains as exc:
        raise UsageError(str(exc)) from None
    print(json.dumps(report, indent=2))
    return EXIT_OK


def register(sub) -> None:
    e = sub.add_parser("eval", help="run the golden corpus (or --data FILE.csv) and print metrics")
    add_domain_args(e, default="accounting")
    e.add_argument("--data", help="CSV with a text column and an optional label column, or a text file")
    e.add_argument("--golden", help="a golden.yaml other than the domain's own")
    e.add_argument("--text-col", default="text")
    e.add_argument("--label-col", default=None)
    e.add_argument("--failures", action="store_true", help="list every failure, not only the first 20")
    e.set_defaults(func=cmd_eval)

    bn = sub.add_parser("bench", help="latency per query (p50, p99) per domain and for synthetic 1k/10k-tool catalogs")
    bn.add_argument("--quick", action="store_true", help="fewer repetitions")
    bn.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000], help="synthetic catalog sizes")
    bn.add_argument("--domains", nargs="+", metavar="NAME", help="bench only these domains (default: every domain)")
    bn.add_argument("--import-csv", metavar="PATH", help="also bench a labelled CSV (text,category) imported into a temporary root, "
                    "on its sibling test.csv when there is one (row imported:NAME, semantic signal on as imports have it)")
    bn.add_argument("--zero-shot", action="store_true", help="a catalog known only by its descriptions (Seal-Tools, 4,076 tools) "
                    "imported with import-tools and routed on its questions, beside a TF-IDF baseline")
    bn.add_argument("--data", help="with --zero-shot: the Seal-Tools folder (default: shared/data/seal-tools beside the checkout)")
    bn.add_argument("--split", choices=("dev", "test"), default="dev", help="with --zero-shot: which questions (default dev)")
    bn.add_argument("--limit", type=int, default=None, help="with --zero-shot: route only the first N questions")
    bn.set_defaults(func=cmd_bench)
