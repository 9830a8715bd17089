"""Canonicalisation and variant expansion, both driven by mirror.yaml's `rewrites` (no words here).

canonicalise: every variant phrase becomes its canonical phrase (longest first, one pass, so a
rewrite never feeds another), then filler words go.  expand: the reverse, deterministically: each
canonical phrase in a question is swapped for its variants in turn, giving up to N distinct texts."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .config import MirrorConfig

_WORDS = re.compile(r"[^\w\s-]+")


def clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_WORDS.sub(" ", text).split())


@lru_cache(maxsize=32)
def _pattern(phrases: tuple[str, ...]) -> re.Pattern | None:
    if not phrases:
        return None
    ordered = sorted(set(phrases), key=lambda p: (-len(p), p))
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(p) for p in ordered) + r")(?![\w-])")


def _to_canonical(cfg: MirrorConfig) -> dict[str, str]:
    out: dict[str, str] = {}
    for canon, variants in cfg.rewrites.items():
        for v in variants:
            out.setdefault(v, canon)
    return out


def canonicalise(text: str, cfg: MirrorConfig) -> str:
    text = clean(text)
    table = _to_canonical(cfg)
    pattern = _pattern(tuple(table))
    if pattern is not None:
        text = pattern.sub(lambda m: table[m.group(1)], text)
    words = [w for w in text.split() if w not in cfg.filler]
    return " ".join(words) or text


def expand(canonical: str, cfg: MirrorConfig, n: int) -> list[str]:
    """Up to `n` variants of a canonical question, none equal to it, in a fixed order."""
    pattern = _pattern(tuple(cfg.rewrites))
    if pattern is None or n <= 0:
        return []
    found = [m.group(1) for m in pattern.finditer(canonical)]
    out: list[str] = []
    for step in range(max((len(cfg.rewrites[c]) for c in found), default=0)):
        choice = {c: cfg.rewrites[c][step % len(cfg.rewrites[c])] for c in found}
        # Alternate which phrases change so the variants differ in more than one place.
        text = pattern.sub(lambda m: choice[m.group(1)] if (found.index(m.group(1)) + step) % 2 == 0 or len(found) == 1 else m.group(1), canonical)
        if text != canonical and text not in out:
            out.append(text)
        if len(out) >= n:
            break
    return out


def variations(query: str, canonical: str, cfg: MirrorConfig, n: int) -> list[str]:
    """L2: the original plus `n` variations (canonical, its first variants), distinct, in order."""
    out = [clean(query) or query]
    for text in [canonical, *expand(canonical, cfg, n)]:
        if text not in out:
            out.append(text)
        if len(out) >= n + 1:
            break
    return out
