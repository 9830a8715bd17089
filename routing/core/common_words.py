"""Which of a question's unknown words could name a record, and which are only words of its language.

A word the router does not know is a literal: a customer's name ("Acme"), a code ("KJ-5521"), or an
ordinary word of the language the lexicon has no use for ("kindly share the invoices", "got the invoices
handy?"). The last say nothing about which record: a detail view
needs a number, a code, a name typed as one or written as two unknown words side by side ("faktur maju jaya",
common Indonesian words both), or a word rare in every language of the domain (wordfreq Zipf below
COMMON_ZIPF: "bansal"); a common word alone is none ("share", "handy").
Without wordfreq every literal may name one (the reading before this module).
"""
from __future__ import annotations

from functools import lru_cache

try:
    from wordfreq import zipf_frequency as _zipf
except ImportError:  # pragma: no cover - wordfreq is a dependency; without it nothing is common
    _zipf = None

COMMON_ZIPF = 3.5  # a word this frequent (about 3 per million words) in one of the languages is a word of it


@lru_cache(maxsize=1 << 16)
def common_word(word: str, languages: tuple[str, ...]) -> bool:
    """Whether `word` (casefolded) is a common word of one of `languages` (wordfreq's codes)."""
    if _zipf is None or not word:
        return False
    return max(_zipf(word, lang) for lang in (languages or ("en",))) >= COMMON_ZIPF


def names_a_record(a, languages: tuple[str, ...]) -> bool:
    """Whether the question holds something that may identify one record: a number, or a literal that is a
    name (a.names: capitals or several words; or right after another literal), holds a digit or a joining
    mark, or is not a common word."""
    names = set(a.names)
    after = -1  # where the last literal ended: two unknown words side by side are a name ("faktur maju jaya")
    for u in a.units:
        if u.role == "number":
            return True
        if u.role != "literal":
            continue
        if u.first == after or u.surface in names or not all(w.replace("'", "").isalpha() and common_word(w, languages) for w in u.surface.split()):
            return True
        after = u.last
    return False
