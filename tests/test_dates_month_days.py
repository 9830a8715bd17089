"""Days of a month said as days (routing.dates.month_days; dates.yaml day_prefixes, day_articles, ordinal_suffixes,
spans): "the 9th of last month" is one day of December when today is 22 January 2026; "tanggal 9 bulan lalu" too,
not nine months (as "9 bulan lalu" still is); two days after a span's word with no month are days of the latest month
in which the first has come. A lone "the 20th", a day after "from" alone, and a date read already stay as they were.
Phrasings written before the mechanism, none from a labelled set."""
from __future__ import annotations

from datetime import date

import pytest

from routing import load_router
from routing.dates import find_dates, load_date_lexicon

TODAY = date(2026, 1, 22)


@pytest.fixture(scope="module")
def lexicon():
    return load_date_lexicon()


def ranges(text, lexicon):
    return [(d.text, d.start.isoformat(), d.end.isoformat()) for d in find_dates(text, today=TODAY, lexicon=lexicon)]


@pytest.mark.parametrize("text, expected", [
    ("payments on the 9th of last month", [("the 9th of last month", "2025-12-09", "2025-12-09")]),
    ("invoice dated 2nd of this month", [("2nd of this month", "2026-01-02", "2026-01-02")]),
    ("bills due the 1st of next month", [("the 1st of next month", "2026-02-01", "2026-02-01")]),
    ("faktur tanggal 9 bulan lalu", [("tanggal 9 bulan lalu", "2025-12-09", "2025-12-09")]),
    ("pembayaran tgl 31 bulan lalu", [("tgl 31 bulan lalu", "2025-12-31", "2025-12-31")]),
    ("sales from the 5th to the 12th of last month", [("from the 5th to the 12th of last month", "2025-12-05", "2025-12-12")]),
    ("sales 1st-10th this month", [("1st-10th this month", "2026-01-01", "2026-01-10")]),
    ("biaya dari tanggal 4 sampai 11 bulan lalu", [("dari tanggal 4 sampai 11 bulan lalu", "2025-12-04", "2025-12-11")]),
    ("between the 4th and the 20th of November", [("between the 4th and the 20th of November", "2025-11-04", "2025-11-20")]),
    # no month: the latest month in which the first day has come
    ("expenses between the 2nd and the 9th", [("between the 2nd and the 9th", "2026-01-02", "2026-01-09")]),
    ("expenses between the 24th and the 27th", [("between the 24th and the 27th", "2025-12-24", "2025-12-27")]),
    ("penjualan dari tanggal 5 sampai 8", [("dari tanggal 5 sampai 8", "2026-01-05", "2026-01-08")]),
])
def test_days_of_a_month(lexicon, text, expected):
    assert ranges(text, lexicon) == expected


@pytest.mark.parametrize("text, expected", [
    ("what happened on the 20th", []),                                                   # a lone day: not guessed
    ("sales 9 bulan lalu", [("9 bulan lalu", "2025-04-23", "2026-01-22")]),               # nine months, not a day
    ("invoices from the 9th of last month", [("last month", "2025-12-01", "2025-12-31")]),  # since that day: not one day
    ("the 15th of March 2025", [("15th of March 2025", "2025-03-15", "2025-03-15")]),     # read already
    ("between 2 and 5 million last month", [("last month", "2025-12-01", "2025-12-31")]),  # amounts, not days
    ("tgl 32 bulan lalu", [("32 bulan lalu", "2023-05-23", "2026-01-22")]),              # no such day
    ("from the 12th to the 5th of last month", [("last month", "2025-12-01", "2025-12-31")]),  # backwards
    # a review's probes: ordinals of another unit, two days that are no span, a day after since / until
    ("compare sales between the 1st and 2nd week of last month", [("last month", "2025-12-01", "2025-12-31")]),
    ("payments on the 6th and the 21st of last month", [("last month", "2025-12-01", "2025-12-31")]),
    ("invoices since the 14th of last month", [("last month", "2025-12-01", "2025-12-31")]),
])
def test_what_is_no_day_of_a_month(lexicon, text, expected):
    assert ranges(text, lexicon) == expected


def test_a_question_gets_the_days():
    r = load_router("accounting").route("list the invoices we issued from the 5th to the 12th of last month",
                                        today=TODAY.isoformat()).to_dict()
    assert r["matches"][0]["name"] == "invoice_list"
    assert (r["matches"][0]["suggested_params"]["date_from"], r["matches"][0]["suggested_params"]["date_to"]) == \
        ("2025-12-05", "2025-12-12")


@pytest.mark.parametrize("text, expected", [
    ("all of 2024 by month", [("all of 2024", "2024-01-01", "2024-12-31")]),
])
def test_a_whole_year(lexicon, text, expected):   # dates.yaml year_context
    assert ranges(text, lexicon) == expected
