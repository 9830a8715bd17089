"""What a question says that is not its ask (set_aside): framing ("my lead asked me"), a clause set
aside (contrast, purpose, preface; routing.core.framing), the statements before the ask
(routing.core.background) and a date the speaker took back ("yesterday no wait I mean last week")."""
from __future__ import annotations

import re

from routing.core.background import names_term, opens_clause, statements_before
from routing.core.framing import (SENTENCE_END, clauses, contrast_spans, framing_spans, inside as _inside, message_content, preface_clause,
                                  purpose_clauses, purpose_within, signed)

_STATEMENT_THEN = re.compile(r"[,;:.?!]\s+\S|\s[-–—]+\s")  # a clause ends before the question does: a statement may come first
_SOURCE_LINE = re.compile(r":|\s[-–—]+|[-–—]+\s")  # what closes a source line: a colon or a dash standing apart


def set_aside(index, words: list[str], norm: str, starts: list[int], ends: list[int], date_at: list[tuple[int, int]],
              capital=None):
    """(spans, dropped dates, background, why): the token spans of a question that are not its ask, the
    token ranges of its dates they drop, the statements made before the ask, and per dropped date why
    ("story": said before the ask; "taken back"; "aside": in framing or a clause set aside). Not the ask:
    framing ("my lead asked me"), a clause set aside (contrast, purpose, preface; routing.core.framing) where
    another clause is left that asks, and a date the speaker took back ("yesterday no wait I mean last week":
    the nearest date before the correction, where one follows it; taken_back). Background:
    routing.core.background."""
    w = index.domain.words
    n = len(words)
    framed = framing_spans(words, w.framing, w.framing_anchors) if w.framing else []
    polite = framing_spans(words, w.courtesy, w.courtesy_anchors) if w.courtesy else []
    parts = clauses(norm, starts, ends) if polite else None  # split once, read again below
    if polite:  # greetings and thanks as a clause of their own ("good morning, ..."), never inside one ("Good Day Biscuits")
        whole = set(parts)  # nor a name in title case after a comma or colon ("invoices for Uber, Good Day")
        named = lambda lo, hi: lo > 0 and hi - lo > 1 and capital is not None and all(capital(i) for i in range(lo, hi)) \
            and any(ch in ",:" for ch in norm[ends[lo - 1]:starts[lo]])
        framed = signed(sorted([*framed, *(s for s in polite if s in whole and not named(*s))]), parts, capital)
    background: list[tuple[int, int]] = []
    background_dates: set = set()
    aside_words = n > 2 and (index.clause_words is None or words[0] in index.preface_firsts or not index.clause_words.isdisjoint(words))
    # a request's words or a question's "?" after a statement ("The audit is in March. Could you ...")
    asks_after = n > 2 and bool(w.request) and (not index.request_words.isdisjoint(words) or "?" in norm or opens_clause(index, words, norm, starts, ends)) \
        and _STATEMENT_THEN.search(norm) is not None
    if aside_words or asks_after:
        parts = clauses(norm, starts, ends) if parts is None else parts
        if asks_after:
            background, background_dates = statements_before(index, words, norm, starts, ends, date_at, parts, framed, capital)
            framed = [*framed, *background_dates]
    if aside_words:
        dated = lambda lo, hi: any(a < hi and lo < b for a, b in date_at)
        purposes = purpose_clauses(words, parts, w.purpose)
        # said inside a clause, where a term of the domain is left outside to ask ("pull the numbers so I can see which
        # customers owe us" asks in its tail)
        told = _told(w)
        purposes += [c for c in purpose_within(words, parts, w.purpose_within, told) if not _inside(c, purposes)
                     and _names_outside(index, words, [*framed, *purposes, c])]
        # a preface is a source line ("Customer asks:", "Ticket #4420 -"), closed by a colon or a dash, no date in it
        # "..., not paid" / "paid nahi, ...": the negation with a word is a term of the lexicon, a filter of the ask
        negated = lambda lo, hi: any((neg, words[lo + 1] if words[lo] in w.contrast_before else words[hi - 2]) in index.phrases
                                     for neg in w.negations)
        sends = set(index.domain.settings.weights.message_kinds)
        said = message_content(words, w.message_content, index.message_anchors, lambda i: not told(words[i]) and any(
            k in sends for k, _ in (getattr(index.entry(words[i]), "kinds", None) or ())),
            lambda i: _opens_sentence(w, words, norm, starts, ends, i), norm, starts, ends)
        aside = [*(c for c in contrast_spans(words, parts, w.contrast_before, w.contrast_after) if not negated(*c)), *purposes, *said,
                 *(c for c in preface_clause(words, parts, w.preface)
                   if not dated(*c) and c[1] < n and _SOURCE_LINE.search(norm[ends[c[1] - 1]:starts[c[1]]]))]
        if aside and _asks_elsewhere(index, words, [*framed, *aside]):
            framed = [*framed, *aside]
            # a purpose's date where the ask names none is the ask's date ("planning next month, show cash flow")
            keep = {at for c in purposes for at in date_at if _inside(at, [c])}
            if keep and all(_inside(at, aside) for at in date_at):
                framed = [f for f in framed if f not in purposes] + [(lo, hi) for lo, hi in _minus(purposes, keep)]
    after = _said_after(index, words, norm, starts, ends, date_at, capital)
    if after:
        framed = [*framed, after]
    dropped = {at for at in date_at if _inside(at, framed)} | background_dates
    why = {at: "story" if at in background_dates else "aside" for at in dropped}
    kept = [at for at in date_at if at not in dropped]
    if len(kept) > 1:
        for a, b in taken_back(w, words, norm, starts, ends, parts, kept):
            before = [at for at in kept if at[1] <= a]
            dropped.add(before[-1])  # the date said just before the correction is the one taken back
            why[before[-1]] = "taken back"
            framed = [*framed, (a, b), before[-1]]
    return framed, dropped, background, why


def taken_back(w, words: list[str], norm: str, starts: list[int], ends: list[int], parts, kept) -> list[tuple[int, int]]:
    """The token spans where a speaker takes back a date of `kept` said before for one said after: a
    `correction` anywhere ("no wait I mean", "scratch that"), a `correction_alone` where it is a clause of its
    own ("..., no, ...", "koreksi: ..."), unless that clause ends in "?" or a lone "." (a tag question "...,
    no?"; "no." for number), the words up to the next date or after it in its clause add to what was said
    (words.yaml `additive`, `additive_after`: "sorry, and November too", "arre, November ka bhi chahiye"), or
    that clause is a question referring back ("wait, does that include November?")."""
    around = lambda lo, hi: any(at[1] <= lo for at in kept) and any(at[0] >= hi for at in kept)
    fixes = [s for s in framing_spans(words, w.correction, w.correction_anchors) if around(*s)] if w.correction else []
    if w.correction_alone and not w.correction_alone_anchors.isdisjoint(words):
        parts = parts if parts is not None else clauses(norm, starts, ends)
        for lo, hi in parts:
            if hi - lo > 4 or not around(lo, hi) or framing_spans(words[lo:hi], w.correction_alone, w.correction_alone_anchors) != [(0, hi - lo)]:
                continue
            gap = norm[ends[hi - 1]:starts[hi]]  # a date follows: so does a word
            if "?" in gap or gap.strip() == ".":
                continue
            after = next(at for at in kept if at[0] >= hi)
            stop = next(h for c, h in parts if c <= after[0] < h)  # the end of the next date's clause
            # ... and of its sentence ("..., sorry, bills due in March, I need both")
            said = next((i + 1 for i in range(after[1], len(words) - 1) if SENTENCE_END.search(norm[ends[i]:starts[i + 1]])), len(words))
            if not w.additive.isdisjoint(words[hi:after[0]]) or not w.additive_after.isdisjoint(words[after[1]:said]):
                continue
            if "?" in norm[ends[stop - 1]:starts[stop] if stop < len(words) else None] and \
                    not w.anaphora.isdisjoint([*words[hi:after[0]], *words[after[1]:stop]]):
                continue  # "December expenses, wait, does that include November invoices?": a question about what was said
            fixes.append((lo, hi))
        fixes.sort()
    return fixes


def _minus(spans, holes) -> list[tuple[int, int]]:
    """`spans` with the ranges `holes` cut out of them."""
    out = []
    for lo, hi in spans:
        for a, b in sorted(h for h in holes if lo <= h[0] and h[1] <= hi):
            if a > lo:
                out.append((lo, a))
            lo = max(lo, b)
        if hi > lo:
            out.append((lo, hi))
    return out


def _told(w):
    """A word that tells of the past (words.yaml `irregular` forms and `past` endings, as "got", "closed"): after
    "before I" it says when something happened ("the line dropped before I got their name"), no purpose."""
    irregular = {k for k, _ in w.irregular}
    endings = [e for e in w.past if len(e) > 1]  # "-ed" ("closed", "agreed"); a lone "-d" ends "send", "spend" too
    return lambda word: word in irregular or any(word.endswith(e) and len(word) > len(e) + 2 for e in endings)


def _said_after(index, words: list[str], norm: str, starts: list[int], ends: list[int], date_at, capital=None):
    """What follows a question's first "?" where it names nothing of the domain nor anyone: what the speaker adds
    ("... faktur penjualan bulan lalu? Terima kasih banyak atas bantuannya"), not the ask. It must hold no term,
    phrase, verb, vague ask ("hisaab do"), word of a tool's description ("operations/investing/financing"), date,
    number, word typed with a capital past its first ("And Vogel?", "no wait, Brenner", "HDFC wala" keep theirs),
    nor a word the languages do not know (a name in lower case, a code); and what comes before the "?" must name a
    term or verb. None for none."""
    if "?" not in norm:  # most questions: nothing after a "?" to read
        return None
    q = next((k for k in range(1, len(words)) if "?" in norm[ends[k - 1]:starts[k]]), None)
    if q is None or any(b > q for _, b in date_at):
        return None
    stop = index.domain.words.stopwords

    def said(lo: int, hi: int) -> bool:
        for i in range(lo, hi):
            if words[i] in index.description_words:
                return True
            for j in range(i + 1, min(i + index.max_phrase, hi) + 1):  # a phrase of the lexicon ("p l") as well as a word
                e = index.phrases.get(tuple(words[i:j])) if j > i + 1 else index.entry(words[i])
                if e is not None and (e.concept or e.kinds or e.vague):
                    return True
        return False
    n = len(words)
    plain = all(w in stop or (w.isalpha() and index.is_real_word(w)) for w in words[q:]) \
        and not (capital is not None and any(capital(i) for i in range(q + 1, n)))
    return (q, n) if plain and not said(q, n) and said(0, q) else None


def _opens_sentence(w, words: list[str], norm: str, starts: list[int], ends: list[int], i: int) -> bool:
    """Word i opens its sentence: only stop words before it since the last sentence's end ("tolong kirim ...")."""
    k = i
    while k > 0 and not SENTENCE_END.search(norm[ends[k - 1]:starts[k]]):
        k -= 1
    return all(words[j] in w.stopwords for j in range(k, i))


def _names_outside(index, words: list[str], spans) -> bool:
    """Whether a word outside `spans` is a term of the domain (a concept, not only a verb)."""
    return names_term(index, [w for i, w in enumerate(words) if not _inside((i, i + 1), spans)])


def _asks_elsewhere(index, words: list[str], spans) -> bool:
    """Whether a word outside `spans` is a term or a verb of the domain: what the question does ask."""
    for i, w in enumerate(words):
        if not _inside((i, i + 1), spans):
            entry = index.entry(w)
            if entry is not None and (entry.concept or entry.kinds):
                return True
    return False
