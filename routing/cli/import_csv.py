"""`python -m routing import-csv FILE.csv --domain NAME`: labelled utterances -> a new domain."""
from __future__ import annotations

import json
from pathlib import Path

from routing.cli.common import UsageError
from routing.quality.importer import ImportProblem, import_labelled_csv


def cmd_import_csv(args) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    try:
        result = import_labelled_csv(
            path,
            args.domain,
            root=Path(args.lexicons),
            text_col=args.text_col,
            label_col=args.label_col,
            holdout=args.holdout,
            force=args.force,
        )
    except ImportProblem as exc:
        raise UsageError(str(exc)) from None
    out = result.to_dict()
    out["skipped"] = out["skipped"][:20]  # the count is in skipped_count; the first few say why
    out["skipped_count"] = len(result.skipped)
    out["next"] = f"python -m routing --lexicons {args.lexicons} eval --domain {args.domain}"
    print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


def register(sub) -> None:
    p = sub.add_parser("import-csv", help="labelled utterances (CSV) -> a new domain: one tool per label, a held-out golden corpus")
    p.add_argument("file", help="CSV with a header row")
    p.add_argument("--domain", required=True, help="name of the new domain (folder under the lexicon root)")
    p.add_argument("--text-col", default="text", help="column with the utterance (default text)")
    p.add_argument("--label-col", default="category", help="column with the label = tool name (default category)")
    p.add_argument("--holdout", type=float, default=0.1, help="share of each label kept out of the examples for golden.yaml (default 0.1)")
    p.add_argument("--force", action="store_true", help="replace the domain if it exists")
    p.set_defaults(func=cmd_import_csv)
