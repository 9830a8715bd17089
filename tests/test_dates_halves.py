"""Half a year (dates.yaml `halves`, routing.dates.halves): "H1 2025", "the first half of this financial year",
"H2 FY25-26", "semester kedua tahun lalu", "last year's H2" are six months of that year, up to today where today falls
in it; "the first half of December" is its days 1-15. Words with no year or month beside them ("H1 production") or
after a span's or a modifier's word ("since H1 2025", "previous H2") are left unread. Today is 2026-01-22.
Phrasings written before the mechanism and after a review's probes, none from a labelled set."""
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
    return [(d.text, d.start.isoformat(), d.end.isoformat()) for d in find_dates(text, today=TODAY, lexicon=lexicon)]


@pytest.mark.parametrize("text, expected", [
    ("expenses for H2 2025", [("H2 2025", "2025-07-01", "2025-12-31")]),
    ("sales in the first half of 2025", [("the first half of 2025", "2025-01-01", "2025-06-30")]),
    ("second half of last year, by month", [("second half of last year", "2025-07-01", "2025-12-31")]),
    ("H1 of last year vs H2 of last year", [("H1 of last year", "2025-01-01", "2025-06-30"),
                                             ("H2 of last year", "2025-07-01", "2025-12-31")]),
    ("penjualan semester pertama 2025", [("semester pertama 2025", "2025-01-01", "2025-06-30")]),
    ("biaya paruh kedua tahun lalu", [("paruh kedua tahun lalu", "2025-07-01", "2025-12-31")]),
    ("the first half of this year", [("the first half of this year", "2026-01-01", "2026-01-22")]),  # up to today
    ("sales first-half 2025", [("first-half 2025", "2025-01-01", "2025-06-30")]),
    ("sales H1-2025", [("H1-2025", "2025-01-01", "2025-06-30")]),
    ("sales H1 of 2025", [("H1 of 2025", "2025-01-01", "2025-06-30")]),
    ("last year H2 expenses", [("last year H2", "2025-07-01", "2025-12-31")]),      # the year said before
    ("invoices in the first half of December", [("the first half of December", "2025-12-01", "2025-12-15")]),
    ("the second half of this month", [("the second half of this month", "2026-01-16", "2026-01-22")]),
])
def test_a_half_of_a_year(lexicon, text, expected):
    assert ranges(text, lexicon) == expected


@pytest.mark.parametrize("text", [
    "how did he play in the first half",       # no year beside it: the words say something else
    "H1 production on line 3",                 # a line's name
    "H2 2500 units",                           # a quantity, no year
    "previous H2 expenses",                    # a modifier before it: which H2 is not guessed
    "sales between H1 and H2",                 # a span's words: left unread
])
def test_no_half_year_without_a_year(lexicon, text):
    assert ranges(text, lexicon) == []


@pytest.mark.parametrize("query, expected", [
    ("gross margin by product line for H1 FY25-26", ("2025-04-01", "2025-09-30")),
    ("P&L for the first half of this financial year", ("2025-04-01", "2025-09-30")),
    ("pichle financial year ka H1 P&L", ("2024-04-01", "2024-09-30")),   # the year said before it
    ("H1 2025-26 sales", ("2025-04-01", "2025-09-30")),                   # a fiscal label in digits
    ("expenses for the second half of this financial year", ("2025-10-01", "2026-01-22")),
])
def test_the_router_reads_a_fiscal_half(query, expected):
    r = load_router("cfo").route(query, today=TODAY.isoformat()).to_dict()
    assert (r["dates"][0]["start"], r["dates"][0]["end"]) == expected


def test_a_bad_half_is_named_with_file_and_line(tmp_path):
    text = Path(DEFAULT_LEXICON_PATH).read_text(encoding="utf-8")
    assert "  halves:\n    1: [h1," in text
    bad = text.replace("  halves:\n    1: [h1,", "  halves:\n    3: [h3]\n    1: [h1,", 1)
    lex = tmp_path / "_shared" / "dates.yaml"
    lex.parent.mkdir()
    lex.write_text(bad, encoding="utf-8")
    with pytest.raises(DateLexiconError) as e:
        load_date_lexicon(lex)
    line = next(i for i, row in enumerate(bad.splitlines(), 1) if "3: [h3]" in row)
    assert "halves" in str(e.value) and str(line) in str(e.value)
