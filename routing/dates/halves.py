"""Half a year (the words are dates.yaml's `halves`, per language): "H1 2025", "the first half of this financial year",
"H2 FY25-26", and the same in every language that lists them.

Those words, right before a year (a calendar or fiscal year found in the text, or four digits), make it its first or
last six months: from the year's first day (a fiscal year's from its first month), and up to today where today falls
in it, as "this year" ends today. A one-token word ("H1") said with no year is the latest such half that has begun,
in the fiscal year where the domain's quarters are its fiscal year's (as a quarter said alone is). The words become
part of the date's text. No word of any language is written here.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from routing.dates.fiscal_parts import FISCAL_RULES
from routing.dates.ranges import _add_months
from routing.dates.types import DateRange, DateSettings

HALF_RULE = "half_year"
YEAR_RULES = frozenset({"this_year", "last_year", "next_year", "explicit_year"}) | FISCAL_RULES
_YEAR_DIGITS = re.compile(r"[^\S\n]*([0-9]{4})(?![0-9A-Za-z])")


def halves(found: list[DateRange], text: str, today: date, settings: DateSettings, pattern, half_of: dict,
           joiners: frozenset[str]) -> list[DateRange]:
    """`found` (left to right) with each year after a half's words narrowed to that half, and a half said alone
    added; `pattern` finds the words (any case), `half_of` maps each (casefolded, single-spaced) to 1 or 2."""
    if pattern is None:
        return found
    out = list(found)
    for m in pattern.finditer(text):
        lo, hi = m.span()
        if any(d.rule == HALF_RULE and d.span[0] <= lo < d.span[1] for d in out):
            continue
        said = " ".join(m.group(0).casefold().split())
        half = half_of.get(said)
        if half is None:
            continue
        year = next((d for d in out if d.span[0] >= hi), None)
        if year is not None and not _joined(text[hi:year.span[0]], joiners):
            year = None
        cap = None
        if year is not None and year.rule in YEAR_RULES and year.resolved:
            first, cap, end_at = year.start, year.end, year.span[1]
        else:
            digits = _YEAR_DIGITS.match(text, hi)
            if digits is not None and 1 <= int(digits.group(1)):
                first, end_at = date(int(digits.group(1)), 1, 1), digits.end()
            elif " " not in said:
                first, end_at = _latest_year_start(today, settings, half), hi
            else:
                continue
        start, clamp = _add_months(first, 6 * (half - 1))
        stop, clamp2 = _add_months(start, 6)
        if clamp or clamp2:
            continue
        end = stop - timedelta(days=1)
        if cap is not None and start <= cap < end:
            end = cap
        span = (lo, end_at)
        out = [d for d in out if d.span[1] <= lo or d.span[0] >= end_at]
        out.append(DateRange(text[lo:end_at], start, end, "calendar", HALF_RULE, span))
        out.sort(key=lambda d: d.span[0])
    return out


def _joined(gap: str, joiners: frozenset[str]) -> bool:
    """Between the words and the year: nothing, a comma or dash, or words that join a part to its year ("of")."""
    return all(w in joiners for w in re.findall(r"[^\s,\-/]+", gap.casefold()))


def _latest_year_start(today: date, settings: DateSettings, half: int) -> date:
    """The first day of the year whose `half` is the latest such half that has begun by today."""
    fs = settings.fiscal_year_start_month if settings.quarters == "fiscal" else 1
    first = date(today.year if today.month >= fs else today.year - 1, fs, 1)
    if _add_months(first, 6 * (half - 1))[0] > today:
        first = _add_months(first, -12)[0]
    return first
