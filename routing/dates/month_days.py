"""Days of a month said as days (dates.yaml `day_articles` gives the examples in each language).

A day is a number of one or two digits marked as a day: after a day prefix, with an ordinal suffix, or, the second
of two, after the first (the first marked, or a span's word ending in a day prefix before it). Before a month (a
relative one or a named one, a day-month joiner between) the days are that month's: one day, or the days from the
first to the second. Two days with no month after them, after a span's word, are days of the latest month in which
the first has come: this month when it has, the month before when not. A lone day with no month, a span's start
word before one day (it says since when), and a bare number before a month (a count of months) are left as they
were: no day is guessed. The words are dates.yaml's (day_prefixes, day_articles, ordinal_suffixes,
day_month_joiners, spans); none is written here.
"""
from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Callable, Iterable

from routing.dates.ranges import _add_months
from routing.dates.types import DateRange, _alt

RULE = "month_days"
READ = frozenset({"explicit_day", "explicit_span"})  # the finder's own readings of days and their month
MONTH_RULES = frozenset({"explicit_month", "this_month", "last_month", "next_month", "last_named_month",
                         "next_named_month", "this_named_month"})


def compile_days(roles: dict[str, set[str]], units: Iterable[str] = ()) -> tuple | None:
    """What month_days reads, from the lexicon's roles and its units' words: a day's mark, the pattern of one or two
    marked days, what may stand between them and their month, a span's word ending in a day prefix, a span's start
    or end word before the days, the words joining two days, and a unit's word after them (None: a lexicon with no
    day marks)."""
    if not (roles["day_prefixes"] or roles["ordinal_suffixes"]):
        return None
    prefix, suffix = _alt(roles["day_prefixes"]), _alt(roles["ordinal_suffixes"])
    article = _alt(roles["day_articles"])
    lead, to = _alt(roles["from"] | roles["between"]), _alt(roles["to"] | roles["and"])

    def day(n: int) -> str:
        return (rf"(?:{article}\s+)?(?:(?P<p{n}>{prefix})\s+)?(?<![\d.,/:$€£¥₹])(?P<d{n}>\d{{1,2}})"
                rf"(?P<s{n}>{suffix})?(?![^\W_])")
    days = re.compile(rf"(?<![^\W_])(?:(?P<lead>{lead})\s+)?{day(1)}(?:(?:\s*[-–]\s*|\s+(?P<to>{to})\s+){day(2)})?",
                      re.IGNORECASE)
    # every day read holds a mark: a day prefix before its digits or an ordinal suffix after them (a quick test first)
    marks = re.compile(rf"(?<![^\W_])(?:{prefix})\s+\d|\d(?:{suffix})(?![^\W_])", re.IGNORECASE)
    return (marks, days, re.compile(rf"[\s,]+(?:{_alt(roles['day_month_joiners'])}\s+)?", re.IGNORECASE),
            re.compile(rf"(?<![^\W_]){prefix}$", re.IGNORECASE),
            re.compile(rf"(?<![^\W_])(?:{_alt(roles['since_before'] | roles['to'] | roles['from'])})\s+$", re.IGNORECASE),
            frozenset(w.casefold() for w in roles["and"]),
            re.compile(rf"\s+(?:{_alt(units)})(?![^\W_])", re.IGNORECASE))


def month_days(found: list[DateRange], text: str, today: date, patterns: tuple | None,
               find: Callable[[str], list[DateRange]]) -> list[DateRange]:
    """`found` (left to right) with the days `patterns` (compile_days) finds read as days of their month (the
    module's rules); `find` finds a text's dates."""
    if patterns is None or not patterns[0].search(text):
        return found
    _, pattern, joiners, marking, bound, ands, units = patterns
    out = list(found)
    for m in pattern.finditer(text):
        first, lead = int(m.group("d1")), m.group("lead")
        second = int(m.group("d2")) if m.group("d2") is not None else None
        marked = m.group("p1") is not None or m.group("s1") is not None or (lead is not None and marking.search(lead) is not None)
        if not marked and not (second is not None and lead is not None and (m.group("p2") is not None or m.group("s2") is not None)):
            continue
        if second is None and lead is not None or bound.search(text[max(0, m.start() - 24):m.start()]):
            continue  # a span's start or end word before one day says since or until when
        if second is not None and lead is None and (m.group("to") or "").casefold() in ands:
            continue  # "on the 5th and the 20th": two days, no span between them
        gap = joiners.match(text, m.end())
        after = find(text[gap.end():]) if gap is not None else []
        month = after[0] if after and after[0].span[0] == 0 and after[0].resolved and after[0].rule in MONTH_RULES else None
        if month is not None:
            start = month.start.replace(day=1)
            stop = gap.end() + month.span[1]
        elif units.match(text, m.end()):
            continue  # "between the 3rd and 4th quarter", "the 1st and 2nd week of last month": no days
        elif second is not None and lead is not None:
            start = today.replace(day=1) if first <= today.day else _add_months(today.replace(day=1), -1)[0]
            stop = m.end()
        else:
            continue
        last_day = (_add_months(start, 1)[0] - timedelta(days=1)).day
        second = first if second is None else second
        if not 1 <= first <= second <= last_day:
            continue
        lo = m.start("lead") if lead is not None else m.start()
        if any(d.rule in READ and d.span[0] <= m.start("d1") and stop <= d.span[1]
               or d.rule == RULE and d.span[0] < stop and lo < d.span[1] for d in out):
            continue  # read already: a day and its named month
        out = [d for d in out if d.span[1] <= lo or d.span[0] >= stop]
        out.append(DateRange(text[lo:stop], start.replace(day=first), start.replace(day=second), "calendar", RULE, (lo, stop)))
        out.sort(key=lambda d: d.span[0])
    return out
