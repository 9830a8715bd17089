"""Typo correction settings: how far a word may be from ours, and which words are real words of
the domain's languages (wordfreq) and so never corrected. Used by routing.core.index."""
from __future__ import annotations

import math
from collections import defaultdict

# Typo correction thresholds, on an edit similarity (OSA, 0-100: 100 * (1 - edits / longer length)).
# One typo (a wrong, missing, extra or swapped letter) in a word of n letters scores
# 100 * (1 - 1/n): n=4 -> 75, n=5 -> 80, n=6 -> 83, n=7 -> 86, n=10 -> 90. Each cutoff admits
# exactly one typo at that length, and from 11 letters two (82). Words of 4 letters or fewer and
# anything with a digit are never corrected: too many short words are one edit apart from ours
# and are real words of their own ("tell"/"telp", "good"/"goods", "tax"/"tag").
# Below 7 letters the first letter must also agree, since most real typos keep it.
MIN_CORRECTABLE_LEN = 5


# A word at least this common (Zipf scale: 3.5 is about 3 uses per million words) in one of the
# domain's languages is a real word, never "corrected". Rare misspellings ("expences", 1.4) are
# still corrected; real words one edit from ours ("pending" 4.0, "scales" 4.0) are left alone.
REAL_WORD_ZIPF = 3.5

try:  # optional: without wordfreq, typo correction simply has no real-word guard
    import wordfreq as _wordfreq
    from wordfreq import available_languages as _wordfreq_available
    from wordfreq import get_frequency_dict as _frequencies
    from wordfreq import zipf_frequency as _zipf

    _wordfreq.CACHE_SIZE = min(getattr(_wordfreq, "CACHE_SIZE", 20_000), 20_000)  # its look-up cache: no larger than ours
except ImportError:  # pragma: no cover - exercised only where wordfreq is missing
    _wordfreq_available = None
    _zipf = None
    _frequencies = None


def zipf(word: str, lang: str) -> float:
    return _zipf(word, lang)


# A frequency this far below or above REAL_WORD_ZIPF's lies on the same side of it after wordfreq's
# rounding (three significant digits, then the Zipf value to two decimals: well under 1 %).
_NOT_COMMON, _COMMON = 10 ** (REAL_WORD_ZIPF - 9) * 0.98, 10 ** (REAL_WORD_ZIPF - 9) * 1.02


def is_common(word: str, lang: str) -> bool:
    """zipf(word, lang) >= REAL_WORD_ZIPF. A word of lower-case ASCII letters is one token of itself
    to wordfreq's tokenizer, so its frequency is its entry in the language's list (none: 0): read
    there, without the tokenizer (~50 us a word; a new question's unknown words are mostly absent
    or rare). A frequency within 2 % of the bound, and any other word, ask zipf. Checked against
    zipf on every such word of the en, id and hi lists and made-up words (tests/test_analysis_speedups.py)."""
    if word.isascii() and word.isalpha() and word.islower():
        f = _frequencies(lang, "best").get(word)
        if f is None or f < _NOT_COMMON:
            return False
        if f >= _COMMON:
            return True
    return zipf(word, lang) >= REAL_WORD_ZIPF


def wordfreq_languages(languages: tuple[str, ...]) -> tuple[str, ...] | None:
    if _wordfreq_available is None:
        return None
    known = _wordfreq_available()
    langs = tuple(lang for lang in languages if lang in known)
    for lang in langs:
        _zipf("a", lang)  # load the language's word list now, at build time, not on a query
    return langs or None


def fuzzy_cutoff(length: int) -> float:
    if length <= 4:
        return 75.0
    if length <= 6:
        return 80.0
    if length <= 9:
        return 85.0
    if length == 10:  # two edits in ten letters (80) took "contactles(s)" for "contacted"
        return 90.0
    return 80.0


class TypoTargets:
    """The words a typo may be corrected into, by length (and, for short words, first letter): a
    word is compared only with those whose length can reach the cutoff at all (a catalog of 4,076
    tools knows 11,000 words; RapidFuzz over all of them cost ~1 ms per unknown word)."""

    def __init__(self, words: list[str]):
        self._buckets: dict[tuple[int, str], list[str]] = defaultdict(list)
        for w in words:  # in the given order, kept within each bucket
            self._buckets[(len(w), "")].append(w)
            self._buckets[(len(w), w[:1])].append(w)

    def choices(self, word: str, cutoff: float) -> list[str]:
        """The words that can score `cutoff` (0-1) against `word`: OSA similarity is 1 - edits / the
        longer length and two lengths differ by at least that many edits, so the other length lies in
        [cutoff x n, n / cutoff]. Below 7 letters only words with its first letter (as the corrector asks)."""
        n = len(word)
        letter = "" if n >= 7 else word[:1]
        out: list[str] = []
        for m in range(math.ceil(cutoff * n - 1e-9), math.floor(n / cutoff + 1e-9) + 1):
            out += self._buckets.get((m, letter), ())
        return out
