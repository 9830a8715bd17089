"""A part of a fiscal year: a quarter or "year to date" said beside a fiscal year ("Q3 of this FY",
"Q3 FY26", "FY 2025-26 Q1", "YTD for FY 2025-26") is one range of that fiscal year, not a calendar
quarter (or the calendar year to date) and an entire fiscal year side by side. The third quarter of a
fiscal year starting in April is October-December; its year to date runs from its start to today (or
its end, when it is over). Only a quarter whose year was not said takes the fiscal year's.

A domain whose quarters are its fiscal year's (DateSettings.quarters "fiscal": Indian usage, where
"Q3 numbers" asked on 2026-01-22 are those of 2025-10-01..2025-12-31) reads a quarter said alone the
same way, in the fiscal year (fiscal_quarters)."""
from __future__ import annotations

import re
from datetime import date, timedelta

from routing.dates.ranges import _add_months
from routing.dates.types import DateRange, DateSettings

FISCAL_RULES = frozenset({"fiscal_year", "last_fiscal_year", "next_fiscal_year", "explicit_fiscal_year"})
PART_RULES = frozenset({"quarter", "ytd"})


def _gap_ok(gap: str, joiners: frozenset[str]) -> bool:
    """Between the two: nothing, a comma or dash, or words that join a part to its year ("of", "for")."""
    return all(w in joiners for w in re.findall(r"[^\s,\-/]+", gap.casefold()))


def _no_year_written(part: DateRange) -> bool:
    """A quarter written with no digit but its number ("Q3", "Q3 last year"; not "Q3 2025")."""
    return "".join(ch for ch in part.text if ch.isdigit()) in "1234"


def _said_alone(part: DateRange, today: date) -> bool:
    """A quarter without a year of its own: read in today's year, no digit but its number."""
    return part.start.year == today.year and _no_year_written(part)


def _part(part: DateRange, fiscal: DateRange, text: str, today: date, span: tuple[int, int]) -> DateRange | None:
    fy_start = fiscal.start
    fy_end = _add_months(fy_start, 12)[0] - timedelta(days=1)
    words = text[span[0]:span[1]]
    if part.rule == "ytd":
        if fy_start > today:
            return None
        return DateRange(words, fy_start, min(today, fy_end), "calendar", "fiscal_ytd", span)
    if not _said_alone(part, today):
        return None  # "Q3 2016 FY26": the quarter's own year was said
    return _quarter_from(*_add_months(fy_start, 3 * (_number(part) - 1)), words, span)


def _number(part: DateRange) -> int:
    """Which quarter (1-4) a calendar quarter is."""
    return (part.start.month - 1) // 3 + 1


def _quarter_from(start: date, clamp: int, text: str, span: tuple[int, int]) -> DateRange | None:
    """The three months from `start` as one fiscal quarter; None where a month shift left the calendar (`clamp`)."""
    end, clamp2 = _add_months(start, 3)
    if clamp or clamp2:
        return None
    return DateRange(text, start, end - timedelta(days=1), "calendar", "fiscal_quarter", span)


def fiscal_parts(found: list[DateRange], text: str, today: date, roles: dict) -> list[DateRange]:
    """`found` (left to right) with each quarter or year-to-date beside a fiscal year joined to it."""
    if len(found) < 2 or not any(d.rule in FISCAL_RULES for d in found):
        return found
    joiners = frozenset(w.casefold() for key in ("year_joiners", "year_genitives") for w in roles.get(key, ()))
    out: list[DateRange] = []
    i = 0
    while i < len(found):
        a = found[i]
        b = found[i + 1] if i + 1 < len(found) else None
        joined = None
        if b is not None and a.resolved and b.resolved and _gap_ok(text[a.span[1]:b.span[0]], joiners):
            span = (a.span[0], b.span[1])
            if a.rule in PART_RULES and b.rule in FISCAL_RULES:
                joined = _part(a, b, text, today, span)
            elif b.rule in PART_RULES and a.rule in FISCAL_RULES:
                joined = _part(b, a, text, today, span)
        if joined is not None:
            out.append(joined)
            i += 2
        else:
            out.append(a)
            i += 1
    return out


def fiscal_quarters(found: list[DateRange], today: date, settings: DateSettings) -> list[DateRange]:
    """`found` with each quarter whose year was not written ("Q3", "third quarter", "Q3 last year") read
    as that quarter of a fiscal year, where the domain says its quarters are its fiscal year's
    (`dates.quarters: fiscal`) and that year does not start with the calendar's. Said alone, it is the
    latest such quarter that has begun, as a month named alone is: with a fiscal year from month 4, on
    2026-01-22 Q3 is 2025-10-01..2025-12-31 and Q4 the current 2026-01-01..2026-03-31 (in full), on
    2026-05-10 Q4 is 2026-01-01..2026-03-31, the quarter just ended. With a relative year it is that
    many years from there ("Q3 last year" on 2026-01-22: 2024-10-01..2024-12-31), so "Q3 vs Q3 last
    year" compares like with like. A quarter with its own year ("Q3 2025") stays the calendar's."""
    fs = settings.fiscal_year_start_month
    if settings.quarters != "fiscal" or fs == 1:
        return found
    out = []
    for d in found:
        if d.rule == "quarter" and d.resolved and _no_year_written(d):
            fy_year = today.year if today.month >= fs else today.year - 1
            start, clamp = _add_months(date(fy_year, fs, 1), 3 * (_number(d) - 1)) if fy_year >= 1 else (today, -1)
            if not clamp and start > today:  # not begun yet: the one a year before
                start, clamp = _add_months(start, -12)
            if not clamp:
                start, clamp = _add_months(start, 12 * (d.start.year - today.year))  # "last year": a year before
            d = _quarter_from(start, clamp, d.text, d.span) or d  # (past the calendar's first or last year: the quarter as said)
        out.append(d)
    return out
