"""A day said as the seven days it falls in (the words are dates.yaml's `week_of`, per language).

Those words, right before a day, make it its week: the range runs from the week's first day (the domain's
`week_start`) seven days on, or to today where today falls in it, and the words are part of the date's text.
A range of more than one day, or a day with no such words before it, is left as it was. No word of any
language is written here.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from routing.dates.types import DateRange, DateSettings

WEEK_RULE = "week_of"


def weeks_of(found: list[DateRange], text: str, today: date, settings: DateSettings, phrases: tuple[str, ...]) -> list[DateRange]:
    """`found` with each single day preceded by one of `phrases` (longest first) widened to its week, which ends
    today where today falls in it (as "this week" does: no period runs into the future)."""
    if not phrases or not found:
        return found
    out = []
    for d in found:
        if d.start is not None and d.start == d.end:
            before = text[: d.span[0]].rstrip()  # compared casefolded, cut as typed (the spans are the text's)
            said = next((p for p in phrases if len(p) <= len(before) and before[len(before) - len(p):].casefold() == p
                         and not before[: len(before) - len(p)][-1:].isalnum()), None)
            if said is not None:
                lo = len(before) - len(said)
                first = d.start - timedelta(days=(d.start.weekday() - settings.week_start) % 7)
                last = first + timedelta(days=6)
                d = replace(d, text=text[lo : d.span[1]], start=first, end=today if first <= today < last else last,
                            rule=WEEK_RULE, span=(lo, d.span[1]))
        out.append(d)
    return out
