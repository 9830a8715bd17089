"""Language-agnostic text handling: normalisation and tokenisation.

No word of any language lives here; words come from lexicons/.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from routing.core.fastinit import fast_frozen_init

MAX_QUERY_CHARS = 1000

# A token is a run of letters/digits, optionally joined by internal hyphens/apostrophes/dots
# between digits ("2025-03-15" stays one token for the date resolver to see whole).
_TOKEN_RE = TOKEN_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
# The same tokens in a casefolded ASCII text, where a letter or digit is [a-z0-9] (a third faster).
ASCII_TOKEN_RE = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")
_SPACE_RE = re.compile(r"\s+")


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class Token:
    text: str  # normalised (casefolded) surface form
    start: int  # offsets into the normalised string
    end: int

    @property
    def is_number(self) -> bool:
        return is_number(self.text)


def is_number(word: str) -> bool:
    """A token holding a digit and not only letters ("2025", "15/03" pieces, "ec2")."""
    # No letter is a digit (checked over every code point), so a word of letters is no number.
    return not word.isalpha() and any(ch.isdigit() for ch in word)


def clean(text: str) -> str:
    """Remove control and zero-width characters, fold compatibility forms, squeeze spaces."""
    if text.isascii() and text.isprintable() and "  " not in text:
        return text.strip()  # printable ASCII is its own NFKC form; its one space character is never doubled here
    text = unicodedata.normalize("NFKC", text)
    text = _CONTROL_RE.sub(" ", text)
    return _SPACE_RE.sub(" ", text).strip()


def normalize(text: str) -> str:
    """Clean, then casefold: the form every lexicon entry and query is compared in."""
    return clean(text).casefold()


def tokenize(normalized: str) -> list[Token]:
    return [Token(m.group(0), m.start(), m.end()) for m in _TOKEN_RE.finditer(normalized)]


@lru_cache(maxsize=512)
def words(text: str) -> tuple[str, ...]:
    """Tokens of a lexicon entry, normalised the same way queries are (a route asks for the same
    question's words more than once: kept for the last few hundred texts)."""
    return tuple(_TOKEN_RE.findall(normalize(text)))


def token_spans(text: str) -> list[tuple[str, int, int]]:
    """(token, start, end) of each token, as tokenize() without the Token objects."""
    return [(m.group(0), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]


def uninflected_forms(table: dict, suffixes):
    """(key, concept) for each concept phrase of two or more words in `table` whose last word ends with one of the
    language's suffixes, with that word unsuffixed (a stem of three letters at least), where
    `table` has no entry of that key: a query's inflected word folds onto a known word ("views" ->
    "view"), never the reverse, so a phrase the lexicon lists inflected ("page views") would not be
    read uninflected ("page view") without these. Never over a phrase the lexicon lists itself. Not
    for a spelling (a rule whose reverse is a rule too: our>or, or>our): a query's other spelling
    folds onto the listed one already, and "tagihan vendour" made "vendour" a known word that
    "vendor" then folded onto, so "vendor bills" no longer read as the phrase "vendor bill"."""
    rules = set(suffixes)
    suffixes = [(s, r) for s, r in suffixes if not (r and (r, s) in rules)]
    for key, entry in list(table.items()):
        concept = entry.get("concept")
        if not concept or len(key) < 2:  # one word alone: its bare form may be another word ("goods", "good")
            continue
        for bare in _unsuffixed(key[-1], suffixes, 3):
            variant = key[:-1] + (bare,)
            if variant not in table:
                yield variant, concept


def _unsuffixed(word: str, suffixes, min_stem: int):
    """`word` without each of the language's suffixes it ends with (the suffix's replacement put on), where a stem of
    `min_stem` letters at least is left."""
    for suffix, repl in suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= min_stem:
            yield word[: len(word) - len(suffix)] + repl


def bare_forms(table: dict, suffixes, frequency):
    """(key, concept) for each one-word concept in `table` whose word ends with one of the language's suffixes
    ("visitors"), with that word unsuffixed ("visitor", a stem of four letters at least), where `table` has no entry
    of that key and the bare form is a word of the languages clearly rarer than the listed one (`frequency`: the
    word's Zipf frequency, its highest in the domain's languages; BARE_RARER): "visitor" (4.0 against "visitors"
    4.5) reads as the term, "good" (6.1 against "goods" 4.6) and "relation" (4.3 against 4.7) stay other words. Not a word a phrase of
    several holds ("sales" of "sales invoice"): read as its bare form, it would no longer find that phrase."""
    in_phrases = {w for key in table if len(key) > 1 for w in key}
    for key, entry in list(table.items()):
        concept = entry.get("concept")
        if not concept or len(key) != 1 or key[0] in in_phrases:
            continue
        word = key[0]
        for bare in _unsuffixed(word, suffixes, 4):
            if (bare,) not in table and BARE_MIN_ZIPF <= frequency(bare) <= frequency(word) - BARE_RARER:
                yield (bare,), concept
                break


BARE_MIN_ZIPF = 3.0  # a bare form rarer than this is no word of the languages ("marg" of "margin")
# ... and at least this much rarer than the listed form (Zipf 0.4: 2.5 times): a bare form about as common has
# a sense of its own ("relation" 4.3 against "relations" 4.7 is a Postgres table in "relation users does not
# exist"; "visitor" 4.0 against "visitors" 4.5 is the site's visitor)
BARE_RARER = 0.4


def validate_query(query: Any) -> str | None:
    """A plain-words reason the query cannot be routed, or None."""
    if not isinstance(query, str):
        return f"The query must be text, not {type(query).__name__}."
    if not query.strip():
        return "The query is empty. Type a question, e.g. 'outstanding invoices'."
    # Counted after Unicode folding too: one character can fold into many (U+FDFA into 18).
    length = max(len(query), len(unicodedata.normalize("NFKC", query)))
    if length > MAX_QUERY_CHARS:
        return f"The query is {length:,} characters long; the limit is {MAX_QUERY_CHARS:,}."
    if not any(ch.isalnum() for ch in query):
        return "The query has no letters or digits."
    return None
