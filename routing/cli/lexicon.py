"""`python -m routing lexicon add-synonym|remove-synonym DOMAIN CANONICAL VARIANT`: the same
write-back the editor page uses (routing.store), from the shell.

Exit status: 0 saved, 2 bad arguments (unknown domain or canonical term, a domain name that is a
path, duplicate or missing variant, an edit the validator rejects; error code BAD_ARGUMENTS) or a
true conflict (error code CONFLICT: cannot happen between two CLI writers, which read, edit and
write under the domain lock one after the other), 3 the lexicon on disk is invalid (routing.cli
maps LexiconError to 3).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from routing.editing import store
from routing.cli.common import EXIT_USAGE, UsageError, dump


def _run(args, change) -> int:
    try:
        store.require_plain_name(args.domain)  # before any file is read
        result = change(args.domain, args.canonical, args.variant, root=Path(args.lexicons), source="cli")
    except store.EditRejected as exc:
        raise UsageError(str(exc)) from None
    if result.status == "conflict":
        print(dump({"error": {"code": result.code, "message": result.message, "diff": result.diff}}), file=sys.stderr)
        return EXIT_USAGE
    if not result.ok:
        detail = "; ".join(str(p) for p in result.problems)
        raise UsageError(result.message + (f" {detail}" if detail else "") + (f"\n{result.diff}" if result.diff else ""))
    print(json.dumps(result.to_dict(), ensure_ascii=False))
    return 0


def cmd_add_synonym(args) -> int:
    return _run(args, store.add_synonym)


def cmd_remove_synonym(args) -> int:
    return _run(args, store.remove_synonym)


def register(subparsers) -> None:
    lx = subparsers.add_parser("lexicon", help="edit a domain's lexicon files safely (comments and layout kept)")
    sub = lx.add_subparsers(dest="lexicon_command", required=True)
    for name, func, verb in (
        ("add-synonym", cmd_add_synonym, "add VARIANT to"),
        ("remove-synonym", cmd_remove_synonym, "remove VARIANT from"),
    ):
        sp = sub.add_parser(name, help=f"{verb} the variants of CANONICAL in DOMAIN/synonyms.yaml")
        sp.add_argument("domain", metavar="DOMAIN")
        sp.add_argument("canonical", metavar="CANONICAL", help="a canonical term already in synonyms.yaml, e.g. invoice")
        sp.add_argument("variant", metavar="VARIANT", help="a word or phrase in any language, e.g. faktur")
        sp.set_defaults(func=func)
