"""Words a phone's autocorrect or a hurried hand split in two or swapped for another real word:
"in voice" is invoice, "pay able" payable, "post gres" Postgres; "balance sheer" is the balance
sheet, "cash flaw" the cash flow. Language-free: only the lexicon's own terms say what a pair or a
phrase stands for, so nothing is joined or swapped into a word the domain does not know.

A split word is joined where the two words, written together, are one of the domain's terms (or a
form of one), the second word is no stop word and no word as common as one ("check out", "log in",
"go down", "turn over" stay two words), it begins no phrase of the domain ("ber utang ke kita": "utang
ke kita" is one), the two are not both words of the domain's own with the first no stop word ("the
top line of invoice INV-0102" is no "topline"), and, after a stop word ("in voice", "as set", "in
box"), where the question names no other term: there the two words may be meant ("show expenses as
set in the budget", "which files are in box folder reports"). A swapped word is mended only where it
is rarer than the languages' common words and inside one clause (no mark between it and the term's
other words); never inside a date ("last weak sellers" are no sellers of last week). A swapped word is mended only inside a term of two or three words
whose other words are all there: one edit from the term's word, itself a word the domain never
uses. Both are shown as corrections (the pair as typed, the term as read)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rapidfuzz.distance import OSA

JOIN_MIN = 5  # a joined term has this many letters at least ("in put" -> input); each half 2
SLIP_MIN = 4  # a swapped word and the term's word it stands for: this many letters at least
# Word frequencies (Zipf, the highest in the domain's languages; wordfreq): a second half as common as the
# languages' small words ("down", "over", "up": 6.0-6.6) makes a phrasal verb ("go down", "turn over"), no
# split term ("pay able": 5.6); a swapped word this common is meant as written ("take", "tahu", "susah"), a
# slip is a rarer word ("sheer" 4.0, "weak" 4.7, "machine" 4.9).
JOIN_SECOND_MAX = 5.8
SLIP_MAX = 5.0


@dataclass(frozen=True)
class SlipTables:
    terms: frozenset[str]  # the domain's one-word terms a split may join into
    firsts: frozenset[str]  # their beginnings (2+ letters, a letter short of the whole at most)
    pairs: frozenset[tuple[str, str]]  # the first two words of every phrase of two or more words
    blanks: dict  # a phrase with one word blanked ("") -> ((position, the word), ...)
    anchors: frozenset[str] = frozenset()  # the words left in the blanked phrases: a swap has one beside it


def build(phrases: dict) -> SlipTables:
    """The tables of a domain's phrases (RouterIndex.phrases: word tuple -> Entry)."""
    terms = frozenset(k[0] for k, e in phrases.items() if len(k) == 1 and e.concept and k[0].isalpha() and len(k[0]) >= JOIN_MIN)
    firsts = frozenset(t[:i] for t in terms for i in range(2, len(t) - 1))
    pairs = frozenset(k[:2] for k in phrases if len(k) > 1)

    def content(w: str) -> bool:
        return len(w) >= 3 and w.isalpha() and not getattr(phrases.get((w,)), "stop", False)

    blanks: dict = defaultdict(list)
    for k, e in phrases.items():
        if 2 <= len(k) <= 3 and e.concept:
            for j, w in enumerate(k):
                rest = k[:j] + k[j + 1 :]
                if len(w) >= SLIP_MIN and w.isalpha() and any(map(content, rest)):
                    blanks[k[:j] + ("",) + k[j + 1 :]].append((j, w))
    anchors = frozenset(w for k in blanks for w in k if w)
    return SlipTables(terms, firsts, pairs, {k: tuple(v) for k, v in blanks.items()}, anchors)


def joins(index, words: list[str], starts: list[int], ends: list[int], norm: str) -> list[tuple[int, str]]:
    """(i, the term) for each pair of words i, i + 1 that is a split term, left to right."""
    t = index.slips
    out: list[tuple[int, str]] = []
    i = 0
    while i + 1 < len(words):
        a, b = words[i], words[i + 1]
        if a in t.firsts and len(b) >= 2 and b.isalpha() and norm[ends[i] : starts[i + 1]] == " " and (a, b) not in t.pairs \
                and not (i + 2 < len(words) and (b, words[i + 2]) in t.pairs):
            joined = a + b
            if not _is_stop(index, b) and not _both_words(index, a, b) and (joined in t.terms or index.lemma(joined) in t.terms) \
                    and index.frequency(b) < JOIN_SECOND_MAX and not (_is_stop(index, a) and _names_a_term(index, words, i)):
                out.append((i, joined))
                i += 2
                continue
        i += 1
    return out


def _is_stop(index, w: str) -> bool:
    return getattr(index.phrases.get((w,)), "stop", False)


def _names_a_term(index, words: list[str], i: int) -> bool:
    """Whether a word of the question other than words i, i + 1 reads as one of the domain's terms."""
    return any(k not in (i, i + 1) and getattr(index.entry(w), "concept", None) for k, w in enumerate(words))


def _both_words(index, a: str, b: str) -> bool:
    """Both words are the domain's own and the first no stop word: a phrase of its own ("the top line of
    invoice INV-0102" is its first line, no "topline"), not a term split in two."""
    return a in index.phrase_words and b in index.phrase_words and not _is_stop(index, a)


def swapped(index, words: list[str], news: list, corrected: set[int], norm: str, starts: list[int], ends: list[int]) -> list[tuple[int, str]]:
    """(i, the term's word) for each word i that stands inside a term of two or three words, the
    term's other words read in place around it, one edit from the term's word it replaced."""
    blanks, anchors = index.slips.blanks, index.slips.anchors
    if not blanks:
        return []
    n = len(news)
    out: list[tuple[int, str]] = []
    for p in range(n):
        if not (p and news[p - 1] in anchors or p + 1 < n and news[p + 1] in anchors):
            continue  # every phrase around the word holds the word beside it
        w = words[p]
        if len(w) < SLIP_MIN or p in corrected or news[p] in index.phrase_words or w in index.known or not w.isalpha() \
                or index.frequency(w) >= SLIP_MAX:
            continue
        for size in (2, 3):
            for s in range(max(0, p - size + 1), min(p, n - size) + 1):
                if any(norm[ends[k] : starts[k + 1]].strip() for k in range(s, s + size - 1)):
                    continue  # a mark between the words: another clause ("saya tahu, lalu ...")
                key = (*news[s:p], "", *news[p + 1 : s + size])
                hit = next((target for j, target in blanks.get(key, ()) if j == p - s and OSA.distance(w, target) == 1), None)
                if hit is not None:
                    out.append((p, hit))
                    break
            else:
                continue
            break
    return out
