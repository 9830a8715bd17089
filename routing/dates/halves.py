"""Half a year or a month (the words are dates.yaml's `halves`, per language): "H1 2025", "the first half of this
financial year", "H2 FY25-26", "last year's H2", "the second half of December", and the same in every language
that lists them.

Those words beside a year (a calendar or fiscal year found in the text just after or just before them, or a year
written in digits after them: "2025", "2025-26") make it its first or last six months, from the year's first day
(a fiscal year's from its first month); beside a month, its days 1-15 or 16 to its end. A half runs up to today
where today falls in it, as "this year" does. Words with no year or month beside them ("H1 production", "the first
half of the match") and a half after a word of a span ("since H1 2025", "between H1 and H2") or a modifier
("previous H2") are left unread, and a month's half needs the words said out ("H2 this month" names a line):
no period is guessed. The words become part of the date's text. No word of any language is written here.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from routing.dates.fiscal_parts import FISCAL_RULES, _gap_ok
from routing.dates.ranges import _add_months
from routing.dates.types import DateRange, DateSettings

HALF_RULE = "half_year"
MONTH_HALF_RULE = "half_month"
YEAR_RULES = frozenset({"this_year", "last_year", "next_year", "explicit_year"}) | FISCAL_RULES
MONTH_RULES = frozenset({"explicit_month", "this_month", "last_month", "next_month", "last_named_month",
                         "next_named_month", "this_named_month"})
# a year in digits after the words: "2025", a fiscal label "2025-26" / "2025/2026"
_DIGITS = re.compile(r"([0-9]{4})(?:[-/]([0-9]{2}|[0-9]{4}))?(?![0-9A-Za-z])")
YEARS_AROUND = 100  # a year in digits further than this from today is a quantity ("H2 2500 units"), no year


def halves(found: list[DateRange], text: str, today: date, settings: DateSettings, pattern, half_of: dict,
           joiners: frozenset[str], blockers: frozenset[str]) -> list[DateRange]:
    """`found` (left to right) with each year or month beside a half's words narrowed to that half; `pattern`
    finds the words (any case), `half_of` maps each (casefolded, single-spaced) to 1 or 2; `joiners` may stand
    between the words and their year ("of", "ka"); after one of `blockers` (a span's or a modifier's word) the
    words are left unread."""
    if pattern is None:
        return found
    out = list(found)
    for m in pattern.finditer(text):
        lo, hi = m.span()
        if any(d.span[0] < hi and lo < d.span[1] for d in out if d.rule in (HALF_RULE, MONTH_HALF_RULE)):
            continue
        half = half_of.get(" ".join(re.split(r"[\s\-]+", m.group(0).casefold())))
        if half is None or _after_blocker(text[:lo], blockers):
            continue
        read = _beside(out, text, lo, hi, today, settings, joiners, months=" " in m.group(0).strip())
        if read is None:
            continue
        whole, span = read
        if whole.rule in MONTH_RULES:
            first = whole.start.replace(day=1 if half == 1 else 16)
            last = whole.start.replace(day=15) if half == 1 else _add_months(whole.start.replace(day=1), 1)[0] - timedelta(days=1)
            rule = MONTH_HALF_RULE
        else:
            first, clamp = _add_months(whole.start, 6 * (half - 1))
            stop, clamp2 = _add_months(first, 6)
            if clamp or clamp2:
                continue
            last, rule = stop - timedelta(days=1), HALF_RULE
        end = whole.end if first <= whole.end < last else last  # up to today where the year or month ends today
        out = [d for d in out if d.span[1] <= span[0] or d.span[0] >= span[1]]
        out.append(DateRange(text[span[0]:span[1]], first, end, "calendar", rule, span))
        out.sort(key=lambda d: d.span[0])
    return out


def _beside(found: list[DateRange], text: str, lo: int, hi: int, today: date, settings: DateSettings,
            joiners: frozenset[str], months: bool) -> tuple[DateRange, tuple[int, int]] | None:
    """The year or month the words at lo..hi halve, and the span of both: a found one just after them (joiners
    between), a year in digits after them, or a found year just before them ("last year's H2", "FY25 H1"). A month
    only where the words are several ("the first half of December"; "H2 this month" names a line's H2)."""
    after = next((d for d in found if d.span[0] >= hi), None)
    if after is not None and after.resolved and after.rule in (YEAR_RULES | MONTH_RULES if months else YEAR_RULES) \
            and _joined(text[hi:after.span[0]], joiners):
        return after, (lo, after.span[1])
    gap = re.match(r"[^0-9A-Za-z]*(?:[A-Za-z]+[^0-9A-Za-z]+)?", text[hi:hi + 16])
    digits = _DIGITS.match(text, hi + gap.end()) if gap is not None and _joined(gap.group(0), joiners) else None
    if digits is not None and not any(d.resolved and d.span[0] < digits.end() and hi < d.span[1] for d in found):
        year = int(digits.group(1))
        if abs(year - today.year) <= YEARS_AROUND:
            second = digits.group(2)
            fiscal = second is not None and int(second[-2:]) == (year + 1) % 100
            if second is not None and not fiscal:
                return None
            fs = settings.fiscal_year_start_month if fiscal else 1
            return DateRange(digits.group(0), date(year, fs, 1), _year_end(year, fs), "calendar", "explicit_year", digits.span()), (lo, digits.end())
    before = next((d for d in reversed(found) if d.span[1] <= lo), None)
    if before is not None and before.resolved and before.rule in YEAR_RULES and _joined(text[before.span[1]:lo], joiners):
        return before, (before.span[0], hi)
    return None


def _year_end(year: int, first_month: int) -> date:
    """The last day of the year that starts on the first of `first_month` of `year`."""
    return _add_months(date(year, first_month, 1), 12)[0] - timedelta(days=1)


def _joined(gap: str, joiners: frozenset[str]) -> bool:
    """Between the words and the year: as between a quarter and its fiscal year (fiscal_parts), and a year's
    possessive ("last year's H2")."""
    return _gap_ok(re.sub(r"^['’]s\b", "", gap.casefold()), joiners)


def _after_blocker(before: str, blockers: frozenset[str]) -> bool:
    """The text before the words ends with a span's or a modifier's word ("since", "between", "previous")."""
    tail = before.casefold().split()[-3:]
    return any(" ".join(tail[k:]) in blockers for k in range(len(tail)))
