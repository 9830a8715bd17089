"""The analysis of one query against a RouterIndex (RouterIndex.analyze): normalise, read each
word (known, an inflection, a known word's form, or a typo of one), find dates, group the tokens
into units and gather the features the scorers read.

A word's reading is a function of the word and the index alone, so it is kept per word (bounded,
routing.core.wordcache): a route reads each of its words with one look-up, in bulk."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace
from datetime import date
from itertools import accumulate, compress
from operator import add, itemgetter, ne, sub

from rapidfuzz.distance import OSA

from routing.core.aside import set_aside
from routing.core.background import background_read, capital_of
from routing.core import slips
from routing.core.comparison import compared
from routing.core.framing import clauses, framing_spans, inside as _inside
from routing.core.schema import Correction
from routing.core.sentences import split_features
from routing.core.text import ASCII_TOKEN_RE, TOKEN_RE, Token, clean, is_number, token_spans
from routing.core.typos import MIN_CORRECTABLE_LEN, fuzzy_cutoff
from routing.core.quantities import amount_qualifiers, asks_to_write, quantities_in
from routing.core.units import GLUE, Unit, glued_names, group_units, unit_features
from routing.core.occasions import occasions
from routing.core.verb_use import read_by_position
from routing.core.wordcache import remember
from routing.dates import DateRange, find_dates

_group, _start, _end, _span = itemgetter(0), re.Match.start, re.Match.end, re.Match.span  # as bare functions, to map over matches
_ASCII_DIGIT = re.compile(r"[0-9]").search


def _has_digit(text: str) -> bool:
    """any(ch.isdigit() for ch in text): in ASCII text the digits are 0-9, found by one regex search."""
    return _ASCII_DIGIT(text) is not None if text.isascii() else any(ch.isdigit() for ch in text)


@dataclass(frozen=True)
class QueryAnalysis:
    text: str  # normalised and typo-corrected, separators kept
    tokens: tuple[Token, ...]
    corrections: tuple[Correction, ...]
    units: tuple[Unit, ...]
    dates: tuple[DateRange, ...]
    concepts: dict[str, str]  # concept -> via (keyword / synonym / fuzzy)
    literals: tuple[str, ...]
    actions: tuple[tuple[str, float], ...]
    vague: tuple[str, ...]
    keys: tuple[str, ...]  # content keys in order (concepts, literals, verbs): for phrases and examples
    extras: tuple[str, ...] = ()  # weaker example features: stop words ("~my"), number shapes ("#num", "#pct")
    segments: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()  # per sentence of several (enriched): keys, extras
    names: tuple[str, ...] = ()  # unknown words written with a capital inside the query: likely a name
    source: str = ""  # the query as written (cleaned, not casefolded): names keep their casing
    source_spans: tuple[tuple[int, int], ...] = ()  # per token, its offsets in `source` ("" / () if unaligned)
    # routing.core.quantities' reading, kept where the analysis needed it (None: not read); a cache of
    # what the text says, so no part of the analysis's value (repr, equality)
    quantities: tuple | None = field(default=None, repr=False, compare=False)
    advice: str = ""  # a how-to question's phrase ("how do i", words.yaml `advice`): its words ask for no tool
    occasions: tuple[DateRange, ...] = ()  # days set aside as when something happens (routing.core.occasions)
    # the other dates said but not asked, each with why: "story" (before the ask), "taken back", "aside" (routing.core.aside)
    untaken: tuple[tuple[DateRange, str], ...] = ()

    def surface_of(self, first: int, last: int) -> str:
        """The query's own text for tokens first..last-1, as the user wrote it ("PT Maju Jaya",
        "Arora Steels" where the router read "steel"), separators kept; the normalised text where
        the two cannot be aligned."""
        if self.source_spans:
            return self.source[self.source_spans[first][0] : self.source_spans[last - 1][1]]
        return self.text[self.tokens[first].start : self.tokens[last - 1].end]

    @property
    def normalized(self) -> str:
        return " ".join(u.surface for u in self.units if u.role != "stop")


def _unknown(index, w: str, correct: bool) -> bool:
    """Whether the word `w` is none the domain knows or reads as another (a name's word: "sharma", "corp")."""
    return w.isalpha() and w not in index.phrase_words and read_word(index, w, correct) == (w, None)


def _capitals(source: str, matches, cased, i: int, first: bool = False) -> bool:
    """Whether the i-th word is written as a name or an acronym in a question not all in capitals: all
    in capitals ("IST"), or with a capital after the question's first word ("statistik Egy Maulana"; or
    as its first word too, with `first`: "Cust Corp ka ledger")."""
    if source.isupper():
        return False
    if cased is None:
        typed = source[matches[i].start() : matches[i].end()]
    elif len(cased) == len(matches):  # the cased words line up with the folded ones
        typed = cased[i][0]
    else:
        return False
    return typed.isupper() or ((i > 0 or first) and typed[:1].isupper())


def read_word(index, w: str, correct: bool) -> tuple[str, tuple[str, float] | None]:
    """How the router reads the word `w`: the word it stands for, and (target, score) when that
    is a typo correction (or a derived form, shown and penalised like one)."""
    if w in index.phrase_words:
        return w, None
    full = index.shorthand.get(w)
    if full is not None:  # "brp" -> berapa: chat shorthand, the word itself (words.yaml `shorthand`)
        return read_word(index, full, correct)
    if is_number(w):
        # "invoice2", "barang2": a term doubled by its language's mark (words.yaml `reduplication`)
        # is that term; any other word with a digit ("jan2", "last2", "top2", "ec2") is a number, a
        # date or an id as before
        # (a suffix may follow the mark: "angka2nya", the numbers; words.yaml `suffixes`)
        core = next((w[: -len(sfx)] for sfx, repl in index.suffixes if not repl and w.endswith(sfx) and len(w) > len(sfx)), w)
        base = core[:-1]
        if core[-1] in index.reduplication and len(base) >= 4 and base.isalpha():
            reading, fix = read_word(index, base, correct)
            entry = index.phrases.get((reading,))
            if fix is None and entry is not None and (entry.concept or entry.vague):
                return reading, None
        return w, None
    lem = index.lemma(w)
    if lem is not None:
        return lem, None
    if w in index.known:
        return w, None
    form = index.stems.known_form(w) if index.stems else None
    if form is not None:  # "transferring" -> "transfer": a form of a word we know, no typo
        reading = index.lemma(form) or form
        if index.past_endings and w.endswith(index.past_endings) and index.asks_only(reading):
            return w, None  # "invoices we issued": the past of a verb that asks states what was done (a stop word: units)
        return reading, None
    typo = correct and not index.is_real_word(w)  # a common word of the languages is never a typo of ours
    # "custs", "prods": a clipped word with its language's ending is that term, before any one-letter typo ("costs")
    fix = next((c for stem, _, repl in index.unsuffixed(w) if not repl and (c := index.clipped(stem)) and not index.is_real_word(stem)), None) if typo else None
    fix = fix or (index.correct(w) if typo else None)
    if fix is None and typo:
        # "invoises" -> "invoise" -> "invoice": an inflected typo, still one typo away
        for stem, suffix, repl in index.unsuffixed(w, MIN_CORRECTABLE_LEN):
            stem_fix = index.correct(stem) if not index.is_real_word(stem) else None  # "tarik(in)" is no "tarif"
            if stem_fix:
                whole = stem_fix[0][: len(stem_fix[0]) - len(repl)] + suffix if repl else stem_fix[0] + suffix
                score = OSA.normalized_similarity(w, whole) * 100
                if score >= fuzzy_cutoff(len(w)):
                    fix = (stem_fix[0], round(score, 1))
                    break
    if fix is None and typo:
        fix = index.abbreviation(w) or index.clipped(w)  # "mnth" -> "month", "cust" -> customer: shown like a typo
    if fix is None and correct and index.stems:
        # "rainy" -> "rain": a derived form, less sure than an inflection: shown and
        # penalised like a typo correction, so it is a weaker signal than the word itself.
        derived = index.stems.derived_form(w)
        if derived is not None:
            fix = (derived, round(OSA.normalized_similarity(w, derived) * 100, 1))
    if fix is None:
        return w, None
    return (fix[0] if fix[0] in index.phrase_words else (index.lemma(fix[0]) or fix[0])), fix


def _tokens(source: str):
    norm = source.casefold()
    # An ASCII text keeps each character in place when casefolded: the cased tokens are the same spans.
    if source.isascii():
        matches = list(ASCII_TOKEN_RE.finditer(norm))
        cased = None
        aligned = True
    else:
        matches = list(TOKEN_RE.finditer(norm))
        cased = token_spans(source)
        aligned = len(cased) == len(matches)
    return norm, matches, cased, aligned, list(map(_group, matches)), list(map(_start, matches)), list(map(_end, matches))


def analyze(index, query: str, *, today: date, correct: bool = True, with_dates: bool = True) -> QueryAnalysis:
    source = clean(query)
    norm, matches, cased, aligned, words, starts, ends = _tokens(source)
    split = slips.joins(index, words, starts, ends, norm) if correct and len(words) > 1 and index.slips.firsts else ()
    if split and len(norm) == len(source):  # "in voice", "pay able": a term split in two is read as one word
        typed = [(i - k, norm[starts[i] : ends[i + 1]]) for k, (i, _) in enumerate(split)]
        for i, _ in reversed(split):
            source = source[: ends[i]] + source[starts[i + 1] :]
        norm, matches, cased, aligned, words, starts, ends = _tokens(source)
    else:
        typed = ()
    n = len(words)

    # Each word's reading, from the per-word caches (a miss is read once, then kept).
    plain, fixed = index.word_readings[correct]
    news = list(map(plain.get, words))
    corrections: list[Correction] = []
    corrected: set[int] = set()
    if None in news:
        for i in [i for i, new in enumerate(news) if new is None]:
            w = words[i]
            hit = fixed.get(w)
            if hit is None:
                new, fix = read_word(index, w, correct)
                if fix is None:
                    news[i] = remember(plain, w, new)
                    continue
                hit = remember(fixed, w, (new, Correction(w, fix[0], fix[1])))
            clip = index.clipped(w)
            if len(w) > 1 and _capitals(source, matches, cased, i, first=clip is not None and hit[1].corrected == clip[0]) \
                    and hit[1].corrected == (index.abbreviation(w) or clip or ("",))[0]:
                news[i] = w  # "IST", "Egy", "Sharma Ent", "Cust Corp": an acronym or a name, no word without its vowels or end
                continue
            if clip is not None and hit[1].corrected == clip[0] and (i > 0 and _unknown(index, words[i - 1], correct) or i + 1 < n and
                    _unknown(index, words[i + 1], correct) and not _capitals(source, matches, cased, i + 1, first=True)):
                news[i] = w  # "Mehta ent", "cust corp": after a word of no lexicon, or before one in lower case, a clipped word is a name's
                continue
            news[i] = hit[0]
            corrections.append(hit[1])
            corrected.add(i)
    for i, pair in typed:
        corrections.append(Correction(pair, news[i], round(OSA.normalized_similarity(pair, words[i]) * 100, 1)))
        corrected.add(i)
    if correct and n > 1:  # "balance sheer", "cash flaw": a word swapped for another inside a term
        for i, word in slips.swapped(index, words, news, corrected, norm, starts, ends):
            news[i] = word
            corrections.append(Correction(words[i], word, round(OSA.normalized_similarity(words[i], word) * 100, 1)))
            corrected.add(i)
    # Rebuild the text with the words read in place, keeping separators ("1-15", "15/03").
    if news == words:
        text, new_starts, new_ends = norm, starts, ends
    else:
        lengths = list(map(len, news))
        new_starts = list(map(add, starts, [0, *accumulate(map(sub, lengths, map(len, words)))]))
        new_ends = list(map(add, new_starts, lengths))
        parts: list[str] = []
        pos = 0
        for i in compress(range(n), map(ne, news, words)):
            parts += (norm[pos : starts[i]], news[i])
            pos = ends[i]
        parts.append(norm[pos:])
        text = "".join(parts)
    tokens = list(map(Token, news, new_starts, new_ends))

    dates = tuple(find_dates(text, today=today, settings=index.date_settings, lexicon=index.date_lexicon)) if n and with_dates else ()
    capital = capital_of(source, starts, cased if aligned else ())
    if dates and index.date_lexicon.standalone_abbreviations:
        typed = (lambda i: "") if not aligned else (lambda i: source[starts[i]:ends[i]]) if cased is None else (lambda i: cased[i][0])
        dates = _no_named_months(dates, index.date_lexicon.standalone_abbreviations, new_starts, new_ends, capital, text, typed)
    if dates and index.domain.words.numbers.currency:  # "for 2000 rupees": an amount, no year
        dates = tuple(d for d in dates if d.rule != "explicit_year" or _next_word(text, d.span[1]) not in index.domain.words.numbers.currency)
    date_at = [_covered(d, new_starts, new_ends) for d in dates]
    framed, dropped, background, why = set_aside(index, words, norm, starts, ends, date_at, capital)
    dropped, framed, days = occasions(dates, date_at, framed, dropped, today, words, norm, starts, ends, index) if len(dates) > 1 else (dropped, framed, ())
    said = index.domain.words.comparison
    if len(dates) > 1 and said and index.domain.settings.comparisons == "aside" and not said.isdisjoint(words) \
            and not index.domain.words.comparison_cues.isdisjoint(words):
        # "November 2025 with the previous month as comparison", where the domain's reports compare by themselves
        earlier = compared(dates, date_at, dropped, words, said)
        if earlier:
            dropped, why, framed = dropped | earlier, {**why, **dict.fromkeys(earlier, "comparison")}, [*framed, *earlier]
    untaken = ()
    if dropped:
        dates, before = tuple(d for d, at in zip(dates, date_at) if at not in dropped), dates
        asked = {(d.start, d.end) for d in dates}  # a range said again in the ask is no range set aside
        untaken = tuple((_as_typed(d, new_starts, new_ends, starts, ends, norm), why[at]) for d, at in zip(before, date_at)
                        if at in why and d.resolved and (d.start, d.end) not in asked)
    in_date = [False] * n
    if dates:
        if text != norm:  # quote a date in the words typed ("last 6 months"), not as corrected ("last 6 month")
            dates = tuple(_as_typed(d, new_starts, new_ends, starts, ends, norm) for d in dates)
        for d in dates:
            lo, hi = _covered(d, new_starts, new_ends)
            in_date[lo:hi] = [True] * max(hi - lo, 0)
        # A range said twice ("... last month ... last month", "last quarter ... pichle quarter") is one range, not two.
        unique: dict = {}
        for d in dates:
            unique.setdefault((d.start, d.end) if d.resolved else (d.text, d.start, d.end), d)
        dates = tuple(unique.values())
    units = group_units(index, tokens, in_date, corrected, text, news)
    if any(ch in text for ch in GLUE):
        units = glued_names(units, tokens, text)
    units = read_by_position(index, words, norm, starts, ends, units, capital, news)  # "bill Acme for ...", "invoice buat CV X"
    numbers = index.domain.words.numbers
    quantities = None  # read here only for a request to write; routing.core.params reads them otherwise
    if (numbers.plus or numbers.percent) and _has_digit(text) and asks_to_write(units):
        # "2 lakh plus GST", "18% GST": the term says what the amount holds, it asks for nothing
        quantities = quantities_in(text, tokens, [d.span for d in dates], numbers)
        held = amount_qualifiers(text, tokens, units, quantities, numbers)
        if held:
            units = [replace(u, role="stop", kinds=()) if ui in held else u for ui, u in enumerate(units)]
    if framed:  # "my lead asked me to": who asked, not what is wanted
        units = [replace(u, role="stop", kinds=()) if u.role not in ("stop", "date") and _inside((u.first, u.last), framed) else u
                 for u in units]
    if background:  # "Accounts payable is a bit behind: could you show me the supplier bills": its terms and verbs are no ask
        units = background_read(units, background, source, norm, starts, ends, cased if aligned else (), index.tool_index)
    advice, units = asked_advice(index, words, norm, starts, ends, units)
    if index.domain.words.done or index.domain.words.done_after:
        units = asked_done(index, words, units)
    keys, extras, segments = split_features(units, tokens, text) if index.segmented else (*unit_features(units, tokens, text), ())
    concepts: dict[str, str] = {}
    literals: list[str] = []
    actions: list[tuple[str, float]] = []
    vague: list[str] = []
    vague_verbs: list[str] = []
    names: list[str] = []
    for u in units:
        role = u.role
        if role == "literal" and not u.told:
            literals.append(u.key)
            # A name, an amount ("2,500,000") or an address: what a search looks for. Capitals are
            # the one language-free sign of a name ("PT Maju Jaya", "Ibu Ratna"); the first word
            # of a sentence does not count.
            if u.last - u.first > 1 or (u.first > 0 and aligned and (source[starts[u.first]] if cased is None else cased[u.first][0][:1]).isupper()):
                names.append(u.surface)
        elif role == "concept":
            prev = concepts.get(u.key)
            if prev is None or (prev == "fuzzy" and u.via != "fuzzy") or (prev == "synonym" and u.via == "keyword"):
                concepts[u.key] = u.via
        elif role == "vague":
            vague.append(u.surface)
        elif role == "action" and _said_vaguely(index, u.surface):
            vague_verbs.append(u.surface)  # "share the details", "a quick overview": a kind of answer, not what of
        if u.kinds:
            actions.extend(u.kinds)
    return QueryAnalysis(
        text=text,
        tokens=tuple(tokens),
        corrections=tuple(corrections),
        source=source if aligned else "",
        source_spans=(tuple(map(_span, matches)) if cased is None else tuple((t[1], t[2]) for t in cased)) if aligned else (),
        units=tuple(units),
        dates=dates,
        concepts=concepts,
        literals=tuple(literals),
        actions=tuple(actions),
        vague=tuple(vague) if names else tuple(vague + vague_verbs),  # a name says what of: "details of Budi"
        names=tuple(names),
        keys=tuple(keys),
        extras=tuple(dict.fromkeys(extras)),
        segments=segments,
        quantities=quantities,
        advice=advice, occasions=days, untaken=untaken,
    )


def asked_done(index, words: list[str], units: list) -> list:
    """`units` with the write a question asks about read as no request (words.yaml `done`: "did we file the GSTR-3B
    for December or is it still pending?" asks whether it was filed): the first verb of a write kind after the
    phrase (stop words between) keeps its term, loses its kinds; `done_after`, a perfective after its verb (Hindi
    "GST kab file kiya?", "invoice bana diya kya?"), the last verb before it."""
    w = index.domain.words
    spans = framing_spans(words, w.done, w.done_anchors) if w.done else []
    after = framing_spans(words, w.done_after, w.done_after_anchors) if w.done_after else []
    if not spans and not after:
        return units
    writes = set(index.domain.settings.weights.explicit_kinds)
    out = list(units)
    said = [j for j, u in enumerate(out) if u.role != "stop"]
    for a, b in spans:
        j = next((j for j in said if out[j].first >= b), None)
        # one word alone ("yang", which) governs the word right after it only: "invoice yang mau saya buat" asks a write
        if j is not None and (b - a > 1 or out[j].first == b):
            _not_asked(out, j, writes)
    for a, _ in after:
        j = next((j for j in reversed(said) if out[j].last <= a), None)
        if j is not None:
            _not_asked(out, j, writes)
    return out


def _not_asked(out: list, j: int, writes: set) -> None:
    """out[j], a verb of a write kind, read as no request: a term keeps its key, a verb becomes a stop word (its key
    no phrase word either: "did we send payment reminders" matches no "send payment reminders")."""
    u = out[j]
    if any(k in writes for k, _ in u.kinds):
        out[j] = replace(u, kinds=()) if u.role == "concept" else replace(u, role="stop", key=u.surface + "?", kinds=())


def _no_named_months(dates, abbreviations, starts: list[int], ends: list[int], capital, text: str, typed) -> tuple:
    """`dates` without a month abbreviation standing alone that begins a name or a code: typed with a capital
    before a word in title case ("customer Dec Trading", "cari kontak Des Wulandari") or glued to a number ("DEC-200")."""
    def named(d) -> bool:
        if d.text.casefold() not in abbreviations:
            return False
        lo, hi = _covered(d, starts, ends)
        if hi != lo + 1:
            return False
        if text[ends[lo]:ends[lo] + 2][:1] in "-/" and text[ends[lo] + 1:ends[lo] + 2].isdigit():
            return True
        # a name's next word is in title case ("Dec Trading"); an acronym after the month says what of it ("Dec GST")
        return capital(lo) and hi < len(starts) and capital(hi) and not typed(hi).isupper()
    return tuple(d for d in dates if not named(d))


def _said_vaguely(index, surface: str) -> bool:
    """Whether a verb's word is also one of the domain's vague words (settings.yaml `vague`: "details",
    "overview"): it names a kind of answer, not what it is about."""
    return any(e is not None and e.vague for e in (index.phrases.get((surface,)), index.phrases.get((index.lemma(surface),))))


def asked_advice(index, words: list[str], norm: str, starts: list[int], ends: list[int], units: list):
    """A how-to question (words.yaml `advice`: "how do I reset my router", "..., kya karu?") asks no tool: its
    phrase must begin a clause (or end it, where the language ends with its verb: "... kaise karu"), the clause
    must hold no verb of the tools (the word next to the phrase no term that is also one) and
    must name fewer than two terms ("how can I print unpaid invoices" is about the invoices). The clause's
    units become stop words, and the other clauses' too unless one asks with a verb ("show overdue
    invoices, how can we collect them faster?" still shows them). Returns the phrase ("" for none), units."""
    if not index.advice:
        return "", units
    asked = framing_spans(words, index.advice, index.domain.words.advice_anchors)
    if not asked:
        return "", units
    a, b = asked[0]
    parts = clauses(norm, starts, ends)
    lo, hi = next(((lo, hi) for lo, hi in parts if lo <= a < hi), (0, len(words)))
    if a == lo:  # "how do I reset my router": the clause after the phrase, its first word no verb of the tools
        inside = [u for u in units if u.first >= b and u.last <= hi and u.role not in ("stop", "date")]
        verb = inside[0] if inside else None
    elif b == hi:  # "mobile ka balance recharge kaise karu": a language that ends with the verb
        inside = [u for u in units if u.first >= lo and u.last <= a and u.role not in ("stop", "date")]
        verb = inside[-1] if inside else None
    else:
        return "", units
    def tools_verb(u) -> bool:  # a verb for a kind of the domain's tools ("pay" is none where no tool pays)
        return any(kind in index.kinds for kind, _ in u.kinds)
    within = [u for u in units if u.first >= a and u.last <= b]  # "GST kaise file karein": the verb inside the phrase
    if (verb is not None and tools_verb(verb)) or sum(u.role == "concept" for u in inside) >= 2 \
            or any(u.role == "action" and tools_verb(u) for u in inside) or any(tools_verb(u) for u in within):
        return "", units
    others_ask = any(u.kinds for u in units if (u.last <= lo or u.first >= hi) and u.role != "stop")
    keep = (lambda u: u.last <= lo or u.first >= hi) if others_ask else (lambda u: False)
    return " ".join(words[a:b]), [u if u.role in ("stop", "date") or keep(u) else replace(u, role="stop", kinds=()) for u in units]


def _next_word(text: str, at: int) -> str:
    """The word right after offset `at` of `text` ("" if none)."""
    m = _NEXT_WORD.match(text, at)
    return m.group(1) if m else ""


_NEXT_WORD = re.compile(r"\s*(\w+)")


def _covered(d: DateRange, starts: list[int], ends: list[int]) -> tuple[int, int]:
    """The tokens a date's span overlaps, as a range lo..hi-1 (tokens are in order, never overlapping)."""
    a, b = d.span
    return bisect_right(ends, a), bisect_left(starts, b)


def _as_typed(d: DateRange, starts: list[int], ends: list[int], raw_starts: list[int], raw_ends: list[int], norm: str) -> DateRange:
    """A date range whose text is the typed words its span covers in the corrected text."""
    lo, hi = _covered(d, starts, ends)
    if lo >= hi:
        return d
    return replace(d, text=norm[raw_starts[lo] : raw_ends[hi - 1]])


RECORD_CODE_JOINS = "/-#_"  # "INV/2026/0019", "SO-2291": a record's letters joined to its number


def record_number(a: QueryAnalysis) -> bool:
    """A number that names a record: right after a term of the lexicon, stop words between ("invoice
    1077", "faktur no 1456", "tagihan nomor 77"), or written as a code of letters joined to it
    right after it ("invoice INV/2026/0019", "order SO-2291"). A count or a price elsewhere ("20 pcs helm @ 350rb")
    names none."""
    return bool(numbered_terms(a, first=True))


def numbered_terms(a: QueryAnalysis, *, first: bool = False, markers: frozenset[str] = frozenset(),
                   amounts: frozenset[int] = frozenset()) -> frozenset[str]:
    """The terms a number names a record of (record_number's reading: "invoice 1077" -> {invoice};
    "invoices of customer 1045" -> {customer}); `first`: stop at the first; `markers` (words.yaml
    `value_markers`): a stop word among them between the term and the number makes it a value
    ("expense of 25000"); `amounts`: the tokens of amounts stated (routing.core.quantities: "NEFT se
    1.1 lakh", "rent 65k") are no record's number."""
    last = None
    marked = False
    found: set[str] = set()
    units = a.units
    for i, u in enumerate(units):
        if u.role == "number" and last is not None and last.role == "concept" and not marked and u.first not in amounts:
            found.add(last.key)
            if first:
                break
        if u.role == "literal" and i and units[i - 1].role == "concept" and _code_prefix(a, u, units[i + 1] if i + 1 < len(units) else None):
            continue  # the code's letters stand between the term and its number
        if u.role != "stop":
            last, marked = u, False
        elif u.key in markers:
            marked = True
    return frozenset(found)


def _code_prefix(a: QueryAnalysis, u, nxt) -> bool:
    """A one-word literal of two or more letters glued by one of RECORD_CODE_JOINS to the number after it
    ("INV-0042"; "H-1", "Q/4" are periods), right after the term it numbers ("invoices for PO-3321" names
    another record)."""
    if nxt is None or nxt.role != "number" or u.last - u.first != 1 or nxt.first != u.last:
        return False
    left, right = a.tokens[u.first], a.tokens[nxt.first]
    return (left.text.isalpha() and len(left.text) >= 2 and right.start - left.end == 1
            and a.text[left.end:right.start] in RECORD_CODE_JOINS)
