"""Grouping a query's tokens into units (dates, addresses, amounts, numbers, the longest known
phrase, else a literal word): the step of RouterIndex.analyze after typo correction."""
from __future__ import annotations

import re
import weakref
from bisect import bisect_left
from dataclasses import dataclass, replace
from operator import attrgetter

from routing.core.fastinit import fast_frozen_init
from routing.core.joined import address_end, amount_end
from routing.core.text import is_number
from routing.core.wordcache import remember


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class Unit:
    role: str  # concept | action | vague | stop | literal | number | date
    key: str  # concept id, or the word itself
    surface: str
    first: int  # token indexes, inclusive / exclusive
    last: int
    via: str = "keyword"  # keyword | synonym | fuzzy
    kinds: tuple[tuple[str, float], ...] = ()
    told: str = ""  # said in a statement before the ask (routing.core.background): "word" (its own) or "name" (typed as one)


def _known_word_with_letters(index, word: str) -> bool:
    """A word of letters and digits the lexicon names ("gstr3b", "ec2", "s3"): read as that term, not
    as a number or record id (only words the domain does not know are read as ids)."""
    return ((word,) in index.phrases or word in index.phrase_firsts) and any(ch.isalpha() for ch in word)


# A phrase of two or more words may have this many stop words between its words in a query ("we
# still owe" reads as "we owe"): people put fillers inside an idiom that the lexicon lists bare.
MAX_PHRASE_GAP = 1


def _is_stop(index, word: str) -> bool:
    entry = index.phrases.get((word,))
    return entry is not None and entry.stop


def _gapped_phrase(index, tokens, in_date: list[bool], i: int, longer_than: int):
    """The longest concept phrase starting at token i with one stop word left out between its
    words, when it has more words than `longer_than` (the best phrase read without a gap):
    (entry, end token exclusive, phrase words) or None."""
    n = len(tokens)
    limit = min(n, i + index.max_phrase + MAX_PHRASE_GAP)
    best = None
    for end in range(i + 3, limit + 1):  # a gap needs at least three tokens: word, stop, word
        if any(in_date[i:end]) or _is_stop(index, tokens[end - 1].text):
            continue
        words = [t.text for t in tokens[i:end]]
        for k in range(1, len(words) - 1):
            if not _is_stop(index, words[k]):
                continue
            key = tuple(words[:k] + words[k + 1:])
            if len(key) <= longer_than or len(key) > index.max_phrase:
                continue
            entry = index.phrases.get(key)
            if entry is None:
                entry = index.phrases.get(tuple(index.lemma(w) or w for w in key))
            if entry is not None and entry.concept and (best is None or len(key) > best[2]):
                best = (entry, end, len(key))
    return best


NEGATION = "\x00not"  # stands for any negation word (words.yaml `negations`) in _negation_table's keys
_NEGATION_TABLES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _negation_table(index) -> dict:
    """The lexicon's concept phrases that hold a negation word, keyed with every negation word as
    NEGATION: "not paid" is then also "haven't paid", "belum dibayar" also "tidak dibayar". Built
    once per index."""
    table = _NEGATION_TABLES.get(index)
    if table is None:
        negations = getattr(index.domain.words, "negations", frozenset())
        table = {}
        if negations:
            for key, entry in index.phrases.items():
                if entry.concept and len(key) > 1 and any(w in negations for w in key):
                    table.setdefault(tuple(NEGATION if w in negations else w for w in key), entry)
            # "not <word>" of a term reads the same with any one-word variant of that term: "not paid"
            # (unpaid) is also "haven't settled", "not cleared" where settled and cleared mean paid
            forms: dict[str, list[str]] = {}
            for key, entry in index.phrases.items():
                if len(key) == 1 and entry.concept and key[0] not in negations:
                    forms.setdefault(entry.concept, []).append(key[0])
            for key, entry in list(table.items()):
                if len(key) == 2 and key[0] == NEGATION:
                    said = index.phrases.get((key[1],))
                    if said is not None and said.concept and said.concept != entry.concept:
                        for form in forms.get(said.concept, ()):
                            table.setdefault((NEGATION, form), entry)
        _NEGATION_TABLES[index] = table
    return table


def _negated_phrase(index, tokens, in_date: list[bool], i: int, longer_than: int):
    """The longest concept phrase at token i read with its negation word swapped for another
    ("haven't paid" as the lexicon's "not paid"), or a word and a negation after it (in a language
    that puts it there) read as the lexicon's two-word "not <word>"; longer than `longer_than`:
    (entry, end) or None."""
    negations = getattr(index.domain.words, "negations", frozenset())
    if not negations:
        return None
    n = len(tokens)
    window = [t.text for t in tokens[i : min(n, i + index.max_phrase)]]
    if not any(w in negations for w in window):
        return None
    table = _negation_table(index)
    if not table:
        return None
    for L in range(len(window), max(longer_than, 1), -1):
        if any(in_date[i : i + L]):
            continue
        key = tuple(NEGATION if w in negations else w for w in window[:L])
        if NEGATION not in key:
            continue
        entry = table.get(key)
        if entry is None:
            entry = table.get(tuple(w if w == NEGATION else (index.lemma(w) or w) for w in key))
        if entry is not None:
            return entry, i + L
    # One of the language's `negation_gap` words between the negation and its word ("without being
    # paid", "nobody has paid") reads as the two-word "not <word>" ("not just settled" does not).
    gap = getattr(index.domain.words, "negation_gap", frozenset())
    if gap and longer_than < 3 and len(window) > 2 and window[0] in negations and window[1] in gap and not any(in_date[i : i + 3]):
        between = index.phrases.get((window[1],))
        if between is not None and between.stop:
            for word in dict.fromkeys((window[2], index.lemma(window[2]) or window[2])):
                entry = table.get((NEGATION, word))
                if entry is not None:
                    return entry, i + 3
    # A negation after its word, in a language that puts it there (words.yaml `negation_after_word`:
    # romanised Hindi "pay nahi hua", "paid nahi kiya") reads as the lexicon's phrase with the
    # negation first ("not pay", "not paid"). Elsewhere a negation after a word is a question tag
    # (Indonesian "udah dibayar belum?": paid yet or not?) and is left alone.
    after = getattr(index.domain.words, "negations_after", frozenset())
    if after and longer_than < 2 and len(window) > 1 and window[0] not in negations and window[1] in after and not any(in_date[i : i + 2]):
        for word in dict.fromkeys((window[0], index.lemma(window[0]) or window[0])):
            entry = table.get((NEGATION, word))
            if entry is not None:
                return entry, i + 2
    return None


def _next_true(flags: list[bool]) -> list[int]:
    """For each index, the first index at or after it whose flag is set (len(flags) + a margin past
    the end: no such index), so that "any flag in [i, i + L)" is one comparison."""
    n = len(flags)
    out = [0] * (n + 1)
    nxt = out[n] = n + 1_000_000
    for k in range(n - 1, -1, -1):
        if flags[k]:
            nxt = k
        out[k] = nxt
    return out


def _word_start(index, word: str) -> tuple:
    """How a unit starts on `word` outside a date or address (a function of the word and the
    index, kept per word): (it is its own one-word unit, a number, the longest phrase it may start,
    and that one-word unit's role, key, via, via if corrected, kinds)."""
    number = is_number(word) and not _known_word_with_letters(index, word)
    longest = index.max_phrase if word in index.phrase_firsts or (index.lemma(word) or word) in index.phrase_firsts else 1
    entry = index.phrases.get((word,))
    if entry is None and word in index.phrase_words:
        # a word listed only inside a longer phrase ("items" of "line items") is kept as typed by
        # read_word; alone, it reads as its known base word ("item"), as it would unlisted
        base = index.lemma(word)
        entry = index.phrases.get((base,)) if base else None
    if entry is None:
        # "issued" of issue (routing.core.analysis.read_word, words.yaml `past`): says what was done, asks nothing
        alone = ("stop", word, "keyword", "keyword", ()) if index.is_past_form(word) else ("literal", word, "keyword", "fuzzy", ())
    elif entry.concept:
        canon = index.canonical_form.get(entry.concept)
        via = "keyword" if canon in (word, index.lemma(word)) else "synonym"
        alone = ("concept", entry.concept, via, "fuzzy", entry.kinds)
    elif entry.kinds:
        alone = ("action", word, "keyword", "fuzzy", entry.kinds)
    else:
        alone = ("vague" if entry.vague else "stop", word, "keyword", "keyword", ())
    return remember(index.unit_words, word, (not number and longest == 1, number, longest, *alone))


def group_units(index, tokens, in_date: list[bool], corrected: set[int], text: str = "", texts: list[str] | None = None) -> list[Unit]:
    units: list[Unit] = []
    i = 0
    n = len(tokens)
    # Where the next date token and the next negation word are: a phrase cannot cross a date, and
    # a phrase read with its negation swapped (_negated_phrase) needs one within its reach.
    dated = True in in_date
    next_date = _next_true(in_date) if dated else None
    texts = [t.text for t in tokens] if texts is None else texts
    negations = getattr(index.domain.words, "negations", frozenset())
    next_negation = _next_true([w in negations for w in texts]) if negations and not negations.isdisjoint(texts) else None
    has_at = "@" in text  # an address needs one: else address_end is i + 1 at every token
    phrases, lemma, max_phrase = index.phrases, index.lemma, index.max_phrase
    word_starts = index.unit_words
    while i < n:
        if dated and in_date[i]:
            j = i
            while j < n and in_date[j]:
                j += 1
            units.append(Unit("date", "", " ".join(t.text for t in tokens[i:j]), i, j))
            i = j
            continue
        if has_at:
            j = address_end(tokens, i, text)
            if j > i + 1 and not any(in_date[i:j]):
                # "rina.putri@gmail.com": an address is one name-like word, what a search looks for.
                address = text[tokens[i].start : tokens[j - 1].end]
                units.append(Unit("literal", address, address, i, j))
                i = j
                continue
        first = texts[i]
        start = word_starts.get(first) or _word_start(index, first)
        if start[0] and (next_negation is None or next_negation[i] >= i + max_phrase):
            # The common case: a word that starts no longer phrase is its own unit.
            units.append(Unit(start[3], start[4], first, i, i + 1, start[6] if i in corrected else start[5], start[7]))
            i += 1
            continue
        if start[1]:
            j = amount_end(tokens, i, text)
            if j > i + 1:
                # "2,500,000" / "1.750.000": digit groups of three make an amount, not a record
                # number; like a name, it is what a search looks for.
                amount = text[tokens[i].start : tokens[j - 1].end]
                units.append(Unit("literal", amount, amount, i, j))
                i = j
                continue
            units.append(Unit("number", first, first, i, i + 1))
            i += 1
            continue
        longest = start[2]
        negation_near = next_negation is not None and next_negation[i] < i + max_phrase
        entry = None
        length = 0
        # Only a word that starts a longer phrase (itself or its lemma) can start one here.
        for L in range(min(longest, n - i), 0, -1):
            if dated and next_date[i] < i + L:
                continue
            key = tuple(texts[i : i + L])
            entry = phrases.get(key)
            if entry is None and (L > 1 or key[0] in index.phrase_words):
                # "purchase invoices" -> "purchase invoice": inflected words inside a phrase
                entry = phrases.get(tuple(lemma(w) or w for w in key))
            if entry is not None:
                length = L
                break
        if longest > 1:
            gapped = _gapped_phrase(index, tokens, in_date, i, length)
            if gapped is not None:
                entry, end, _ = gapped
                length = end - i
        negated = _negated_phrase(index, tokens, in_date, i, length) if negation_near else None
        if negated is not None:
            entry, end = negated
            length = end - i
        if entry is None:
            units.append(Unit("literal", first, first, i, i + 1, via="fuzzy" if i in corrected else "keyword"))
            i += 1
            continue
        surface = " ".join(texts[i : i + length])
        fuzzy = bool(corrected) and any(k in corrected for k in range(i, i + length))
        if entry.concept:
            canon = index.canonical_form.get(entry.concept)
            via = "fuzzy" if fuzzy else ("keyword" if canon in (surface, index.lemma(surface)) else "synonym")
            units.append(Unit("concept", entry.concept, surface, i, i + length, via=via, kinds=entry.kinds))
        elif entry.kinds:
            units.append(Unit("action", surface, surface, i, i + length, via="fuzzy" if fuzzy else "keyword", kinds=entry.kinds))
        elif entry.vague:
            units.append(Unit("vague", surface, surface, i, i + length))
        else:
            units.append(Unit("stop", surface, surface, i, i + length))
        i += length
    return units


GLUE = frozenset("-_./")  # one of these between two words, no space: one name ("invoices-archive")
_end_of = attrgetter("end")
MIN_NAME_PART = 4  # an unknown part this long makes a name; shorter ones are prefixes ("pre-", "re-", "e-")


def glued_names(units: list[Unit], tokens, text: str) -> list[Unit]:
    """Words glued by - _ . or / into one name with an unknown word ("invoices-archive",
    "payments-service", "notes.txt") name a thing, not a topic: a concept inside such a name is
    read as the name's word (a literal), so "the S3 bucket invoices-archive" asks no invoice tool."""
    n = len(tokens)
    if not _glued_at_all(tokens, text):
        return units  # no word glued to the next: every group is one token, and no name is made
    group = list(range(n))
    for i in range(n - 1):
        sep = text[tokens[i].end : tokens[i + 1].start]
        if len(sep) == 1 and sep in GLUE:
            group[i + 1] = group[i]
    named = {group[u.first] for u in units if u.role == "literal" and group[u.first] == group[u.last - 1]
             and (group[u.first] != u.first or (u.last < n and group[u.last] == group[u.first]))
             and len(u.surface) >= MIN_NAME_PART and any(ch.isalpha() for ch in u.surface)}
    if not named:
        return units
    return [replace(u, role="literal", key=u.surface, kinds=()) if u.role == "concept" and group[u.first] in named
            and group[u.last - 1] == group[u.first] else u for u in units]


_GLUE_RE = re.compile("[" + re.escape("".join(sorted(GLUE))) + "]")


def _glued_at_all(tokens, text: str) -> bool:
    """Whether some token is followed by one GLUE character and then the next token (glued_names'
    loop's test), read at the few glue characters of the text (mostly a sentence's full stop)."""
    ends = None
    for m in _GLUE_RE.finditer(text):
        if ends is None:
            ends = list(map(_end_of, tokens))
        p = m.start()
        i = bisect_left(ends, p)
        if i + 1 < len(tokens) and ends[i] == p and tokens[i + 1].start == p + 1:
            return True
    return False


def unit_features(units, tokens, text: str) -> tuple[list[str], list[str]]:
    """The example features of some units, in order: content keys (concepts, unknown words, verbs)
    and the weaker extras (stop words as "~word", numbers as "#num" / "#pct")."""
    keys: list[str] = []
    extras: list[str] = []
    for u in units:
        role = u.role
        if role == "stop":
            key = u.key
            if " " in key:
                extras.extend(["~" + w for w in key.split()])
            else:  # one word (a token holds no space)
                extras.append("~" + key)
            continue
        if role == "number" or (role == "literal" and u.surface[:1].isdigit()):
            after = text[tokens[u.last - 1].end : tokens[u.last - 1].end + 2].lstrip()
            extras.append("#pct" if after[:1] == "%" else "#num")
        if role == "literal" and u.told:  # a statement's own word before the ask: the ask's words say what is asked
            continue
        if role == "literal" or role == "concept" or role == "action":
            keys.append(u.key)
    return keys, extras
