"""Calendar arithmetic: month ends, quarters, adding days and months at the edges of the calendar,
and the context that turns a relative or rolling phrase into an inclusive range."""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from routing.dates.types import _MAX_ORDINAL, CALENDAR, ROLLING, DateRange, DateSettings

if TYPE_CHECKING:  # the lexicon mixes these classes in; only its type is needed here
    from routing.dates.lexicon import DateLexicon




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

    def day_span(self, m: re.Match, rule: str, first: int, last: int) -> DateRange:
        """today + first .. today + last days, or unresolved when any of it is off the calendar."""
        return self.ordinals(m, rule, self.today.toordinal() + first, self.today.toordinal() + last)

    def ordinals(self, m: re.Match, rule: str, start: int, end: int, *, kind: str = CALENDAR) -> DateRange:
        """A range of day ordinals; any part beyond 0001-01-01 .. 9999-12-31 makes it unresolved
        with a reason (never clipped)."""
        msg = self.lexicon.message
        text = m.group(0)
        if end < 1:
            return self.unresolved(m, rule, msg("before_calendar", text=text), kind=kind)
        if start > _MAX_ORDINAL:
            return self.unresolved(m, rule, msg("after_calendar", text=text), kind=kind)
        if start < 1:
            return self.unresolved(m, rule, msg("reaches_before_calendar", text=text), kind=kind)
        if end > _MAX_ORDINAL:
            return self.unresolved(m, rule, msg("reaches_after_calendar", text=text), kind=kind)
        return self.calendar(m, rule, date.fromordinal(start), date.fromordinal(end), kind=kind)

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
        the calendar's edges are reported as unresolved, never clipped."""
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
        return self.ordinals(m, rule, start, end)

    def rolling(self, m: re.Match, unit: str, count: int, *, future: bool) -> DateRange:
        msg = self.lexicon.message
        rule = f"rolling_next_{unit}s" if future else f"rolling_{unit}s"
        if count <= 0:
            return self.unresolved(m, rule, msg("empty_window", text=m.group(0)), kind=ROLLING)
        t = self.today
        months = {"month": 1, "quarter": 3, "year": 12}.get(unit)
        sign = 1 if future else -1
        if months is None:
            days = count * {"week": 7, "fortnight": 14}.get(unit, 1)
            far, clamp = _add_days(t, sign * days)
        else:
            far, clamp = _add_months(t, sign * months * count)
        if future:
            if t == date.max:
                return self.unresolved(m, rule, msg("after_calendar", text=m.group(0)), kind=ROLLING)
            if clamp:
                return self.unresolved(m, rule, msg("reaches_after_calendar", text=m.group(0)), kind=ROLLING)
            return self.calendar(m, rule, _add_days(t, 1)[0], far, kind=ROLLING)
        if months is None:  # N days back, inclusive of today: starts N - 1 days before it
            return self.ordinals(m, rule, t.toordinal() - days + 1, t.toordinal(), kind=ROLLING)
        if clamp:  # the window would start before 0001-01-01
            return self.unresolved(m, rule, msg("reaches_before_calendar", text=m.group(0)), kind=ROLLING)
        return self.calendar(m, rule, _add_days(far, 1)[0], t, kind=ROLLING)
