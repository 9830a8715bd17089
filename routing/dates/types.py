"""What the date resolver answers: a domain's date settings (week start, fiscal year) and a
resolved range (inclusive start and end, calendar or rolling, the rule that fired, or why not)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Iterable

DEFAULT_LEXICON_PATH = Path(__file__).resolve().parents[2] / "lexicons" / "_shared" / "dates.yaml"

CALENDAR = "calendar"
ROLLING = "rolling"

_ROLLING_UNITS = ("day", "week", "fortnight", "month", "quarter", "year")  # a fortnight: two weeks, rolling only
_CALENDAR_UNITS = ("week", "month", "quarter", "year", "weekend", "fiscal_year")
_UNIT_KEYS = ("day", "week", "fortnight", "month", "quarter", "year", "weekend", "fiscal_year")
_PHRASE_RULES = ("today", "yesterday", "tomorrow", "ytd", "mtd", "since_month_start", "qtd")
_MODIFIERS = ("this", "last", "next")
# The sections a language block may have (see the header of dates.yaml).
_LANGUAGE_SECTIONS = (
    "modifier_position", "phrases", "units", "one_unit", "modifiers", "rolling", "numbers",
    "ordinals", "ordinal_suffixes", "ordinal_prefixes", "months", "months_needing_context", "abbreviations_alone",
    "month_prefixes", "day_prefixes", "day_articles", "day_month_joiners", "year_context", "year_not_after", "year_ends", "year_joiners", "spans",
    "month_modifiers", "since_month", "month_parts", "year_genitives", "weekdays", "weekday_prefixes", "week_of",
    "halves",
)
_SPAN_KEYS = ("from", "to", "between", "and", "end")
_MESSAGE_KEYS = (
    "bad_day", "bad_day_in_year", "bad_month", "bad_quarter", "empty_window", "year_zero",
    "before_calendar", "after_calendar", "reaches_before_calendar", "reaches_after_calendar", "end_before_start",
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
    quarters: str = "calendar"        # Q1..Q4 said alone: calendar quarters or the fiscal year's ("fiscal")

    @classmethod
    def of(cls, settings) -> "DateSettings":
        """The date settings of a domain's settings (week start, fiscal year): the one place every
        design and page reads them from."""
        return cls(settings.week_start, settings.fiscal_year_start_month, settings.fiscal_year_label, settings.quarters)


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


def _norm(text: str) -> str:
    return " ".join(text.lower().split())




# --------------------------------------------------------------------------------------------
# Regex building blocks


def _alt(words: Iterable[str]) -> str:
    """A non-capturing alternation of words, longest first; inner spaces match any whitespace."""
    unique = sorted(set(words), key=lambda w: (-len(w), w))
    if not unique:
        return r"(?!x)x"  # matches nothing
    parts = [r"\s+".join(re.escape(piece) for piece in w.split()) for w in unique]
    return "(?:" + "|".join(parts) + ")"


# What a blocking family returns: it takes its span from the others and is never reported.
_BLOCKED = object()


_CODE_BEFORE = re.compile(r"\w[-/]$")


def in_code(text: str, start: int) -> bool:
    """A match glued by "-" or "/" to the word before it ("INV/25-26/0876"): read there, a date that does not
    resolve ("26/0876": no month 26) is a record's code, no date to report."""
    return _CODE_BEFORE.search(text, max(0, start - 2), start) is not None
