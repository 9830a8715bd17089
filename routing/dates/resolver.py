"""Find date expressions in a query and resolve them to inclusive date ranges.

The rules are those of CONTRACT.md, "Date rules": calendar words use calendar boundaries
("last week" = the whole previous week), a stated duration uses a rolling window that ends
today ("last 7 days" = today and the 6 days before it). Every surface word (month names,
number words, units, this/last/next, ...) comes from ``lexicons/_shared/dates.yaml``; this module
holds only the grammar (which roles combine, in which order) and the calendar arithmetic, so a
new language is a YAML block, not code.

Conventions chosen here (each also pinned by a test):

- "past week" / "minggu terakhir" (no number) is a rolling window of one unit, like "past 7 days";
  "last week" / "minggu lalu" is the previous calendar week. "last 1 week" states a number, so it
  is rolling too.
- "N days ago" / "N hari yang lalu" is the rolling window (CONTRACT), not the single day N days back.
- "this weekend" is the Saturday-Sunday pair of today's Monday-to-Sunday week, whole, even when it
  is still ahead, whatever the domain's week start (on Sunday 2026-01-25 it is 24-25 January, also
  with weeks starting on Sunday); "last weekend" the pair one week earlier, "next weekend" later.
- Q1..Q4 without a year are the calendar quarters of today's year, whole, even when the quarter is
  still ahead (CONTRACT: "Q1" at 2026-01-22 is 2026-01-01..2026-03-31). Quarters are calendar
  quarters whatever the fiscal year; "this quarter" is quarter start..today.
- A quarter or month followed by a relative year is that quarter or month of that year, one range:
  "Q4 last year" / "kuartal 4 tahun lalu" / "Q4 of last year" = Q4 of today's year - 1,
  "March next year" = March of today's year + 1 ("15 March last year" is that day).
- A fiscal year label "FY2025" / "FY25" / "tahun fiskal 2025" names the year it starts in by default
  (DateSettings.fiscal_year_label "start": with an April start, 2025-04-01..2026-03-31) or, with
  "end" (Indian usage), the year it ends in (2024-04-01..2025-03-31). A two-year label "FY 2024-25"
  always names the year that starts in its first year. With a January start both agree.
  "FY" / "this fiscal year" is fiscal year start..today.
- A month named without a year is that month of this year, whole (also the current month), or of
  last year when it has not begun yet. A day without a year ("15 Maret") is the most recent such
  day that is not after today. The same choice is made for the start of a span without a year.
- this / last / next before a month name (after it in Indonesian: "Maret lalu"), whole months:
  "this March" = March of today's year; "last March" = the latest March before the current month
  (this year's if March is before today's month, else last year's, so on 22 January 2026 "last
  January" is January 2025); "next March" = the first March after the current month. "since
  March" / "sejak Maret" = 1 March of the latest March that has begun (as for a bare month) ..
  today, rule since_month.
- "first week of January" / "minggu pertama Januari" = days 1-7 of that month (week n = days
  7n-6..7n, cut at the month's end), the month's year chosen as for a bare month. Other parts of a
  month ("mid-January", "end of March", "awal Maret") are not resolved: the whole phrase is left
  unmatched rather than read as the whole month.
- A lone day that takes the other end's month ("15-1 Januari", "Januari 15-1") must not run
  backwards: such a span is unresolved (it is not read as crossing the new year).
- Explicit spans include both ends ("from March to May" ends 31 May).
- Arithmetic that runs past 0001-01-01 or 9999-12-31 is clamped with a note; a range that lies
  wholly outside, and impossible dates ("32 Januari", "Q5", "last 0 days"), come back unresolved
  with a reason. Nothing here raises on odd input, and nothing reads the clock.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Callable, Iterable

import yaml

from routing.core.yamlio import LineDict, load_with_lines

__all__ = [
    "DateLexicon",
    "DateRange",
    "DateSettings",
    "DEFAULT_LEXICON_PATH",
    "find_dates",
    "load_date_lexicon",
    "resolve_expression",
]

DEFAULT_LEXICON_PATH = Path(__file__).resolve().parents[2] / "lexicons" / "_shared" / "dates.yaml"

CALENDAR = "calendar"
ROLLING = "rolling"

_ROLLING_UNITS = ("day", "week", "month", "quarter", "year")
_CALENDAR_UNITS = ("week", "month", "quarter", "year", "weekend", "fiscal_year")
_UNIT_KEYS = ("day", "week", "month", "quarter", "year", "weekend", "fiscal_year")
_PHRASE_RULES = ("today", "yesterday", "tomorrow", "ytd", "mtd", "since_month_start", "qtd")
_MODIFIERS = ("this", "last", "next")
# The sections a language block may have (see the header of dates.yaml).
_LANGUAGE_SECTIONS = (
    "modifier_position", "phrases", "units", "one_unit", "modifiers", "rolling", "numbers",
    "ordinals", "ordinal_suffixes", "ordinal_prefixes", "months", "months_needing_context",
    "month_prefixes", "day_prefixes", "day_month_joiners", "year_context", "year_joiners", "spans",
    "month_modifiers", "since_month", "month_parts", "year_genitives",
)
_SPAN_KEYS = ("from", "to", "between", "and", "end")
_MESSAGE_KEYS = (
    "bad_day", "bad_day_in_year", "bad_month", "bad_quarter", "empty_window", "year_zero",
    "before_calendar", "after_calendar", "clamped_start", "clamped_end", "end_before_start",
    "bad_fiscal_label", "bad_week_of_month",
)
_MAX_ORDINAL = date.max.toordinal()
# Numbers longer than this are only ever "too far back"; int() of a huge digit string is slow.
_MAX_DIGITS = 9

_B = r"(?<!\w)"   # start of a word
_E = r"(?!\w)"    # end of a word


# --------------------------------------------------------------------------------------------
# Public result types


@dataclass(frozen=True)
class DateSettings:
    week_start: int = 0               # 0 = Monday ... 6 = Sunday
    fiscal_year_start_month: int = 1  # 4 = April (India), 1 = January (Indonesia)
    fiscal_year_label: str = "start"  # "FY2025" names the year it starts in ("start") or ends in ("end")


@dataclass(frozen=True)
class DateRange:
    text: str
    start: date | None
    end: date | None
    kind: str
    rule: str
    span: tuple[int, int]
    note: str | None = None
    reason: str | None = None

    @property
    def resolved(self) -> bool:
        return self.start is not None and self.end is not None

    def to_dict(self) -> dict:
        out: dict = {
            "text": self.text,
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "kind": self.kind,
            "rule": self.rule,
            "span": [self.span[0], self.span[1]],
        }
        if self.note is not None:
            out["note"] = self.note
        if self.reason is not None:
            out["reason"] = self.reason
        return out


# --------------------------------------------------------------------------------------------
# YAML loading with line numbers, so a malformed lexicon names file and line


# The project's line-aware loader (routing.yamlio): mappings and sequences remember their lines.
_Map = LineDict


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


class _Reader:
    """Validates the YAML shapes and turns problems into ValueError("file:line: problem")."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, line: int, problem: str) -> None:
        raise ValueError(f"{self.path}:{line}: {problem}")

    def mapping(self, parent: _Map, key, where: str) -> _Map:
        value = parent.get(key)
        if value is None:
            return _Map()
        if not isinstance(value, dict):
            self.fail(parent.key_lines.get(key, parent.line), f"{where}: expected a mapping")
        return value

    def words(self, parent: _Map, key, where: str) -> list[str]:
        """A list of words (a single string is accepted as a one-word list)."""
        value = parent.get(key)
        line = parent.key_lines.get(key, parent.line) if isinstance(parent, _Map) else 0
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.fail(line, f"{where}: expected a list of words")
        out = []
        lines = getattr(value, "item_lines", [line] * len(value))
        for item, item_line in zip(value, lines):
            if not isinstance(item, str) or not item.strip():
                self.fail(item_line, f"{where}: {item!r} is not a word (quote it if YAML read it "
                                     f"as a number or yes/no)")
            out.append(_norm(item))
        return out

    def valued(self, parent: _Map, key, where: str) -> dict[str, int]:
        value = self.mapping(parent, key, where)
        out = {}
        for word, number in value.items():
            line = value.key_lines.get(word, value.line)
            if not isinstance(word, str) or not word.strip():
                self.fail(line, f"{where}: {word!r} is not a word")
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                self.fail(line, f"{where}: the value of {word!r} must be a whole number")
            out[_norm(word)] = number
        return out


# --------------------------------------------------------------------------------------------
# Regex building blocks


def _alt(words: Iterable[str]) -> str:
    """A non-capturing alternation of words, longest first; inner spaces match any whitespace."""
    unique = sorted(set(words), key=lambda w: (-len(w), w))
    if not unique:
        return r"(?!x)x"  # matches nothing
    parts = [r"\s+".join(re.escape(piece) for piece in w.split()) for w in unique]
    return "(?:" + "|".join(parts) + ")"


def _put(table: dict, word: str, value, reader: _Reader, line: int, what: str) -> None:
    old = table.get(word)
    if old is not None and old != value:
        reader.fail(line, f"{what} {word!r} means both {old!r} and {value!r}")
    table[word] = value


# What a blocking family returns: it takes its span from the others and is never reported.
_BLOCKED = object()


@dataclass
class _Family:
    """One compiled pattern and the function that turns a match into a DateRange (or None)."""
    pattern: re.Pattern
    build: Callable
    needs_month: bool = False   # skipped unless the text has a month name (a cheap gate)
    trigger: re.Pattern | None = None   # ...and one of the words this family cannot match without


class DateLexicon:
    """Date words of every language, compiled once into the patterns find_dates runs."""

    def __init__(self, data: _Map, path: Path):
        reader = _Reader(path)
        self.path = path
        if not isinstance(data, dict):
            reader.fail(1, "expected a mapping of language blocks")
        shared = reader.mapping(data, "shared", "shared")
        self._messages = {key: str(val) for key, val in reader.mapping(
            shared, "messages", "shared.messages").items()}
        for key in _MESSAGE_KEYS:
            self._messages.setdefault(key, key + ": {text}")
        quarter_letters = reader.words(shared, "quarter_letters", "shared.quarter_letters")
        self._roman = reader.valued(shared, "roman_numerals", "shared.roman_numerals")
        self._vocabulary: set[str] = set(quarter_letters) | set(self._roman)

        self._phrase_rule: dict[str, str] = {}
        self._unit_of: dict[str, str] = {}
        self._one_unit_of: dict[str, str] = {}
        self._modifier_of: dict[str, dict[str, str]] = {}    # language -> word -> this/last/next
        self._number_value: dict[str, int] = {}
        self._scale_value: dict[str, int] = {}
        self._teen_value: dict[str, int] = {}
        self._joiners: set[str] = set()
        self._ordinal_value: dict[str, int] = {}
        self._month_of: dict[str, int] = {}
        self._month_modifier_of: dict[str, dict[str, str]] = {}  # language -> word -> this/last/next
        self._year_phrase_of: dict[str, str] = {}                 # "last year", "tahun lalu" -> last
        month_modifiers: list[tuple[str, str, list[str]]] = []    # (language, position, words)
        alone_months: set[str] = set()
        context_months: set[str] = set()
        roles: dict[str, set[str]] = {name: set() for name in (
            "ordinal_suffixes", "ordinal_prefixes", "month_prefixes", "day_prefixes",
            "day_month_joiners", "year_context", "year_joiners", "month_parts", "year_genitives", "since_before",
            "since_after", *_SPAN_KEYS, "before_number", "after_unit", "next_before_number", "next_after_unit")}
        languages: list[tuple[str, str, dict[str, list[str]], dict[str, list[str]], list[str]]] = []

        for code, block in data.items():
            if code == "shared":
                continue
            line = data.key_lines.get(code, 1)
            if not isinstance(code, str) or not isinstance(block, dict):
                reader.fail(line, f"language block {code!r} must be a mapping")
            where = str(code)
            for key in block:
                if key not in _LANGUAGE_SECTIONS:
                    reader.fail(block.key_lines.get(key, block.line),
                                f"{where}: unknown section {key!r} (known: {', '.join(_LANGUAGE_SECTIONS)})")
            position = block.get("modifier_position", "before")
            if position not in ("before", "after"):
                reader.fail(block.key_lines.get("modifier_position", block.line),
                            f"{where}.modifier_position must be 'before' or 'after'")

            phrases = reader.mapping(block, "phrases", f"{where}.phrases")
            for rule, _ in phrases.items():
                if rule not in _PHRASE_RULES:
                    reader.fail(phrases.key_lines.get(rule, phrases.line),
                                f"{where}.phrases: unknown rule {rule!r} (known: {', '.join(_PHRASE_RULES)})")
                for word in reader.words(phrases, rule, f"{where}.phrases.{rule}"):
                    _put(self._phrase_rule, word, rule, reader, phrases.key_lines[rule], "phrase")

            units = reader.mapping(block, "units", f"{where}.units")
            unit_words: dict[str, list[str]] = {}
            for unit in units:
                if unit not in _UNIT_KEYS:
                    reader.fail(units.key_lines.get(unit, units.line),
                                f"{where}.units: unknown unit {unit!r} (known: {', '.join(_UNIT_KEYS)})")
                unit_words[unit] = reader.words(units, unit, f"{where}.units.{unit}")
                for word in unit_words[unit]:
                    _put(self._unit_of, word, unit, reader, units.key_lines[unit], "unit word")

            one_unit = reader.mapping(block, "one_unit", f"{where}.one_unit")
            for unit in one_unit:
                if unit not in _ROLLING_UNITS:
                    reader.fail(one_unit.key_lines.get(unit, one_unit.line),
                                f"{where}.one_unit: unknown unit {unit!r}")
                for word in reader.words(one_unit, unit, f"{where}.one_unit.{unit}"):
                    _put(self._one_unit_of, word, unit, reader, one_unit.key_lines[unit], "one_unit word")

            modifiers = reader.mapping(block, "modifiers", f"{where}.modifiers")
            modifier_words: dict[str, list[str]] = {}
            own: dict[str, str] = {}
            for mod in modifiers:
                if mod not in _MODIFIERS:
                    reader.fail(modifiers.key_lines.get(mod, modifiers.line),
                                f"{where}.modifiers: unknown modifier {mod!r} (known: this, last, next)")
                modifier_words[mod] = reader.words(modifiers, mod, f"{where}.modifiers.{mod}")
                for word in modifier_words[mod]:
                    _put(own, word, mod, reader, modifiers.key_lines[mod], "modifier")
            self._modifier_of[where] = own

            rolling = reader.mapping(block, "rolling", f"{where}.rolling")
            for key in rolling:
                if key not in ("before_number", "after_unit", "single_unit",
                               "next_before_number", "next_after_unit"):
                    reader.fail(rolling.key_lines.get(key, rolling.line),
                                f"{where}.rolling: unknown key {key!r}")
            for key in ("before_number", "after_unit", "next_before_number", "next_after_unit"):
                roles[key].update(reader.words(rolling, key, f"{where}.rolling.{key}"))
            single = reader.words(rolling, "single_unit", f"{where}.rolling.single_unit")

            numbers = reader.mapping(block, "numbers", f"{where}.numbers")
            for key, table in (("values", self._number_value), ("scales", self._scale_value),
                               ("teen_suffix", self._teen_value)):
                sub = reader.valued(numbers, key, f"{where}.numbers.{key}")
                for word, value in sub.items():
                    _put(table, word, value, reader, numbers.key_lines.get(key, numbers.line),
                         "number word")
            self._joiners.update(reader.words(numbers, "joiners", f"{where}.numbers.joiners"))

            ordinals = reader.valued(block, "ordinals", f"{where}.ordinals")
            for word, value in ordinals.items():
                _put(self._ordinal_value, word, value, reader,
                     block.key_lines.get("ordinals", block.line), "ordinal")

            months = reader.mapping(block, "months", f"{where}.months")
            for number, entry in months.items():
                line = months.key_lines.get(number, months.line)
                if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 12:
                    reader.fail(line, f"{where}.months: {number!r} is not a month number 1-12")
                if not isinstance(entry, dict):
                    reader.fail(line, f"{where}.months.{number}: expected names / abbreviations")
                for key in entry:
                    if key not in ("names", "abbreviations"):
                        reader.fail(entry.key_lines.get(key, line),
                                    f"{where}.months.{number}: unknown key {key!r}")
                names = reader.words(entry, "names", f"{where}.months.{number}.names")
                abbreviations = reader.words(entry, "abbreviations", f"{where}.months.{number}.abbreviations")
                for word in names + abbreviations:
                    _put(self._month_of, word, number, reader, line, "month word")
                alone_months.update(names)
                context_months.update(abbreviations)
            context_months.update(reader.words(block, "months_needing_context",
                                               f"{where}.months_needing_context"))

            for key in ("ordinal_suffixes", "ordinal_prefixes", "month_prefixes", "day_prefixes",
                        "day_month_joiners", "year_context", "year_joiners", "month_parts",
                        "year_genitives"):
                roles[key].update(reader.words(block, key, f"{where}.{key}"))
            since = reader.mapping(block, "since_month", f"{where}.since_month")
            for key in since:
                if key not in ("before", "after"):
                    reader.fail(since.key_lines.get(key, since.line),
                                f"{where}.since_month: unknown key {key!r} (known: before, after)")
                roles["since_" + key].update(reader.words(since, key, f"{where}.since_month.{key}"))
            month_mods = reader.mapping(block, "month_modifiers", f"{where}.month_modifiers")
            own_month: dict[str, str] = {}
            for mod in month_mods:
                if mod not in _MODIFIERS:
                    reader.fail(month_mods.key_lines.get(mod, month_mods.line),
                                f"{where}.month_modifiers: unknown modifier {mod!r} (known: this, last, next)")
                for word in reader.words(month_mods, mod, f"{where}.month_modifiers.{mod}"):
                    _put(own_month, word, mod, reader, month_mods.key_lines[mod], "month modifier")
            self._month_modifier_of[where] = own_month
            if own_month:
                month_modifiers.append((where, position, list(own_month)))
            # "last year" / "tahun lalu" as one phrase, for "Q4 last year", "Maret tahun lalu".
            for mod, words in modifier_words.items():
                for word in words:
                    for unit_word in unit_words.get("year", []):
                        phrase = f"{word} {unit_word}" if position == "before" else f"{unit_word} {word}"
                        self._year_phrase_of.setdefault(phrase, mod)
            spans = reader.mapping(block, "spans", f"{where}.spans")
            for key in spans:
                if key not in _SPAN_KEYS:
                    reader.fail(spans.key_lines.get(key, spans.line), f"{where}.spans: unknown key {key!r}")
                roles[key].update(reader.words(spans, key, f"{where}.spans.{key}"))

            languages.append((where, position, unit_words, modifier_words, single))

        for word in context_months:
            if word not in self._month_of:
                reader.fail(1, f"months_needing_context: {word!r} is not a month name")
        alone_months -= context_months
        self._roles = roles

        # Everything the lexicon knows, for the router's typo corrector.
        for table in (self._phrase_rule, self._unit_of, self._one_unit_of, self._number_value,
                      self._scale_value, self._teen_value, self._ordinal_value, self._month_of):
            self._vocabulary.update(table)
        for own in (*self._modifier_of.values(), *self._month_modifier_of.values()):
            self._vocabulary.update(own)
        for words in roles.values():
            self._vocabulary.update(words)
        self._vocabulary.update(self._joiners)
        for _, _, _, _, single in languages:
            self._vocabulary.update(single)
        self._single_words = {w for _, _, _, _, single in languages for w in single}

        self._compile(languages, alone_months, quarter_letters, month_modifiers)

    # ----------------------------------------------------------------------------------------

    def vocabulary(self) -> frozenset[str]:
        """Every single word the lexicon knows, lowercase."""
        words: set[str] = set()
        for entry in self._vocabulary:
            for token in entry.split():
                token = token.strip(".,'’")
                if token and any(ch.isalpha() for ch in token):
                    words.add(token)
        return frozenset(words)

    def message(self, key: str, **values) -> str:
        try:
            return self._messages[key].format(**values)
        except (KeyError, IndexError, ValueError):
            return f"{key}: {values}"

    # ----------------------------------------------------------------------------------------

    def _compile(self, languages, alone_months: set[str], quarter_letters: list[str],
                 month_modifiers: list[tuple[str, str, list[str]]]) -> None:
        r = self._roles
        flags = re.IGNORECASE
        units_rolling = _alt(w for w, u in self._unit_of.items() if u in _ROLLING_UNITS)
        quarter_words = _alt(w for w, u in self._unit_of.items() if u == "quarter")
        fiscal_words = _alt(w for w, u in self._unit_of.items() if u == "fiscal_year")
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
        year_words = _alt(w for w, u in self._unit_of.items() if u == "year")
        # A year after a quarter or month: "Q3 2016", "Q4 of last year", "kuartal 4 tahun lalu".
        year_suffix = (rf"(?:(?:\s*[-/,]\s*|\s+(?:{year_joiners}\s+)?)(?P<qy>[12]\d{{3}})(?!\d)"
                       rf"|(?:\s*,\s*|\s+(?:{year_joiners}\s+)?)(?P<ry>{rel_year}))?")
        quarter_number = (rf"(?:(?P<qd>\d+)|(?P<qr>{roman})|(?P<qo>{ordinal_words}))")

        families: list[_Family] = []

        def add(body: str, build: Callable, needs_month: bool = False, trigger: str | None = None) -> None:
            gate = re.compile(_B + trigger + _E, flags) if trigger else None
            families.append(_Family(re.compile(_B + body + _E, flags), build, needs_month, gate))

        add(rf"(?P<phrase>{_alt(self._phrase_rule)})", self._build_phrase)
        for code, position, unit_words, modifier_words, single in languages:
            cal_units = _alt(w for u, ws in unit_words.items() if u in _CALENDAR_UNITS for w in ws)
            roll_units = _alt(w for u, ws in unit_words.items() if u in _ROLLING_UNITS for w in ws)
            mod = _alt(w for ws in modifier_words.values() for w in ws)
            if modifier_words and unit_words:
                if position == "before":
                    body = rf"(?P<mod>{mod})\s+(?P<unit>{cal_units})"
                else:
                    body = rf"(?P<unit>{cal_units})\s+(?P<mod>{mod})"
                add(body, self._relative_builder(code))
            if single and unit_words:
                single_alt = _alt(single)
                if position == "before":
                    body = rf"(?P<single>{single_alt})\s+(?P<unit>{roll_units})"
                else:
                    body = rf"(?P<unit>{roll_units})\s+(?P<single>{single_alt})"
                add(body, self._build_single)
        add(rf"(?P<fiscal>{fiscal_words})", self._build_fiscal_alone)
        add(rf"(?P<before>{_alt(r['before_number'])})\s+{quantity}", self._build_rolling)
        add(rf"{quantity}\s+(?P<after>{_alt(r['after_unit'])})", self._build_rolling)
        add(rf"(?P<nbefore>{_alt(r['next_before_number'])})\s+{quantity}", self._build_rolling)
        add(rf"{quantity}\s+(?P<nafter>{_alt(r['next_after_unit'])})", self._build_rolling)

        # Quarters: "Q1", "Q3 2016", "kuartal ke-2", "triwulan II 2025", "third quarter of 2016", "2019-Q1"
        add(rf"(?P<ql>{_alt(quarter_letters)})\s?(?P<qd>\d+){year_suffix}", self._build_quarter)
        add(rf"(?P<qw>{quarter_words})\s*(?:{ordinal_prefix}\s*)?{quarter_number}{year_suffix}",
            self._build_quarter)
        add(rf"(?:(?P<qo>{ordinal_words})|(?P<qd>\d)(?:{ordinal_suffix}))\s+(?P<qw>{quarter_words}){year_suffix}",
            self._build_quarter)
        add(rf"(?P<qy>[12]\d{{3}})\s*[-/]?\s*{_alt(quarter_letters)}\s?(?P<qd>\d)", self._build_quarter)

        # Fiscal years named by their start year: "FY2025", "FY 2025-26", "tahun fiskal 2025"
        add(rf"(?P<fiscal>{fiscal_words})\s*'?(?P<fy>\d{{4}}|\d{{2}})(?!\d)"
            rf"(?:\s*[-/]\s*(?P<fy2>\d{{4}}|\d{{2}})(?!\d))?", self._build_fiscal_year)

        # A bare year only in date context: "in 2025", "tahun 2025"
        # ...but not the year of a quarter ("during 2017 Q1" is the quarter).
        add(rf"(?P<yc>{_alt(r['year_context'])})\s+(?P<y>[12]\d{{3}})(?![-/.]\d)"
            rf"(?!\s*[-/]?\s*{_alt(quarter_letters)}\s?\d)", self._build_year)

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
                rf"{year(5)}(?:\s*[-/,]\s*|\s+){month(5, month_any)}",
                rf"(?P<{p}y6>\d{{4}})[-/](?P<{p}n6>\d{{1,2}})(?![\d/-])",
                rf"(?P<{p}n7>\d{{1,2}})/(?P<{p}y7>\d{{4}})(?!\d)",
                month(8, month_any if in_span else month_alone),
            ]
            if in_span:
                alternatives += [day(9), rf"(?P<{p}y10>[12]\d{{3}})(?!\d)"]
            return "(?:" + "|".join(alternatives) + ")"

        add(atom("a", in_span=False), self._build_explicit)

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
            self._build_quarter, trigger=year_words)
        add(rf"{lead_year}{month_tok(month_any)}", self._build_month_of_year, needs_month=True, trigger=year_words)
        # "last March", "next March", "Maret lalu", "15 Maret lalu" (not before a year or day number).
        # After last/next an abbreviation or "may" is a month too ("last May"); after "this" it is
        # not ("this may take a while").
        for code, position, words in month_modifiers:
            own = self._month_modifier_of[code]
            for mods, months in ((("this",), month_alone), (("last", "next"), month_any)):
                mmod = _alt(w for w in words if own[w] in mods)
                if not any(own[w] in mods for w in words):
                    continue
                if position == "before":
                    body = rf"(?P<mmod>{mmod})\s+{month_tok(months)}(?!\s*[-/,]?\s*\d)"
                else:
                    body = rf"(?:{day_tok})?{month_tok(months)}\s+(?P<mmod>{mmod})"
                add(body, self._month_modifier_builder(code), needs_month=True, trigger=mmod)
        # "since March", "sejak Maret 2025", "since 15 March", "March se ab tak"
        since_tail = rf"(?:{day_tok})?{month_tok(month_any)}{month_year}?"
        for key in ("since_before", "since_after"):
            if r[key]:
                body = (rf"(?P<since>{_alt(r[key])})\s+{since_tail}" if key == "since_before"
                        else rf"{since_tail}\s+(?P<since>{_alt(r[key])})")
                add(body, self._build_since, needs_month=True, trigger=_alt(r[key]))
        # "first week of January", "minggu pertama bulan Januari"
        for code, position, unit_words, _, _ in languages:
            week = _alt(unit_words.get("week", []))
            nth = (rf"(?:(?P<wo>{ordinal_words})|{ordinal_prefix}\s*(?P<wd>\d)|(?P<wx>\d)(?:{ordinal_suffix}))")
            lead = rf"{nth}\s+(?P<wu>{week})" if position == "before" else rf"(?P<wu>{week})\s+{nth}"
            if unit_words.get("week"):
                add(rf"{lead}\s+(?:{of}\s+)?{month_tok(month_any)}{month_year}?", self._build_week_of_month,
                    needs_month=True, trigger=week)
        # Parts of a month not resolved here ("mid-January", "awal Maret"): matched only so that the
        # month is not read as the whole month; never reported.
        add(rf"(?P<part>{_alt(r['month_parts'])})(?:\s*-\s*|\s+)(?:{of}\s+)?{month_tok(month_any)}"
            rf"{month_year}?", self._build_blocked, needs_month=True, trigger=_alt(r['month_parts']))
        dash = r"\s*[-–~]\s*"
        add(rf"(?:(?P<from>{_alt(r['from'] | r['between'])})\s+)?{atom('a', in_span=True)}"
            rf"(?:{dash}|\s+(?:{_alt(r['to'])})\s+){atom('b', in_span=True)}"
            rf"(?:\s+(?:{_alt(r['end'])}))?", self._build_span)
        add(rf"(?P<from>{_alt(r['between'])})\s+{atom('a', in_span=True)}"
            rf"(?:{dash}|\s+(?:{_alt(r['and'])})\s+){atom('b', in_span=True)}", self._build_span)

        self._families = families
        self._atom_groups = {
            fam.pattern: {p: self._group_index(fam.pattern, p) for p in ("a", "b")} for fam in families
        }
        # Cheap gate: no digit and no anchor word means no date; most queries stop here.
        anchors = (set(self._unit_of) | set(self._one_unit_of) | set(self._month_of)
                   | set(self._phrase_rule))  # every family needs a digit, a unit, a month or a phrase
        self._gate = re.compile(rf"\d|{_B}{_alt(anchors)}{_E}", flags)
        self._month_gate = re.compile(rf"{_B}{month_any}", flags)

    @staticmethod
    def _group_index(pattern: re.Pattern, prefix: str) -> dict[str, list[str]]:
        fields: dict[str, list[str]] = {"d": [], "m": [], "n": [], "y": []}
        for name in pattern.groupindex:
            if len(name) >= 3 and name[0] == prefix and name[1] in fields and name[2:].isdigit():
                fields[name[1]].append(name)
        return fields

    # ----------------------------------------------------------------------------------------
    # Finding

    def find(self, text: str, today: date, settings: DateSettings) -> list[DateRange]:
        if not text or not self._gate.search(text):
            return []
        ctx = _Context(self, text, today, settings)
        candidates: list[tuple[int, int, int, DateRange]] = []
        has_month = self._month_gate.search(text) is not None
        for order, fam in enumerate(self._families):
            if fam.needs_month and not has_month:
                continue
            if fam.trigger is not None and fam.trigger.search(text) is None:
                continue
            for m in fam.pattern.finditer(text):
                try:
                    found = fam.build(ctx, m)
                except (OverflowError, ValueError):
                    # Only at the calendar's edges (years 1 and 9999): a date that does not exist.
                    found = ctx.unresolved(m, "out_of_calendar", self.message(
                        "after_calendar" if today.year > 5000 else "before_calendar", text=m.group(0)))
                if found is not None:
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
        return [found for _, _, found in taken if found is not _BLOCKED]

    # ----------------------------------------------------------------------------------------
    # Builders: each takes the match and returns a DateRange, or None to drop the match

    def _build_phrase(self, ctx: "_Context", m: re.Match) -> DateRange:
        rule = self._phrase_rule[_norm(m.group("phrase"))]
        t = ctx.today
        if rule == "today":
            return ctx.calendar(m, rule, t, t)
        if rule == "yesterday":
            return ctx.calendar(m, rule, *ctx.days(t, -1, -1))
        if rule == "tomorrow":
            return ctx.calendar(m, rule, *ctx.days(t, 1, 1))
        if rule == "ytd":
            return ctx.calendar(m, rule, date(t.year, 1, 1), t)
        if rule in ("mtd", "since_month_start"):
            return ctx.calendar(m, rule, t.replace(day=1), t)
        return ctx.calendar(m, rule, _quarter_start(t), t)  # qtd

    def _relative_builder(self, code: str) -> Callable:
        modifier_of = self._modifier_of[code]

        def build(ctx: _Context, m: re.Match) -> DateRange:
            mod = modifier_of[_norm(m.group("mod"))]
            unit = self._unit_of[_norm(m.group("unit"))]
            return ctx.relative(m, mod, unit)
        return build

    def _build_single(self, ctx: "_Context", m: re.Match) -> DateRange:
        return ctx.rolling(m, self._unit_of[_norm(m.group("unit"))], 1, future=False)

    def _build_fiscal_alone(self, ctx: "_Context", m: re.Match) -> DateRange:
        return ctx.relative(m, "this", "fiscal_year")

    def _build_rolling(self, ctx: "_Context", m: re.Match) -> DateRange | None:
        groups = m.groupdict()
        if groups.get("oneunit"):
            unit, count = self._one_unit_of[_norm(groups["oneunit"])], 1
        else:
            unit = self._unit_of[_norm(groups["unit"])]
            if groups["digits"] is not None:
                digits = groups["digits"].lstrip("0") or "0"
                count = int(digits) if len(digits) <= _MAX_DIGITS else 10 ** _MAX_DIGITS
            else:
                count = self._parse_number(groups["words"])
                if count is None:
                    return None
        future = groups.get("nbefore") is not None or groups.get("nafter") is not None
        return ctx.rolling(m, unit, count, future=future)

    def _parse_number(self, words: str) -> int | None:
        """Number words to a value: "dua puluh lima" 25, "one hundred and five" 105."""
        tokens = re.split(r"[\s-]+", words.lower().strip())
        total = group = pending = 0
        after_scale = False
        for token in tokens:
            if not token:
                continue
            if token in self._joiners:
                if not after_scale:
                    return None
                continue
            if token in self._number_value:
                value = self._number_value[token]
                if value >= 1000:
                    total += value
                elif value >= 100:
                    group += value
                else:
                    pending += value
                after_scale = False
            elif token in self._teen_value:
                pending += self._teen_value[token]
                after_scale = False
            elif token in self._scale_value:
                scale = self._scale_value[token]
                if scale >= 1000:
                    total += (group + pending or 1) * scale
                    group = pending = 0
                elif scale >= 100:
                    group += (pending or 1) * scale
                    pending = 0
                else:
                    group += (pending or 1) * scale
                    pending = 0
                after_scale = True
            else:
                return None
        return total + group + pending

    def _quarter_number(self, m: re.Match) -> int | None:
        groups = m.groupdict()
        if groups.get("qd") is not None:
            digits = groups["qd"].lstrip("0") or "0"
            return int(digits) if len(digits) <= _MAX_DIGITS else 10 ** _MAX_DIGITS
        if groups.get("qr") is not None:
            return self._roman[groups["qr"].lower()]
        if groups.get("qo") is not None:
            return self._ordinal_value[_norm(groups["qo"])]
        return None

    def _relative_year(self, ctx: "_Context", m: re.Match) -> int | None:
        """The year of "last year" / "tahun ini" / "agle saal" in group ry, or None."""
        phrase = m.groupdict().get("ry")
        if phrase is None:
            return None
        return ctx.today.year + {"this": 0, "last": -1, "next": 1}[self._year_phrase_of[_norm(phrase)]]

    def _build_quarter(self, ctx: "_Context", m: re.Match) -> DateRange:
        number = self._quarter_number(m)
        year = m.groupdict().get("qy")
        year = int(year) if year else self._relative_year(ctx, m)
        if year is None:
            year = ctx.today.year
        if number is None or not 1 <= number <= 4:
            return ctx.unresolved(m, "quarter", self.message("bad_quarter", text=m.group(0)))
        start = date(year, 3 * number - 2, 1)
        return ctx.calendar(m, "quarter", start, _month_end(year, 3 * number))

    def _build_fiscal_year(self, ctx: "_Context", m: re.Match) -> DateRange:
        label = m.group("fy")
        year = int(label) if len(label) == 4 else 2000 + int(label)
        second = m.group("fy2")
        if second is not None:
            expected = year + 1 if len(second) == 4 else (year + 1) % 100
            if int(second) != expected:
                return ctx.unresolved(m, "explicit_fiscal_year",
                                      self.message("bad_fiscal_label", text=m.group(0)))
        if year == 0:
            return ctx.unresolved(m, "explicit_fiscal_year", self.message("year_zero", text=m.group(0)))
        fs = ctx.settings.fiscal_year_start_month
        if second is None and ctx.settings.fiscal_year_label == "end" and fs != 1:
            year -= 1          # "FY2025" names the year it ends in: April 2024 .. March 2025
            if year < 1:
                return ctx.unresolved(m, "explicit_fiscal_year",
                                      self.message("before_calendar", text=m.group(0)))
        start = date(year, fs, 1)
        end, clamp = _add_months(start, 12)
        if clamp:
            return ctx.calendar(m, "explicit_fiscal_year", start, date.max,
                                note=self.message("clamped_end"))
        return ctx.calendar(m, "explicit_fiscal_year", start, end - timedelta(days=1))

    def _build_year(self, ctx: "_Context", m: re.Match) -> DateRange:
        year = int(m.group("y"))
        return ctx.calendar(m, "explicit_year", date(year, 1, 1), date(year, 12, 31))

    def _month_day(self, ctx: "_Context", m: re.Match, rule: str, year: int) -> DateRange:
        """The month in group mm (and the day in md, if any) of `year`."""
        month = self._month_of[_norm(m.group("mm").rstrip("."))]
        day = m.groupdict().get("md")
        if day is None:
            return ctx.calendar(m, rule, date(year, month, 1), _month_end(year, month))
        day = int(day)
        if not 1 <= day <= _month_end(year, month).day:
            point = _Point(year, month, day, m.group("mm"))
            return ctx.unresolved(m, "explicit_day", ctx.check(point) or self.message(
                "bad_day_in_year", day=day, month=m.group("mm"), year=year))
        return ctx.calendar(m, "explicit_day", date(year, month, day), date(year, month, day))

    def _build_month_of_year(self, ctx: "_Context", m: re.Match) -> DateRange:
        return self._month_day(ctx, m, "explicit_month", self._relative_year(ctx, m))

    def _month_modifier_builder(self, code: str) -> Callable:
        modifier_of = self._month_modifier_of[code]

        def build(ctx: _Context, m: re.Match) -> DateRange:
            mod = modifier_of[_norm(m.group("mmod"))]
            month = self._month_of[_norm(m.group("mm").rstrip("."))]
            t = ctx.today
            if mod == "this":
                year = t.year
            elif mod == "last":
                year = t.year if month < t.month else t.year - 1
            else:
                year = t.year if month > t.month else t.year + 1
            return self._month_day(ctx, m, f"{mod}_named_month", year)
        return build

    def _build_since(self, ctx: "_Context", m: re.Match) -> DateRange:
        month = self._month_of[_norm(m.group("mm").rstrip("."))]
        year = int(m.group("my")) if m.group("my") else self._relative_year(ctx, m)
        day = m.group("md")
        if year is None:
            year = ctx.latest_month_year(month)
            if day is not None and date(year, month, min(int(day), _month_end(year, month).day)) > ctx.today:
                year -= 1
        if year < 1:
            return ctx.unresolved(m, "since_month", self.message("before_calendar", text=m.group(0)))
        point = _Point(year, month, int(day) if day else None, m.group("mm"))
        problem = ctx.check(point)
        if problem:
            return ctx.unresolved(m, "since_month", problem)
        start = _first_day(year, month, point.day)
        if start > ctx.today:
            return ctx.unresolved(m, "since_month", self.message("end_before_start", text=m.group(0)))
        return ctx.calendar(m, "since_month", start, ctx.today)

    def _build_week_of_month(self, ctx: "_Context", m: re.Match) -> DateRange:
        month = self._month_of[_norm(m.group("mm").rstrip("."))]
        year = int(m.group("my")) if m.group("my") else self._relative_year(ctx, m)
        if year is None:
            year = ctx.latest_month_year(month)
        if year < 1:
            return ctx.unresolved(m, "week_of_month", self.message("before_calendar", text=m.group(0)))
        digits = m.group("wd") or m.group("wx")
        n = int(digits) if digits else self._ordinal_value[_norm(m.group("wo"))]
        last = _month_end(year, month).day
        if not 1 <= 7 * n - 6 <= last:
            return ctx.unresolved(m, "week_of_month", self.message("bad_week_of_month", text=m.group(0)))
        return ctx.calendar(m, "week_of_month", date(year, month, 7 * n - 6), date(year, month, min(7 * n, last)))

    def _build_blocked(self, ctx: "_Context", m: re.Match) -> object:
        return _BLOCKED

    def _point(self, m: re.Match, prefix: str) -> "_Point":
        fields = self._atom_groups[m.re][prefix]
        found = {}
        for field, names in fields.items():
            for name in names:
                value = m.group(name)
                if value is not None:
                    found[field] = value
                    break
        month_text = found.get("m") or found.get("n")
        month = None
        if "m" in found:
            month = self._month_of[_norm(found["m"].rstrip("."))]
        elif "n" in found:
            month = int(found["n"])
        return _Point(
            year=int(found["y"]) if "y" in found else None,
            month=month,
            day=int(found["d"]) if "d" in found else None,
            month_text=month_text,
        )

    def _build_explicit(self, ctx: "_Context", m: re.Match) -> DateRange:
        point = self._point(m, "a")
        problem = ctx.check(point)
        if problem:
            rule = "explicit_day" if point.day is not None else "explicit_month"
            return ctx.unresolved(m, rule, problem)
        if point.day is not None:
            if point.year is None:
                found = ctx.latest_day(point.month, point.day)
                if found is None:
                    return ctx.unresolved(m, "explicit_day", self.message(
                        "bad_day", day=point.day, month=point.month_text))
                return ctx.calendar(m, "explicit_day", found, found)
            day = date(point.year, point.month, point.day)
            return ctx.calendar(m, "explicit_day", day, day)
        year = point.year if point.year is not None else ctx.latest_month_year(point.month)
        return ctx.calendar(m, "explicit_month", date(year, point.month, 1), _month_end(year, point.month))

    def _build_span(self, ctx: "_Context", m: re.Match) -> DateRange | None:
        a, b = self._point(m, "a"), self._point(m, "b")
        # What each end may be: a lone day needs a day and month after it; a lone year pairs with
        # a year or a month; two lone years need "from"/"between" to count as a date at all.
        if a.day is not None and a.month is None and (b.day is None or b.month is None):
            return None
        if b.day is not None and b.month is None and (a.month is None or a.day is None):
            return None
        if (a.month is None and b.month is None) and m.group("from") is None:
            return None
        # A lone day takes the other end's month; "15-1 Januari" then runs backwards inside one
        # month, which is an error, not a span across the new year.
        if a.month is None and a.day is not None:
            a = _Point(b.year, b.month, a.day, b.month_text)
            if b.day is not None and a.day > b.day:
                return ctx.unresolved(m, "explicit_span", self.message("end_before_start", text=m.group(0)))
        if b.month is None and b.day is not None:
            b = _Point(a.year, a.month, b.day, a.month_text)
            if a.day is not None and a.day > b.day:
                return ctx.unresolved(m, "explicit_span", self.message("end_before_start", text=m.group(0)))
        for point in (a, b):
            problem = ctx.check(point)
            if problem:
                return ctx.unresolved(m, "explicit_span", problem)
        wraps = (a.month or 1, a.day or 1) > (b.month or 12, b.day or 31)
        if a.year is None and b.year is not None:
            a = _Point(b.year - 1 if wraps else b.year, a.month, a.day, a.month_text)
        elif b.year is None and a.year is not None:
            b = _Point(a.year + 1 if wraps else a.year, b.month, b.day, b.month_text)
        elif a.year is None and b.year is None:
            year = ctx.today.year
            if _first_day(year, a.month, a.day, strict=False) > ctx.today:
                year -= 1
            a = _Point(year, a.month, a.day, a.month_text)
            b = _Point(year + 1 if wraps else year, b.month, b.day, b.month_text)
        for point in (a, b):
            if point.day is not None and point.day > _month_end(point.year, point.month).day:
                return ctx.unresolved(m, "explicit_span", self.message(
                    "bad_day_in_year", day=point.day, month=point.month_text, year=point.year))
        start = _first_day(a.year, a.month, a.day)
        end = _last_day(b.year, b.month, b.day)
        if end < start:
            return ctx.unresolved(m, "explicit_span", self.message("end_before_start", text=m.group(0)))
        return ctx.calendar(m, "explicit_span", start, end)


# --------------------------------------------------------------------------------------------
# Calendar arithmetic


@dataclass(frozen=True)
class _Point:
    year: int | None
    month: int | None
    day: int | None
    month_text: str | None


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _quarter_start(d: date) -> date:
    return date(d.year, 3 * ((d.month - 1) // 3) + 1, 1)


def _first_day(year: int, month: int | None, day: int | None, strict: bool = True) -> date:
    if day is not None and month is not None:
        if not strict:
            day = min(day, calendar.monthrange(year, month)[1])
        return date(year, month, day)
    return date(year, month or 1, 1)


def _last_day(year: int, month: int | None, day: int | None) -> date:
    if day is not None and month is not None:
        return date(year, month, day)
    if month is not None:
        return _month_end(year, month)
    return date(year, 12, 31)


def _month_ordinal(total_months: int) -> int:
    """Day ordinal of the 1st of month number `total_months` (year * 12 + month - 1). Outside
    years 1..9999 it returns a value below 1 or above date.max's ordinal, still increasing."""
    year, month0 = divmod(total_months, 12)
    if year < 1:
        return (total_months - 12) * 31
    if year > 9999:
        return _MAX_ORDINAL + 1 + (total_months - 120000) * 31
    return date(year, month0 + 1, 1).toordinal()


def _add_days(d: date, n: int) -> tuple[date, int]:
    """d + n days; the int is -1/+1 when the result was clamped to date.min/date.max."""
    o = d.toordinal() + n
    if o < 1:
        return date.min, -1
    if o > _MAX_ORDINAL:
        return date.max, 1
    return date.fromordinal(o), 0


def _add_months(d: date, n: int) -> tuple[date, int]:
    """d + n months, the day clamped to the month's end ("31 March - 1 month" = 28/29 February)."""
    total = d.year * 12 + d.month - 1 + n
    year, month0 = divmod(total, 12)
    if year < 1:
        return date.min, -1
    if year > 9999:
        return date.max, 1
    month = month0 + 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1])), 0


class _Context:
    """One find_dates call: the text, today and settings, and helpers that make DateRanges."""

    def __init__(self, lexicon: DateLexicon, text: str, today: date, settings: DateSettings):
        self.lexicon = lexicon
        self.text = text
        self.today = today
        self.settings = settings

    def calendar(self, m: re.Match, rule: str, start: date, end: date, *, kind: str = CALENDAR,
                 note: str | None = None) -> DateRange:
        return DateRange(m.group(0), start, end, kind, rule, (m.start(), m.end()), note=note)

    def unresolved(self, m: re.Match, rule: str, reason: str, kind: str = CALENDAR) -> DateRange:
        return DateRange(m.group(0), None, None, kind, rule, (m.start(), m.end()), reason=reason)

    def days(self, base: date, first: int, last: int) -> tuple[date, date]:
        start, _ = _add_days(base, first)
        end, _ = _add_days(base, last)
        return start, end

    def check(self, point: _Point) -> str | None:
        msg = self.lexicon.message
        if point.year == 0:
            return msg("year_zero", text=str(point.year).zfill(4))
        if point.month is not None and not 1 <= point.month <= 12:
            return msg("bad_month", month=point.month_text)
        if point.day is not None and point.month is not None:
            longest = 29 if point.month == 2 and point.year is None else (
                calendar.monthrange(point.year if point.year else 2001, point.month)[1])
            if not 1 <= point.day <= longest:
                if point.year is not None and 1 <= point.day <= 29 and point.month == 2:
                    return msg("bad_day_in_year", day=point.day, month=point.month_text, year=point.year)
                return msg("bad_day", day=point.day, month=point.month_text)
        return None

    def latest_day(self, month: int, day: int) -> date | None:
        """The most recent month/day that exists and is not after today (29 Feb looks back)."""
        for year in range(self.today.year, max(self.today.year - 9, 0), -1):
            if day <= calendar.monthrange(year, month)[1]:
                found = date(year, month, day)
                if found <= self.today:
                    return found
        return None

    def latest_month_year(self, month: int) -> int:
        year = self.today.year
        return year if date(year, month, 1) <= self.today else year - 1

    def relative(self, m: re.Match, mod: str, unit: str) -> DateRange:
        """this/last/next <unit>: calendar periods. Computed on day ordinals so that periods at
        the calendar's edges can be clamped (with a note) or reported as outside it."""
        t = self.today
        msg = self.lexicon.message
        rule = f"{mod}_{unit}"
        if unit == "fiscal_year":
            rule = {"this": "fiscal_year", "last": "last_fiscal_year", "next": "next_fiscal_year"}[mod]
        shift = {"this": 0, "last": -1, "next": 1}[mod]
        today_ord = t.toordinal()
        if unit in ("week", "weekend"):
            week_start = today_ord - (t.weekday() - self.settings.week_start) % 7
            if unit == "week":
                start = week_start + 7 * shift
                end = today_ord if mod == "this" else start + 6
            else:
                # The Saturday-Sunday pair of today's Monday-based week, whatever the week start.
                start = today_ord - t.weekday() + 5 + 7 * shift
                end = start + 1
        else:
            months = {"month": 1, "quarter": 3, "year": 12, "fiscal_year": 12}[unit]
            if unit == "month":
                first = t.year * 12 + t.month - 1
            elif unit == "quarter":
                first = t.year * 12 + 3 * ((t.month - 1) // 3)
            elif unit == "year":
                first = t.year * 12
            else:
                fs = self.settings.fiscal_year_start_month
                first = (t.year if t.month >= fs else t.year - 1) * 12 + fs - 1
            first += months * shift
            start = _month_ordinal(first)
            end = today_ord if mod == "this" else _month_ordinal(first + months) - 1
        if end < 1:
            return self.unresolved(m, rule, msg("before_calendar", text=m.group(0)))
        if start > _MAX_ORDINAL:
            return self.unresolved(m, rule, msg("after_calendar", text=m.group(0)))
        note = None
        if start < 1:
            start, note = 1, msg("clamped_start")
        if end > _MAX_ORDINAL:
            end, note = _MAX_ORDINAL, msg("clamped_end")
        return self.calendar(m, rule, date.fromordinal(start), date.fromordinal(end), note=note)

    def rolling(self, m: re.Match, unit: str, count: int, *, future: bool) -> DateRange:
        msg = self.lexicon.message
        rule = f"rolling_next_{unit}s" if future else f"rolling_{unit}s"
        if count <= 0:
            return self.unresolved(m, rule, msg("empty_window", text=m.group(0)), kind=ROLLING)
        t = self.today
        months = {"month": 1, "quarter": 3, "year": 12}.get(unit)
        sign = 1 if future else -1
        if months is None:
            days = count * (7 if unit == "week" else 1)
            far, clamp = _add_days(t, sign * days)
        else:
            far, clamp = _add_months(t, sign * months * count)
        if future:
            start, c = _add_days(t, 1)
            if c:
                return self.unresolved(m, rule, msg("after_calendar", text=m.group(0)), kind=ROLLING)
            end = far
        else:
            start = far if clamp else _add_days(far, 1)[0]
            end = t
        note = None
        if clamp:
            note = msg("clamped_start" if clamp < 0 else "clamped_end")
        return self.calendar(m, rule, start, end, kind=ROLLING, note=note)


# --------------------------------------------------------------------------------------------
# Public functions


def load_date_lexicon(path: Path | str | None = None) -> DateLexicon:
    """Load and compile the date vocabulary; ValueError("file:line: problem") when malformed."""
    path = Path(path) if path is not None else DEFAULT_LEXICON_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{path}:0: cannot read: {exc}") from exc
    try:
        data = load_with_lines(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        problem = getattr(exc, "problem", None) or str(exc)
        raise ValueError(f"{path}:{line}: {problem}") from exc
    if data is None:
        data = _Map()
    if not isinstance(data, dict):
        raise ValueError(f"{path}:1: expected a mapping of language blocks")
    return DateLexicon(data, path)


def find_dates(text: str, *, today: date, settings: DateSettings = DateSettings(),
               lexicon: DateLexicon) -> list[DateRange]:
    """Every date expression in `text`, left to right, non-overlapping, longest match first."""
    if not isinstance(text, str):
        return []
    return lexicon.find(text, today, settings)


def resolve_expression(text: str, *, today: date, settings: DateSettings = DateSettings(),
                       lexicon: DateLexicon) -> list[DateRange]:
    """The `dates` command: the same as find_dates, on an expression rather than a query."""
    return find_dates(text, today=today, settings=settings, lexicon=lexicon)
