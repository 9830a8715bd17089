"""Which encoder embeds the mirror's index and questions (mirror.yaml `encoder`), and why.

    auto         the MiniLM transformer where `python -m routing build-encoder` has built it (the
                 design document 003 embeds with all-MiniLM-L6-v2), else the token table
    transformer  the same, said explicitly (the table where it is not built, and describe() says so)
    table        the token table learned from MiniLM and shipped (routing.semantic.tokentable)
    static       the older static table (routing.semantic.encoders.StaticEncoder)

ROUTING_ENCODER, where set, overrides the file for every mirror (static, sentence-transformers,
openai: routing.semantic.encoders.get_encoder), as before the setting existed.

Measured on the factory's labelled questions (golden + held-out sets 1-45, 825 questions; `python -m routing
eval --domain factory --golden FILE` per file with `encoder:` set here): at this change's start lexicon the
static table 746 right, the token table 748, the transformer 762; with the lexicon tuned beside it (final)
734 / 758 / 768. The transformer costs a forward pass a question embedded (L1 one; L2 one batch of voters).
"""
from __future__ import annotations

import os

from routing.semantic.encoders import get_encoder


def choose(setting: str, environ=None) -> tuple[object, str]:
    """(encoder, why it was chosen) for mirror.yaml's `encoder` value."""
    environ = os.environ if environ is None else environ
    forced = environ.get("ROUTING_ENCODER")
    if forced:
        return get_encoder(forced), f"ROUTING_ENCODER={forced}"
    note = ""
    if setting in ("auto", "transformer"):
        from routing.semantic import minilm

        enc = minilm.dense_encoder()
        if enc is not None:
            return enc, f"mirror.yaml encoder: {setting}: the MiniLM transformer (a forward pass a question)"
        note = f"encoder: {setting}, but the MiniLM transformer is not built at {minilm.default_dir()} (python -m routing build-encoder); "
    if setting != "static":
        from routing.semantic import tokentable

        table = tokentable.token_table()
        if table is not None:
            return table, note + "the token table learned from MiniLM"
        note += "the token table is missing; "
    return get_encoder("static"), note + "the static table"
