"""Canonicalisation and variant expansion, both driven by mirror.yaml's `rewrites` (no words here).

canonicalise: every variant phrase becomes its canonical phrase (longest first, one pass, so a
rewrite never feeds another), then filler words go. Phrases are matched word by word on their
Snowball stems in the domain's languages (routing.core.stems), so a rewrite covers its word forms
("pump out" for "pumped out", "hires" for "hired"); a canonical phrase already in the text stands
for itself (it is never rewritten from inside: "work orders" stays, not "work work orders").
expand: the reverse, deterministically: each canonical phrase in a question is swapped for its
variants in turn, giving up to N distinct texts."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from routing.core.stems import stemmers

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


class Rewrites:
    """The rewrite table by word keys: for each stem function (identity first, then the languages'
    Snowball stemmers), phrase-as-key-tuple -> canonical phrase. Canonical phrases map to themselves
    and come first, so a variant never claims the words of a canonical phrase."""

    def __init__(self, rewrites: tuple[tuple[str, tuple[str, ...]], ...], languages: tuple[str, ...]):
        self.keys = [lambda w: w, *stemmers(languages)]
        self.tables: list[dict[tuple[str, ...], str]] = []
        pairs = [(c, c) for c, _ in rewrites] + [(v, c) for c, vs in rewrites for v in vs]
        self.longest = max((len(p.split()) for p, _ in pairs), default=0)
        self._memo: dict[str, tuple[str, ...]] = {}
        for key in self.keys:
            table: dict[tuple[str, ...], str] = {}
            for phrase, canon in pairs:
                words = clean(phrase).split()
                if words:
                    table.setdefault(tuple(key(w) for w in words), canon)
            self.tables.append(table)

    def _word_keys(self, word: str) -> tuple[str, ...]:
        got = self._memo.get(word)
        if got is None:
            if len(self._memo) > 50_000:
                self._memo.clear()
            got = self._memo[word] = tuple(key(word) for key in self.keys)
        return got

    def apply(self, words: list[str], filler: frozenset[str] = frozenset()) -> list[str]:
        """Longest phrase first at each position, exact words before stems; one pass, left to right.
        A canonical phrase said again with only filler between is written once."""
        keys = [self._word_keys(w) for w in words]
        out: list[str] = []
        last = None  # the canonical phrase just written
        i = 0
        while i < len(words):
            for n in range(min(self.longest, len(words) - i), 0, -1):
                canon = None
                for j, table in enumerate(self.tables):
                    if j and n == 1 and words[i] in filler:
                        continue  # a filler word is read as written, never through a stem ("buat", for, is no "dibuat", made)
                    canon = table.get(tuple(k[j] for k in keys[i:i + n]))
                    if canon is not None:
                        break
                if canon is not None:
                    if canon != last:
                        out.extend(canon.split())
                    last = canon
                    i += n
                    break
            else:
                out.append(words[i])
                if words[i] not in filler:
                    last = None
                i += 1
        return out


@lru_cache(maxsize=32)
def _rewrites(rewrites: tuple[tuple[str, tuple[str, ...]], ...], languages: tuple[str, ...]) -> Rewrites:
    return Rewrites(rewrites, languages)


def rewriter(cfg: MirrorConfig) -> Rewrites:
    return _rewrites(tuple(cfg.rewrites.items()), tuple(cfg.languages))


def canonicalise(text: str, cfg: MirrorConfig) -> str:
    rewritten = rewriter(cfg).apply(clean(text).split(), cfg.filler)
    return " ".join(w for w in rewritten if w not in cfg.filler) or " ".join(rewritten)


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
