"""Dates said the way people ask for data (issue 22, labelled held-out sets): a start "to today" / "se aaj
tak" / "sampai sekarang" / "so far" runs to today; "dec ka GST", "sales in oct" name the month with an
abbreviation alone ("jan", "jun" are names and "apr" a rate: they still need a day or a year); "Dec'25"
is December 2025; "sepanjang 2025" / "throughout 2025" is the year. Today is 2026-01-22."""
from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from routing import load_router
from routing.dates import find_dates, load_date_lexicon
from routing.dates.lexicon import DateLexiconError
from routing.dates.types import DEFAULT_LEXICON_PATH

TODAY = date(2026, 1, 22)


@pytest.fixture(scope="module")
def lexicon():
    return load_date_lexicon()


def ranges(text, lexicon):
    return [(d.start.isoformat(), d.end.isoformat()) for d in find_dates(text, today=TODAY, lexicon=lexicon)]


@pytest.mark.parametrize("text, expected", [
    ("ledger from 1 April to today", [("2025-04-01", "2026-01-22")]),
    ("statement from 1 April 2025 till date", [("2025-04-01", "2026-01-22")]),
    ("invoices from 1 March until now", [("2025-03-01", "2026-01-22")]),
    ("January so far", [("2026-01-01", "2026-01-22")]),
    ("December so far", [("2025-12-01", "2025-12-31")]),               # within: a month gone by is the whole month
    ("December mein ab tak kitna GST bana", [("2025-12-01", "2025-12-31")]),
    ("March se ab tak", [("2025-03-01", "2026-01-22")]),                # since: from March to today
    ("GST from April 2025 so far", [("2025-04-01", "2026-01-22")]),     # "from" before: since
    ("Agarwal Traders ka ledger, 1 April se aaj tak", [("2025-04-01", "2026-01-22")]),
    ("January mein ab tak kitna revenue aaya", [("2026-01-01", "2026-01-22")]),
    ("mutasi dari 1 April sampai sekarang", [("2025-04-01", "2026-01-22")]),
    ("penjualan November sampai hari ini", [("2025-11-01", "2026-01-22")]),
])
def test_a_start_to_today(lexicon, text, expected):
    assert ranges(text, lexicon) == expected


@pytest.mark.parametrize("text, expected", [
    ("dec ka gst summary", [("2025-12-01", "2025-12-31")]),
    ("total sales dec + invoice count", [("2025-12-01", "2025-12-31")]),
    ("sales in oct", [("2025-10-01", "2025-10-31")]),
    ("penjualan des", [("2025-12-01", "2025-12-31")]),
    ("turnover in Dec'25", [("2025-12-01", "2025-12-31")]),
    ("sales Dec \u201925", [("2025-12-01", "2025-12-31")]),
    ("from Oct'25 to Dec'25", [("2025-10-01", "2025-12-31")]),
    ("untung atau rugi kita sepanjang 2025", [("2025-01-01", "2025-12-31")]),
    ("expenses throughout 2025", [("2025-01-01", "2025-12-31")]),
])
def test_months_and_years_said_short(lexicon, text, expected):
    assert ranges(text, lexicon) == expected


@pytest.mark.parametrize("text", [
    "invoice for jan",            # Jan is a name
    "what is the APR on the loan",  # a rate
    "invoices over 2025",         # an amount
    "rock'n'roll",
    "cicilan selama 1200 hari",   # a duration, no year
    "daftar agt yang belum bayar iuran",   # agt: anggota (members)
])
def test_no_date_where_the_word_says_something_else(lexicon, text):
    assert ranges(text, lexicon) == []


@pytest.mark.parametrize("domain, query, dated", [
    ("accounting", "invoices for customer Dec Trading", False),   # a name: the month word begins it
    ("accounting", "cari kontak Des Wulandari", False),
    ("accounting", "find product DEC-200", False),                # a code
    ("cfo", "Dec GST summary", True),                             # an acronym after it says what of the month
    ("cfo", "Dec ka GST summary", True),
])
def test_a_month_abbreviation_beginning_a_name_is_no_date(domain, query, dated):
    a = load_router(domain).analyze(query, today="2026-01-22")
    assert bool(a.dates) == dated


def test_the_router_reads_them():
    cfo = load_router("cfo")
    d = cfo.route("dec ka gst summary - output tax, itc aur net payable kitna", today="2026-01-22").to_dict()
    assert d["matches"][0]["name"] == "gst_summary"
    assert [(x["start"], x["end"]) for x in d["dates"]] == [("2025-12-01", "2025-12-31")]
    d = cfo.route("Agarwal Traders ka ledger nikalo, 1 April se aaj tak", today="2026-01-22").to_dict()
    assert d["matches"][0]["name"] == "customer_ledger"
    assert [(x["start"], x["end"]) for x in d["dates"]] == [("2025-04-01", "2026-01-22")]


def test_an_abbreviation_alone_that_is_no_month_word_is_named_with_file_and_line(tmp_path):
    text = Path(DEFAULT_LEXICON_PATH).read_text(encoding="utf-8")
    assert "  abbreviations_alone: [feb," in text
    bad = text.replace("  abbreviations_alone: [feb,", "  abbreviations_alone: [febx, feb,", 1)
    lex = tmp_path / "_shared" / "dates.yaml"
    lex.parent.mkdir()
    lex.write_text(bad, encoding="utf-8")
    with pytest.raises(DateLexiconError) as e:
        load_date_lexicon(lex)
    line = next(i for i, row in enumerate(bad.splitlines(), 1) if "abbreviations_alone: [febx" in row)
    assert "febx" in str(e.value) and str(line) in str(e.value)


@pytest.mark.parametrize("text, expected", [
    ("all supplier bills dated in the week of 5 January", [("2026-01-05", "2026-01-11")]),
    ("cash flow statement for the week of 14 January", [("2026-01-12", "2026-01-18")]),   # the week it falls in
    ("sales for the week beginning 12 Jan 2026", [("2026-01-12", "2026-01-18")]),
    ("penjualan minggu yang dimulai 5 Januari", [("2026-01-05", "2026-01-11")]),
    ("invoices of 5 January", [("2026-01-05", "2026-01-05")]),                             # a day is still a day
    ("invoices from the week of 5 to 9 January", [("2026-01-05", "2026-01-09")]),          # a range keeps its ends
])
def test_the_week_of_a_day(lexicon, text, expected):
    assert ranges(text, lexicon) == expected


def test_the_week_of_a_day_starts_on_the_domains_week_start():
    # the date reaches the tool's parameters whole (accounting's weeks start on Monday)
    r = load_router("accounting").route("all supplier bills dated in the week of 5 January", today=TODAY).to_dict()
    p = r["matches"][0]["suggested_params"]
    assert (p["date_from"], p["date_to"]) == ("2026-01-05", "2026-01-11")


@pytest.mark.parametrize("text, expected", [
    ("cash position for the week of 19 January", [("2026-01-19", "2026-01-22")]),  # today falls in it: to today
    ("expenses for the week starting 19 Jan", [("2026-01-19", "2026-01-22")]),
])
def test_the_week_of_a_day_ends_today_at_the_latest(text, expected):
    a = load_router("cfo").analyze(text, today=TODAY)
    assert [(d.start.isoformat(), d.end.isoformat()) for d in a.dates] == expected
