"""Dates that say when something happens, not what period is asked (issue 22's held-out sets: a manager asking for
a meeting). "We meet the bank tomorrow and they'd like to see the payments from last month": tomorrow is the
meeting, last month the period; "bikin slide buat rapat hari Senin ... penjualan selama Q4": Monday is the meeting
(the date right after a framing phrase, routing.core.framing), Q4 the period. Such a date is dropped only where
another date is left to ask about; a question with one date keeps it ("bills due tomorrow"). No word of any
language is written here: framing phrases come from words.yaml, the rest is the calendar."""
from __future__ import annotations

from datetime import date


def occasions(dates, date_at: list[tuple[int, int]], framed: list, dropped: set, today: date) -> set:
    """The token ranges (of `date_at`, one per date) of the dates that name an occasion: a single day after today
    beside a date that is not in the future, or a date that starts right where a framing phrase ends ("for the
    meeting on Monday"); never every date left."""
    kept = [(d, at) for d, at in zip(dates, date_at) if at not in dropped and d.resolved]
    if len(kept) < 2:
        return set()
    ends = {span[1] for span in framed if isinstance(span, tuple) and len(span) == 2}
    out = set()
    for d, at in kept:
        ahead = d.start == d.end and d.start > today and any(o.start <= today for o, a in kept if a != at)
        if ahead or at[0] in ends:
            out.add(at)
    return out if len(out) < len(kept) else set()
