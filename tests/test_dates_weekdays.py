"""Weekdays in dates (issue 14): "next friday", "on Tuesday", "hari Selasa", in every language,
with the week start of the domain. Today is Thursday 2026-01-22."""
from __future__ import annotations

from datetime import date

import pytest

from routing import load_router
from routing.dates import DateSettings, find_dates, load_date_lexicon

TODAY = date(2026, 1, 22)  # a Thursday


@pytest.fixture(scope="module")
def lexicon():
    return load_date_lexicon()


@pytest.mark.parametrize("text, day, rule", [
    ("on Tuesday", "2026-01-20", "weekday"),            # the latest Tuesday up to today
    ("thursday", "2026-01-22", "weekday"),              # today is one
    ("friday", "2026-01-16", "weekday"),                # alone: the past one (data questions)
    ("next friday", "2026-01-30", "next_weekday"),      # Friday of next week
    ("this friday", "2026-01-23", "this_weekday"),
    ("last monday", "2026-01-12", "last_weekday"),      # Monday of last week
    ("hari Selasa", "2026-01-20", "weekday"),
    ("Selasa depan", "2026-01-27", "next_weekday"),
    ("Jumat lalu", "2026-01-16", "last_weekday"),
    ("hari minggu lalu", "2026-01-18", "last_weekday"),  # "minggu" alone is a week
    ("pichle shukravar", "2026-01-16", "last_weekday"),
])
def test_weekday_phrases(lexicon, text, day, rule):
    found = find_dates(text, today=TODAY, lexicon=lexicon)
    assert [(d.start.isoformat(), d.end.isoformat(), d.rule, d.kind) for d in found] == [(day, day, rule, "calendar")]


def test_minggu_lalu_is_still_last_week(lexicon):
    found = find_dates("minggu lalu", today=TODAY, lexicon=lexicon)
    assert [(d.start.isoformat(), d.end.isoformat()) for d in found] == [("2026-01-12", "2026-01-18")]


def test_this_weekday_follows_the_domain_week_start(lexicon):
    sunday_weeks = DateSettings(week_start=6)
    found = find_dates("this monday", today=TODAY, settings=sunday_weeks, lexicon=lexicon)
    assert found[0].start == date(2026, 1, 19)
    found = find_dates("this sunday", today=TODAY, settings=sunday_weeks, lexicon=lexicon)
    assert found[0].start == date(2026, 1, 18)  # a week starting Sunday began on the 18th


def test_a_routed_question_gets_the_weekday_as_its_range():
    r = load_router("accounting").route("invoices from last friday", today=TODAY.isoformat())
    assert r.top.name == "invoice_list"
    assert r.top.suggested_params["date_from"] == r.top.suggested_params["date_to"] == "2026-01-16"
