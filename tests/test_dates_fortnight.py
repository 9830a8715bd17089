"""A fortnight (dates.yaml `units.fortnight`, `one_unit.fortnight`): two weeks, rolling only. "the last fortnight",
"the past fortnight" are the 14 days ending today, "last 2 fortnights" 28, "next fortnight" the 14 days from
tomorrow; "this fortnight" names no calendar period and is left unread. Today is 2026-01-22."""
from __future__ import annotations

from datetime import date

import pytest

from routing import load_router
from routing.dates import find_dates, load_date_lexicon

TODAY = date(2026, 1, 22)


@pytest.mark.parametrize("text, expected", [
    ("sales for the last fortnight", [("2026-01-09", "2026-01-22")]),
    ("expenses over the past fortnight", [("2026-01-09", "2026-01-22")]),
    ("payments in the last 2 fortnights", [("2025-12-26", "2026-01-22")]),
    ("bills due in the next fortnight", [("2026-01-23", "2026-02-05")]),
    ("expenses this fortnight", []),
    ("sales last week", [("2026-01-12", "2026-01-18")]),   # a week stays a calendar week
])
def test_a_fortnight_is_two_weeks(text, expected):
    found = find_dates(text, today=TODAY, lexicon=load_date_lexicon())
    assert [(d.start.isoformat(), d.end.isoformat()) for d in found] == expected


def test_the_router_reads_it():
    r = load_router("cfo").route("pichle fortnight ka kharcha by category", today=TODAY.isoformat()).to_dict()
    assert [(d["start"], d["end"]) for d in r["dates"]] == [("2026-01-09", "2026-01-22")]
