"""Loading the date words of every language (lexicons/_shared/dates.yaml) into read-only tables,
with file and line for every problem; the tables are compiled into patterns by PhraseFinder and
read into ranges by RangeReadings."""
from __future__ import annotations

import re
from pathlib import Path


from routing.core.errors import LexiconError, Problem
from routing.core.safefile import read_text_bounded
from routing.core.yamlio import LineDict, parse_yaml, str_list
from routing.dates.finder import PhraseFinder
from routing.dates.month_days import compile_days
from routing.dates.readings import RangeReadings
from routing.dates.types import (
    _LANGUAGE_SECTIONS,
    _MESSAGE_KEYS,
    _MODIFIERS,
    _PHRASE_RULES,
    _ROLLING_UNITS,
    _SPAN_KEYS,
    _UNIT_KEYS,
    DEFAULT_LEXICON_PATH,
    _norm,
)

# --------------------------------------------------------------------------------------------
# YAML loading with line numbers, so a malformed lexicon names file and line


# The project's line-aware loader (routing.yamlio): mappings and sequences remember their lines.
_Map = LineDict




class DateLexiconError(LexiconError, ValueError):
    """A malformed dates.yaml: a lexicon error like every other (file and line; CLI exit 3; the
    registry keeps the last good router). Still a ValueError for callers that catch that."""


class _Reader:
    """Validates the YAML shapes and turns problems into DateLexiconError (file, line, problem)."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, line: int, problem: str) -> None:
        raise DateLexiconError([Problem(str(self.path), line or None, problem)])

    def mapping(self, parent: _Map, key, where: str) -> _Map:
        value = parent.get(key)
        if value is None:
            return _Map()
        if not isinstance(value, dict):
            self.fail(parent.key_lines.get(key, parent.line), f"{where}: expected a mapping")
        return value

    add = fail  # the shared validators (routing.core.yamlio) report through this: the first problem stops

    def words(self, parent: _Map, key, where: str) -> list[str]:
        """A list of words (a single string is accepted as a one-word list)."""
        line = parent.key_lines.get(key, parent.line) if isinstance(parent, _Map) else 0
        return [_norm(w) for w in str_list(parent.get(key), self, line, where, numbers=False)]

    def valued(self, parent: _Map, key, where: str) -> dict[str, int]:
        value = self.mapping(parent, key, where)
        out = {}
        for word, number in value.items():
            line = value.key_lines.get(word, value.line)
            if not isinstance(word, str) or not word.strip():
                self.fail(line, f"{where}: {word!r} is not a word")
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                self.fail(line, f"{where}: the value of {word!r} must be an integer")
            out[_norm(word)] = number
        return out


def _put(table: dict, word: str, value, reader: _Reader, line: int, what: str) -> None:
    old = table.get(word)
    if old is not None and old != value:
        reader.fail(line, f"{what} {word!r} means both {old!r} and {value!r}")
    table[word] = value


class DateLexicon(PhraseFinder, RangeReadings):
    """Date words of every language, compiled once into the patterns find_dates runs."""

    def __init__(self, data: _Map, path: Path):
        reader = _Reader(path)
        self.path = path
        if not isinstance(data, dict):
            reader.fail(1, "expected a mapping of language blocks")
        shared = reader.mapping(data, "shared", "shared")
        for key in shared:
            if key not in ("quarter_letters", "roman_numerals", "messages"):
                reader.fail(shared.key_lines.get(key, shared.line), f"shared: unknown key {key!r} (known: quarter_letters, roman_numerals, messages)")
        self._messages = {key: str(val) for key, val in reader.mapping(
            shared, "messages", "shared.messages").items()}
        for key in self._messages:
            if key not in _MESSAGE_KEYS:
                reader.fail(shared["messages"].key_lines.get(key, 0), f"shared.messages: unknown message {key!r} (known: {', '.join(_MESSAGE_KEYS)})")
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
        self._weekday_of: dict[str, int] = {}  # weekday word -> 0 (Monday) .. 6 (Sunday)
        weekday_langs: list[tuple[str, str, list[str], list[str]]] = []  # (language, position, weekday words, prefixes)
        self._month_modifier_of: dict[str, dict[str, str]] = {}  # language -> word -> this/last/next
        self._year_phrase_of: dict[str, str] = {}                 # "last year", "tahun lalu" -> last
        month_modifiers: list[tuple[str, str, list[str]]] = []    # (language, position, words)
        alone_months: set[str] = set()
        context_months: set[str] = set()
        standalone: list[tuple[str, str, int]] = []  # (language, abbreviation standing alone as its month, line)
        week_of: set[str] = set()  # words before a day that make it the week it falls in (routing.dates.week_of)
        half_of: dict[str, int] = {}  # words before a year that make it its first or second half (routing.dates.halves)
        roles: dict[str, set[str]] = {name: set() for name in (
            "ordinal_suffixes", "ordinal_prefixes", "month_prefixes", "day_prefixes", "day_articles",
            "day_month_joiners", "year_context", "year_joiners", "month_parts", "year_genitives", "since_before",
            "year_not_after", "year_ends",
            "since_after", "since_within", *_SPAN_KEYS, "before_number", "after_unit", "next_before_number", "next_after_unit")}
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
            standalone.extend((where, w, block.key_lines.get("abbreviations_alone", block.line))
                              for w in reader.words(block, "abbreviations_alone", f"{where}.abbreviations_alone"))
            week_of.update(reader.words(block, "week_of", f"{where}.week_of"))
            said_halves = reader.mapping(block, "halves", f"{where}.halves")
            for number in said_halves:
                line = said_halves.key_lines.get(number, said_halves.line)
                if isinstance(number, bool) or number not in (1, 2):
                    reader.fail(line, f"{where}.halves: {number!r} must be 1 or 2 (six months from the start, or the six after)")
                for word in reader.words(said_halves, number, f"{where}.halves.{number}"):
                    _put(half_of, " ".join(word.split()), number, reader, line, "halves entry")

            weekdays = reader.mapping(block, "weekdays", f"{where}.weekdays")
            own_days: list[str] = []
            for number, names in weekdays.items():
                line = weekdays.key_lines.get(number, weekdays.line)
                if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 7:
                    reader.fail(line, f"{where}.weekdays: {number!r} is not a weekday number 1-7 (ISO numbering: 1 to 7)")
                for word in reader.words(weekdays, number, f"{where}.weekdays.{number}"):
                    _put(self._weekday_of, word, number - 1, reader, line, "weekday")
                    own_days.append(word)
            if own_days:
                weekday_langs.append((where, block.get("modifier_position", "before"), own_days,
                                      reader.words(block, "weekday_prefixes", f"{where}.weekday_prefixes")))

            for key in ("ordinal_suffixes", "ordinal_prefixes", "month_prefixes", "day_prefixes", "day_articles",
                        "day_month_joiners", "year_context", "year_joiners", "month_parts",
                        "year_genitives", "year_not_after", "year_ends"):
                roles[key].update(reader.words(block, key, f"{where}.{key}"))
            since = reader.mapping(block, "since_month", f"{where}.since_month")
            for key in since:
                if key not in ("before", "after", "within"):
                    reader.fail(since.key_lines.get(key, since.line),
                                f"{where}.since_month: unknown key {key!r} (known: before, after, within)")
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
        for where, word, line in standalone:  # "dec ka GST", "sales in Oct": no name, no ordinary word
            if word not in self._month_of:
                reader.fail(line, f"{where}.abbreviations_alone: {word!r} is not a month word")
            alone_months.add(word)
        self.standalone_abbreviations = frozenset(w for _, w, _ in standalone)  # read again by routing.core.analysis
        self._roles = roles
        self._bare_not_after = dict.fromkeys(map(str.casefold, roles["year_not_after"]), True)  # routing.dates.readings._build_bare_year
        self._bare_ends = dict.fromkeys(map(str.casefold, roles["year_ends"]), True)
        self.week_of = tuple(sorted(week_of, key=lambda w: (-len(w), w)))  # longest first
        self.half_of = half_of
        # between a half's words and its year ("of", "ka"); before them, a span's or a modifier's word leaves them unread
        self.half_joiners = frozenset(w.casefold() for key in ("year_joiners", "year_genitives") for w in roles[key])
        self.half_blockers = frozenset(w.casefold() for key in ("since_before", "between", "end") for w in roles[key]) | \
            frozenset(w for own in self._modifier_of.values() for w, mod in own.items() if mod != "this")
        self.halves_pattern = re.compile(r"(?<![^\W_])(?:" + "|".join(
            r"[\s\-]+".join(map(re.escape, w.split())) for w in sorted(half_of, key=lambda w: (-len(w), w))) + r")(?![^\W_])",
            re.IGNORECASE) if half_of else None

        # days of a month said as days: "the 15th of last month", "dari tanggal 3 sampai 17" (routing.dates.month_days)
        self.month_days_pattern = compile_days(roles, [*self._unit_of, *(w for p in half_of for w in p.split())])

        # Everything the lexicon knows, for the router's typo corrector.
        for table in (self._phrase_rule, self._unit_of, self._one_unit_of, self._number_value,
                      self._scale_value, self._teen_value, self._ordinal_value, self._month_of, self._weekday_of):
            self._vocabulary.update(table)
        for phrase in half_of:
            self._vocabulary.update(phrase.split())
        for own in (*self._modifier_of.values(), *self._month_modifier_of.values()):
            self._vocabulary.update(own)
        for key, words in roles.items():
            if key not in ("year_not_after", "year_ends"):  # words beside a number that say it is no year, not date words
                self._vocabulary.update(words)
        self._vocabulary.update(self._joiners)
        self._spelled_words = {w: w for w in (*self._number_value, *self._scale_value, *self._teen_value, *self._joiners)}
        for _, _, _, _, single in languages:
            self._vocabulary.update(single)
        self._single_words = {w for _, _, _, _, single in languages for w in single}

        self._weekday_langs = weekday_langs
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


def load_date_lexicon(path: Path | str | None = None) -> DateLexicon:
    """Load and compile the date vocabulary; DateLexiconError (a LexiconError) naming file and line
    when malformed, whatever goes wrong."""
    path = Path(path) if path is not None else DEFAULT_LEXICON_PATH
    label = str(path)
    try:
        data = parse_yaml(read_text_bounded(path, label, root=path.parent.parent), label)
    except LexiconError as exc:
        raise DateLexiconError(exc.problems) from None
    if data is None:
        data = _Map()
    if not isinstance(data, dict):
        raise DateLexiconError([Problem(label, 1, "expected a mapping of language blocks")])
    try:
        return DateLexicon(data, path)
    except LexiconError:
        raise
    except Exception as exc:  # noqa: BLE001 - any other failure is the file's, said as such
        raise DateLexiconError([Problem(label, None, f"cannot be read: {type(exc).__name__}: {exc}")]) from None
