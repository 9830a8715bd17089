"""Finding date phrases in text: the lexicon's tables compiled into one pattern per family of expressions, run left to right, longest match first, overlaps dropped."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Callable

from routing.dates.fiscal_parts import fiscal_parts, fiscal_quarters
from routing.dates.halves import halves
from routing.dates.month_days import month_days
from routing.dates.week_of import weeks_of
from routing.dates.folded import case_sensitive
from routing.dates.ranges import _Context
from routing.dates.types import _B, _BLOCKED, _CALENDAR_UNITS, _E, _ROLLING_UNITS, DateRange, DateSettings, _alt, in_code

if TYPE_CHECKING:  # the lexicon mixes these classes in; only its type is needed here
    from routing.dates.lexicon import DateLexicon


_WORD, _ANY_DIGIT = re.compile(r"\w+"), re.compile("[0-9]").search  # a digit by one search, not a scan a digit
_LEAD = re.compile(r"[^0-9]*")
# A numeric date's separators: "2025-01-15", "1/3/2025", "15.03.2025", "2025/01", "03/2025".
_DIGIT_SEP = re.compile(r"[0-9][-/][0-9]|[0-9]\.[0-9]{1,2}\.[0-9]")
_DASH = re.compile(r"[-~]\s*(\w+)")
WORD_KEYS_LIMIT = 20_000  # words whose gate keys are kept (emptied when full)
_NONE: frozenset = frozenset()


@dataclass
class _Family:
    """One compiled pattern and the function that turns a match into a DateRange (or None)."""
    pattern: re.Pattern
    build: Callable
    needs_month: bool = False   # skipped unless the text has a month name (a cheap gate)
    trigger: re.Pattern | None = None   # ...and one of the words this family cannot match without
    # What an ASCII text must hold for this family to match at all, checked from the text's words
    # once (WordGate) rather than by a scan per family: each tuple one of whose keys must be
    # present (a key: a word set's id, or one of WordGate.present's named keys).
    needs: tuple[tuple, ...] = ()
    in_needs: tuple[bool, bool] = (False, False)  # the trigger / the month gate are among the needs

    def __post_init__(self) -> None:
        self.need_sets = tuple(frozenset(keys) for keys in self.needs)  # each need as a set, checked at once
        # The same pattern for a casefolded ASCII text (routing.dates.folded), or the pattern itself.
        self.folded: re.Pattern = case_sensitive(self.pattern) or self.pattern


def _matches_ascii(c: str) -> bool:
    """Whether a character matches an ASCII one, case ignored as the patterns ignore it."""
    pattern = re.compile(re.escape(c), re.IGNORECASE)
    return any(pattern.fullmatch(chr(a)) for a in range(128))


class WordGate:
    """Which of the lexicon's word sets an ASCII text holds, read from its words (\\w+ runs) once,
    so that a family whose words are absent is not scanned: the same matches, fewer scans.

    A word set is added with how its words stand in the patterns that need it, so that the check
    is never stricter than the patterns: "bounded" (a word bounded on both sides: any of its pieces is
    a word of the text; the longest is kept), "lead" (bounded before, maybe glued to digits after:
    "Mar5", "FY2025", "Q3": its first piece is a word's part before its first digit) or "prefix"
    (bounded before only: a word of the text starts with its first piece)."""

    def __init__(self) -> None:
        self.sets: list[tuple[str, frozenset]] = []
        self._ids: dict[tuple[str, frozenset], int] = {}
        # bounded: a word's longest piece -> (all its pieces, set id); lead / prefix: first piece -> set ids
        self._whole: dict[str, list[tuple[frozenset, int]]] = {}
        self._lead: dict[str, set[int]] = {}
        self._prefix: dict[str, set[int]] = {}
        self._prefix3: dict[str, set[str]] = {}  # a prefix piece's first three letters ("" if shorter) -> pieces
        self._span: tuple[frozenset, frozenset, frozenset] | None = None
        self._word_keys: dict[str, tuple[frozenset, tuple]] = {}  # per word of a text: _keys_of()
        self._inert: set[str] = set()  # words seen that give no key

    @staticmethod
    def _pieces(words, kind: str) -> set | None:
        """Per word, all its pieces (kind "bounded": each is a word of any text holding it) or its first."""
        pieces = set()
        for w in words:
            if not w.isascii():
                if any(not _matches_ascii(c) for c in w):
                    continue  # a word no ASCII text can hold ("jum’at")
                return None
            found = _WORD.findall(w.lower())
            if not found:
                return None
            pieces.add(frozenset(found) if kind == "bounded" else found[0])
        return pieces

    def add(self, words, kind: str = "bounded") -> int | None:
        """The id of this word set, or None when a word cannot be checked so (no letter in it)."""
        pieces = self._pieces(words, kind)
        if pieces is None:
            return None
        if kind == "lead" and any(c.isdigit() for p in pieces for c in p):
            kind = "prefix"
        key = (kind, frozenset(pieces))
        if key not in self._ids:
            self._ids[key] = i = len(self.sets)
            self.sets.append(key)
            for piece in pieces:
                if kind == "bounded":
                    self._whole.setdefault(max(sorted(piece), key=len), []).append((piece, i))
                elif kind == "lead":
                    self._lead.setdefault(piece, set()).add(i)
                else:
                    self._prefix.setdefault(piece, set()).add(i)
                    self._prefix3.setdefault(piece[:3] if len(piece) >= 3 else "", set()).add(piece)
        return self._ids[key]

    def add_span(self, to_words, month_words, prefix_words) -> bool:
        """The "span_b" key: a to-word (its last piece) or a dash followed by a word that may start
        a date (a digit, a month glued to digits or not, a word before a day or month number)."""
        to = self._pieces(to_words, "bounded")
        months = self._pieces(month_words, "lead")
        firsts = self._pieces(prefix_words, "lead")
        if to is None or months is None or firsts is None or any(c.isdigit() for p in months | firsts for c in p):
            return False
        to = {_WORD.findall(w.lower())[-1] for w in to_words if w.isascii()}
        self._span = (frozenset(to), frozenset(months), frozenset(firsts))
        return True

    def present(self, text: str) -> set:
        """The keys an ASCII text holds: word set ids; "digit", "digit_sep", "year4", "year4_start",
        "span_b"."""
        lowered = text.lower()
        found = _WORD.findall(lowered)
        tokens = set(found)
        out: set = set()
        cache = self._word_keys
        for t in tokens.difference(self._inert):  # most words give no key: those seen are skipped at once
            keys = cache.get(t)
            if keys is None:
                keys = self._keys_of(t)
            if keys[0]:
                out |= keys[0]
            for pieces, i in keys[1]:  # a word set of several pieces: all of them are words of the text
                if pieces <= tokens:
                    out.add(i)
        if _ANY_DIGIT(lowered) is not None:
            out.add("digit")
            if _DIGIT_SEP.search(lowered):
                out.add("digit_sep")
        if self._span is not None and self._span_b(lowered, found):
            out.add("span_b")
        return out

    def _keys_of(self, t: str) -> tuple[frozenset, tuple]:
        """The keys one word of a text gives (kept per word: a function of the word and the
        gate's sets): (the keys it gives alone, the (pieces, id) of word sets it is one piece of)."""
        out: set = set()
        several = []
        lead = self._lead
        for pieces, i in self._whole.get(t, ()):
            if len(pieces) == 1:
                out.add(i)
            else:
                several.append((pieces, i))
        out |= lead.get(t, _NONE)
        if not t.isalpha():
            head = _LEAD.match(t).group()  # "mar5" -> "mar"
            if head != t and head in lead:
                out |= lead[head]
            if t[0] in "12" and t[:4].isdigit():
                out.add("year4_start")
                if len(t) == 4:
                    out.add("year4")
        for head in (t[:3], ""):  # a prefix piece starts with the word's first three letters, or is shorter
            for piece in self._prefix3.get(head, ()):
                if t.startswith(piece):
                    out |= self._prefix[piece]
        keys = (frozenset(out), tuple(several))
        kept = self._word_keys if out or several else self._inert
        if len(kept) >= WORD_KEYS_LIMIT:
            kept.clear()
        if kept is self._inert:
            self._inert.add(t)
        else:
            self._word_keys[t] = keys
        return keys

    def _span_b(self, lowered: str, found: list[str]) -> bool:
        to, months, firsts = self._span

        def starts_date(u: str) -> bool:
            return u[0].isdigit() or (u if u.isalpha() else _LEAD.match(u).group()) in months or u in firsts

        if any(starts_date(u) for u in _DASH.findall(lowered)):
            return True
        for w in to.intersection(found):  # each place of each to-word: is the next word a date's start?
            i = found.index(w)
            while i + 1 < len(found):
                if starts_date(found[i + 1]):
                    return True
                try:
                    i = found.index(w, i + 1)
                except ValueError:
                    break
        return False


class PhraseFinder:
    """Compiles the date tables into pattern families and finds phrases (mixed into DateLexicon)."""

    # ----------------------------------------------------------------------------------------

    def _compile(self, languages, alone_months: set[str], quarter_letters: list[str],
                 month_modifiers: list[tuple[str, str, list[str]]]) -> None:
        r = self._roles
        flags = re.IGNORECASE
        units_rolling = _alt(w for w, u in self._unit_of.items() if u in _ROLLING_UNITS)
        quarter_list = [w for w, u in self._unit_of.items() if u == "quarter"]
        fiscal_list = [w for w, u in self._unit_of.items() if u == "fiscal_year"]
        quarter_words, fiscal_words = _alt(quarter_list), _alt(fiscal_list)
        number_words = _alt(list(self._number_value) + list(self._scale_value) + list(self._teen_value))
        joiners = _alt(self._joiners)
        one_unit = _alt(self._one_unit_of)
        ordinal_words = _alt(self._ordinal_value)
        ordinal_suffix = _alt(r["ordinal_suffixes"])
        ordinal_prefix = _alt(r["ordinal_prefixes"])
        roman = "(?-i:" + _alt(w.upper() for w in self._roman) + ")"
        month_any = _alt(self._month_of)
        month_alone = _alt(alone_months)
        month_prefix = _alt(r["month_prefixes"])
        day_prefix = _alt(r["day_prefixes"])
        of = _alt(r["day_month_joiners"])
        year_joiners = _alt(r["year_joiners"])

        number = (rf"(?:(?P<digits>\d+)\s*|(?P<words>{number_words}(?:(?:\s+|\s*-\s*)"
                  rf"(?:{joiners}\s+)?{number_words})*)\s+)")
        quantity = rf"(?:{number}(?P<unit>{units_rolling})|(?P<oneunit>{one_unit}))"
        # "last year" / "tahun lalu" per language, factored (modifiers x year words) for speed;
        # every phrase it matches is a key of _year_phrase_of.
        rel_parts = []
        for _, position, unit_words, modifier_words, _ in languages:
            mods = _alt(w for ws in modifier_words.values() for w in ws)
            year_alt = _alt(unit_words.get("year", []))
            if modifier_words and unit_words.get("year"):
                rel_parts.append(rf"{mods}\s+{year_alt}" if position == "before" else rf"{year_alt}\s+{mods}")
        rel_year = "(?:" + "|".join(rel_parts) + ")" if rel_parts else _alt([])
        year_words = [w for w, u in self._unit_of.items() if u == "year"]
        # A year after a quarter or month: "Q3 2016", "Q4 of last year", "kuartal 4 tahun lalu".
        year_suffix = (rf"(?:(?:\s*[-/,]\s*|\s+(?:{year_joiners}\s+)?)(?P<qy>[12]\d{{3}})(?!\d)"
                       rf"|(?:\s*,\s*|\s+(?:{year_joiners}\s+)?)(?P<ry>{rel_year}))?")
        quarter_number = (rf"(?:(?P<qd>\d+)|(?P<qr>{roman})|(?P<qo>{ordinal_words}))")

        families: list[_Family] = []
        wgate = self._word_gate = WordGate()
        month_set = wgate.add(self._month_of, "lead")
        month_lead = ("lead", self._month_of)

        def add(body: str, build: Callable, needs_month: bool = False, trigger=None, needs=()) -> None:
            """`trigger`: words one of which the text must hold (checked by a regex, or on ASCII
            texts by the word gate); `needs`: what else an ASCII text must hold, each a list of
            alternatives (a word collection standing alone in the body, or (kind, words): WordGate;
            or a key of WordGate.present), read from the body."""
            gate = re.compile(_B + _alt(trigger) + _E, flags) if trigger else None
            keys = []
            for alternatives in (*needs, [trigger] if trigger else None, [month_lead] if needs_month else None):
                ids = [a if isinstance(a, str) else wgate.add(a[1], a[0]) if isinstance(a, tuple) else wgate.add(a)
                       for a in alternatives or ()]
                if ids and None not in ids:
                    keys.append(tuple(ids))
            in_keys = (trigger is None or wgate.add(trigger) is not None, not needs_month or month_set is not None)
            families.append(_Family(re.compile(_B + body + _E, flags), build, needs_month, gate, tuple(keys), in_keys))

        add(rf"(?P<phrase>{_alt(self._phrase_rule)})", self._build_phrase, needs=[[self._phrase_rule]])
        for code, position, unit_words, modifier_words, single in languages:
            cal_list = [w for u, ws in unit_words.items() if u in _CALENDAR_UNITS for w in ws]
            roll_list = [w for u, ws in unit_words.items() if u in _ROLLING_UNITS for w in ws]
            mod_list = [w for ws in modifier_words.values() for w in ws]
            cal_units, roll_units, mod = _alt(cal_list), _alt(roll_list), _alt(mod_list)
            if modifier_words and unit_words:
                if position == "before":
                    body = rf"(?P<mod>{mod})\s+(?P<unit>{cal_units})"
                else:
                    body = rf"(?P<unit>{cal_units})\s+(?P<mod>{mod})"
                add(body, self._relative_builder(code), needs=[[mod_list], [cal_list]])
            if single and unit_words:
                single_alt = _alt(single)
                if position == "before":
                    body = rf"(?P<single>{single_alt})\s+(?P<unit>{roll_units})"
                else:
                    body = rf"(?P<unit>{roll_units})\s+(?P<single>{single_alt})"
                add(body, self._build_single, needs=[[single], [roll_list]])
        add(rf"(?P<fiscal>{fiscal_words})", self._build_fiscal_alone, needs=[[fiscal_list]])
        add(rf"(?P<before>{_alt(r['before_number'])})\s+{quantity}", self._build_rolling, needs=[[r['before_number']]])
        add(rf"{quantity}\s+(?P<after>{_alt(r['after_unit'])})", self._build_rolling, needs=[[r['after_unit']]])
        add(rf"(?P<nbefore>{_alt(r['next_before_number'])})\s+{quantity}", self._build_rolling,
            needs=[[r['next_before_number']]])
        add(rf"{quantity}\s+(?P<nafter>{_alt(r['next_after_unit'])})", self._build_rolling, needs=[[r['next_after_unit']]])

        # Weekdays: "next friday", "Jumat lalu", "on Tuesday", "hari Selasa", "friday".
        for code, position, day_words, prefixes in self._weekday_langs:
            wdays = _alt(day_words)
            own_mods = self._modifier_of.get(code, {})
            if own_mods:
                mod = _alt(own_mods)
                body = (rf"(?:{_alt(prefixes)}\s+)?(?P<wmod>{mod})\s+(?P<wday>{wdays})" if position == "before" and prefixes
                        else rf"(?P<wmod>{mod})\s+(?P<wday>{wdays})" if position == "before"
                        else rf"(?:(?:{_alt(prefixes)})\s+)?(?P<wday>{wdays})\s+(?P<wmod>{mod})" if prefixes
                        else rf"(?P<wday>{wdays})\s+(?P<wmod>{mod})")
                add(body, self._weekday_builder(code), needs=[[own_mods], [day_words]])
            lead = rf"(?:(?:{_alt(prefixes)})\s+)?" if prefixes else ""
            add(rf"{lead}(?P<wday>{wdays})", self._weekday_builder(code), needs=[[day_words]])

        # Quarters: "Q1", "Q3 2016", "kuartal ke-2", "triwulan II 2025", "third quarter of 2016", "2019-Q1"
        add(rf"(?P<ql>{_alt(quarter_letters)})\s?(?P<qd>\d+){year_suffix}", self._build_quarter,
            needs=[[("lead", quarter_letters)], ["digit"]])
        add(rf"(?P<qw>{quarter_words})\s*(?:{ordinal_prefix}\s*)?{quarter_number}{year_suffix}",
            self._build_quarter, needs=[[("prefix", quarter_list)]])
        add(rf"(?:(?P<qo>{ordinal_words})|(?P<qd>\d)(?:{ordinal_suffix}))\s+(?P<qw>{quarter_words}){year_suffix}",
            self._build_quarter, needs=[[quarter_list]])
        add(rf"(?P<qy>[12]\d{{3}})\s*[-/]?\s*{_alt(quarter_letters)}\s?(?P<qd>\d)", self._build_quarter, needs=[["year4_start"]])

        # Fiscal years named by their start year: "FY2025", "FY 2025-26", "tahun fiskal 2025"
        add(rf"(?P<fiscal>{fiscal_words})\s*'?(?P<fy>\d{{4}}|\d{{2}})(?!\d)"
            rf"(?:\s*[-/]\s*(?P<fy2>\d{{4}}|\d{{2}})(?!\d))?", self._build_fiscal_year, needs=[[("lead", fiscal_list)], ["digit"]])

        # A bare year in date context ("in 2025", "tahun 2025"), not a quarter's ("during 2017 Q1" is the quarter)
        add(rf"(?P<yc>{_alt(r['year_context'])})\s+(?P<y>[12]\d{{3}})(?![-/.]\d)"
            rf"(?!\s*[-/]?\s*{_alt(quarter_letters)}\s?\d)", self._build_year, needs=[[r['year_context']], ["year4"]])
        # A year typed alone as a keyword ("total sales 2025"), glued to no code, amount or number (readings._build_bare_year)
        add(r"(?<![$€£¥₹\x23@&/.,:-])(?P<by>[12]\d{3})(?![-/.,:]?\d|[-/.:][\w-]|%|\s*[-/]?\s*" + _alt(quarter_letters) + r"\s?\d|\s+(?![12]\d{3}(?!\d))\d)", self._build_bare_year, needs=[["year4"]])

        def atom(p: str, *, in_span: bool) -> str:
            # A day number is not an amount: not after a currency sign or inside "6,107.31".
            day = lambda n: (rf"(?:{day_prefix}\s+)?(?<![$€£¥₹.,])(?<![$€£¥₹]\s)"
                             rf"(?P<{p}d{n}>\d{{1,2}})(?!\d)(?:{ordinal_suffix})?")
            month = lambda n, words: rf"(?:{month_prefix}\s+)?(?P<{p}m{n}>{words})\.?"
            year = lambda n: rf"(?P<{p}y{n}>\d{{4}})(?!\d)"
            sep_dm = rf"(?:\s*[-/]\s*|\s+(?:{of}\s+)?|\.\s*)"
            sep_y = r"(?:\s*[-/,]\s*|\s+)"
            sep_my = rf"(?:\s*[-/,]\s*|\s+(?:{of}\s+)?)"
            alternatives = [
                rf"(?P<{p}y0>\d{{4}})-(?P<{p}n0>\d{{1,2}})-(?P<{p}d0>\d{{1,2}})(?!\d)",
                rf"(?P<{p}d1>\d{{1,2}})(?P<{p}s1>[/.-])(?P<{p}n1>\d{{1,2}})(?P={p}s1)(?P<{p}y1>\d{{4}})(?!\d)",
                rf"{day(2)}{sep_dm}{month(2, month_any)}(?:{sep_y}{year(2)})?",
                rf"{month(3, month_any)}\s*[-/]?\s*{day(3)}(?:{sep_y}{year(3)})?",
                rf"{month(4, month_any)}{sep_my}{year(4)}",
                rf"{month(11, month_any)}\s*['’](?P<{p}y11>\d{{2}})(?!\d)",  # "Dec'25": a year of this century
                rf"{year(5)}(?:\s*[-/,]\s*|\s+){month(5, month_any)}",
                rf"(?P<{p}y6>\d{{4}})[-/](?P<{p}n6>\d{{1,2}})(?![\d/-])",
                rf"(?P<{p}n7>\d{{1,2}})/(?P<{p}y7>\d{{4}})(?!\d)",
                month(8, month_any if in_span else month_alone),
            ]
            if in_span:
                alternatives += [day(9), rf"(?P<{p}y10>[12]\d{{3}})(?!\d)"]
            return "(?:" + "|".join(alternatives) + ")"

        add(atom("a", in_span=False), self._build_explicit, needs=[[month_lead, "digit_sep"]])

        # A month (or a day of it) with a year, a relative year, or neither, for the families below.
        day_tok = (rf"(?:{day_prefix}\s+)?(?<![$€£¥₹.,])(?P<md>\d{{1,2}})(?!\d)(?:{ordinal_suffix})?"
                   rf"(?:\s*[-/]\s*|\s+(?:{of}\s+)?|\.\s*)")
        month_tok = lambda words: rf"(?:{month_prefix}\s+)?(?P<mm>{words})\.?"
        month_year = (rf"(?:(?:\s*[-/,]\s*|\s+(?:{of}\s+)?)(?P<my>[12]\d{{3}})(?!\d)"
                      rf"|(?:\s*,\s*|\s+(?:{year_joiners}\s+)?)(?P<ry>{rel_year}))")
        # "March last year", "15 Maret tahun lalu", "March of this year"
        add(rf"(?:{day_tok})?{month_tok(month_any)}(?:\s*,\s*|\s+(?:{year_joiners}\s+)?)(?P<ry>{rel_year})",
            self._build_month_of_year, needs_month=True, trigger=year_words)
        # The relative year first: "last year Q4", "pichle saal ka Q4", "pichle saal ka March"
        lead_year = rf"(?P<ry>{rel_year})(?:\s+{_alt(r['year_genitives'])})?\s+"
        add(rf"{lead_year}(?:{_alt(quarter_letters)}\s?|{quarter_words}\s*(?:{ordinal_prefix}\s*)?){quarter_number}",
            self._build_quarter, trigger=year_words, needs=[[("prefix", [*quarter_letters, *quarter_list])]])
        add(rf"{lead_year}{month_tok(month_any)}", self._build_month_of_year, needs_month=True, trigger=year_words)
        # "last March", "next March", "Maret lalu", "15 Maret lalu" (not before a year or day number).
        # After last/next an abbreviation or "may" is a month too ("last May"); after "this" it is
        # not ("this may take a while").
        for code, position, words in month_modifiers:
            own = self._month_modifier_of[code]
            for mods, months in ((("this",), month_alone), (("last", "next"), month_any)):
                mmod_words = [w for w in words if own[w] in mods]
                mmod = _alt(mmod_words)
                if not any(own[w] in mods for w in words):
                    continue
                if position == "before":
                    body = rf"(?P<mmod>{mmod})\s+{month_tok(months)}(?!\s*[-/,]?\s*\d)"
                else:
                    body = rf"(?:{day_tok})?{month_tok(months)}\s+(?P<mmod>{mmod})"
                add(body, self._month_modifier_builder(code), needs_month=True, trigger=mmod_words)
        # "since March", "sejak Maret 2025", "since 15 March", "March se ab tak"
        since_tail = rf"(?:{day_tok})?{month_tok(month_any)}{month_year}?"
        for key, words in (("since_before", r["since_before"]), ("since_after", r["since_after"] | r["since_within"])):
            if words:  # within: "January so far", read by _build_since
                body = (rf"(?P<sw>{_alt(words)})\s+{since_tail}" if key == "since_before"
                        else rf"{since_tail}\s+(?P<sw>{_alt(words)})")
                add(body, self._build_since, needs_month=True, trigger=words)
        # "first week of January", "minggu pertama bulan Januari"
        for code, position, unit_words, _, _ in languages:
            week = _alt(unit_words.get("week", []))
            nth = (rf"(?:(?P<wo>{ordinal_words})|{ordinal_prefix}\s*(?P<wd>\d)|(?P<wx>\d)(?:{ordinal_suffix}))")
            lead = rf"{nth}\s+(?P<wu>{week})" if position == "before" else rf"(?P<wu>{week})\s+{nth}"
            if unit_words.get("week"):
                add(rf"{lead}\s+(?:{of}\s+)?{month_tok(month_any)}{month_year}?", self._build_week_of_month,
                    needs_month=True, trigger=unit_words["week"])
        # Parts of a month not resolved here ("mid-January", "awal Maret"): matched only so that the
        # month is not read as the whole month; never reported.
        add(rf"(?P<part>{_alt(r['month_parts'])})(?:\s*-\s*|\s+)(?:{of}\s+)?{month_tok(month_any)}"
            rf"{month_year}?", self._build_blocked, needs_month=True, trigger=r['month_parts'])
        dash = r"\s*[-–~]\s*"
        add(rf"(?:(?P<from>{_alt(r['from'] | r['between'])})\s+)?{atom('a', in_span=True)}"
            rf"(?:{dash}|\s+(?:{_alt(r['to'])})\s+){atom('b', in_span=True)}"
            rf"(?:\s+(?:{_alt(r['end'])}))?", self._build_span,
            needs=[["span_b"]] if wgate.add_span(r['to'], self._month_of, r['day_prefixes'] | r['month_prefixes']) else [])
        add(rf"(?P<from>{_alt(r['between'])})\s+{atom('a', in_span=True)}"
            rf"(?:{dash}|\s+(?:{_alt(r['and'])})\s+){atom('b', in_span=True)}", self._build_span, needs=[[r['between']]])

        self._families = families
        # Per key, the families whose first need it meets: a text's keys name the families to check.
        self._by_key: dict = {}
        for order, fam in enumerate(families):
            for key in fam.need_sets[0] if fam.need_sets else ():
                self._by_key.setdefault(key, set()).add(order)
        self._always = frozenset(order for order, fam in enumerate(families) if not fam.need_sets)
        self._need_keys = frozenset(self._by_key)
        self._atom_groups = {
            pattern: {p: self._group_index(pattern, p) for p in ("a", "b")} for fam in families for pattern in (fam.pattern, fam.folded)
        }
        # Cheap gate: no digit and no anchor word means no date; most queries stop here.
        anchors = (set(self._unit_of) | set(self._one_unit_of) | set(self._month_of)
                   | set(self._phrase_rule) | set(self._weekday_of))  # every family needs a digit, a unit, a month or a phrase
        self._gate = re.compile(rf"\d|{_B}{_alt(anchors)}{_E}", flags)
        self._month_gate = re.compile(rf"{_B}{month_any}", flags)
        self._anchor_set = wgate.add(anchors)

    @staticmethod
    def _group_index(pattern: re.Pattern, prefix: str) -> dict[str, list[str]]:
        fields: dict[str, list[str]] = {"d": [], "m": [], "n": [], "y": []}
        for name in pattern.groupindex:
            if len(name) >= 3 and name[0] == prefix and name[1] in fields and name[2:].isdigit():
                fields[name[1]].append(name)
        return fields

    # ----------------------------------------------------------------------------------------
    # Finding

    @staticmethod
    def _holds(present: set, need_sets: tuple[frozenset, ...]) -> bool:
        """Whether the text holds one key of each of a family's needs."""
        for keys in need_sets:
            if present.isdisjoint(keys):
                return False
        return True

    def find(self, text: str, today: date, settings: DateSettings, *, word_gate: bool = True) -> list[DateRange]:
        found = self._find(text, today, settings, word_gate=word_gate)
        if self.halves_pattern is not None and text:
            found = halves(found, text, today, settings, self.halves_pattern, self.half_of, self.half_joiners, self.half_blockers)
        return month_days(found, text, today, self.month_days_pattern, lambda s: self._find(s, today, settings))

    def _find(self, text: str, today: date, settings: DateSettings, *, word_gate: bool = True) -> list[DateRange]:
        if not text:
            return []
        # An ASCII text: each family's needs read from its words once (WordGate); any other
        # text (or word_gate=False: the same answers, the test's reference): the regex gates.
        present = self._word_gate.present(text) if word_gate and text.isascii() else None
        if present is not None and self._anchor_set is not None:
            if "digit" not in present and self._anchor_set not in present:
                return []
        elif not self._gate.search(text):
            return []
        ctx = _Context(self, text, today, settings)
        folded = present is not None and text.lower() == text  # ASCII, no capital: the case-sensitive patterns
        candidates: list[tuple[int, int, int, DateRange]] = []
        has_month = None
        families = self._families
        if present is not None:
            orders = self._always.union(*[self._by_key[k] for k in present.intersection(self._need_keys)])
            families = [(order, families[order]) for order in sorted(orders)]
        for order, fam in (families if present is not None else enumerate(families)):
            if present is not None:
                if not self._holds(present, fam.need_sets):
                    continue
                trigger_checked, month_checked = fam.in_needs
            else:
                trigger_checked = month_checked = False
            if fam.needs_month and not month_checked:
                if has_month is None:
                    has_month = self._month_gate.search(text) is not None
                if not has_month:
                    continue
            if not trigger_checked and fam.trigger is not None and fam.trigger.search(text) is None:
                continue
            for m in (fam.folded if folded else fam.pattern).finditer(text):
                try:
                    found = fam.build(ctx, m)
                except (OverflowError, ValueError):
                    # Only at the calendar's edges (years 1 and 9999): a date that does not exist.
                    found = ctx.unresolved(m, "out_of_calendar", self.message(
                        "after_calendar" if today.year > 5000 else "before_calendar", text=m.group(0)))
                if found is not None and not (found is not _BLOCKED and (not found.resolved or found.start.year < 1000)  # "INV/2026/01/0058"
                                              and in_code(text, m.start())):
                    candidates.append((m.start(), m.end(), order, found))
        if not candidates:
            return []
        # Blocked parts first; then longest first; among equals the earlier, then the one found by
        # the earlier family.
        candidates.sort(key=lambda c: (c[3] is not _BLOCKED, c[0] - c[1], c[0], c[2]))
        taken: list[tuple[int, int, DateRange]] = []
        for start, end, _, found in candidates:
            if all(end <= s or start >= e for s, e, _ in taken):
                taken.append((start, end, found))
        taken.sort(key=lambda t: t[0])
        return weeks_of(fiscal_quarters(fiscal_parts([f for _, _, f in taken if f is not _BLOCKED], text, today, self._roles), today, settings), text, today, settings, self.week_of)


def find_dates(text: str, *, today: date, settings: DateSettings = DateSettings(),
               lexicon: DateLexicon) -> list[DateRange]:
    """Every date expression in `text`, left to right, non-overlapping, longest match first."""
    return lexicon.find(text, today, settings) if isinstance(text, str) else []


def resolve_expression(text: str, *, today: date, settings: DateSettings = DateSettings(),
                       lexicon: DateLexicon) -> list[DateRange]:
    """The `dates` command: the same as find_dates, on an expression rather than a query."""
    return find_dates(text, today=today, settings=settings, lexicon=lexicon)
