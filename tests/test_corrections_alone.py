"""A speaker taking a date back with a word that also says other things ("no", "nahi", "koreksi",
"actually", "wrong quarter", "nggak jadi"): only where it is a clause of its own between two dates (words.yaml
`correction_alone`), never one ending in "?" or a lone ".", nor before a clause that adds (`additive`); with
the phrases that say nothing else ("I take that back", "my bad": `correction`) anywhere between them."""
from __future__ import annotations

import pytest

TODAY = "2026-01-22"


def _ranges(result) -> list[tuple[str, str]]:
    return [(d["start"], d["end"]) for d in result.to_dict()["dates"]]


@pytest.mark.parametrize("domain, query, start, end", [
    ("accounting", "invoices from October - no, November 2025", "2025-11-01", "2025-11-30"),
    ("accounting", "faktur minggu lalu, koreksi: bulan lalu", "2025-12-01", "2025-12-31"),
    ("accounting", "cash flow for Q2 2025... hmm, no, Q3 2025", "2025-07-01", "2025-09-30"),
    ("accounting", "P&L for 2025... too broad, just December 2025", "2025-12-01", "2025-12-31"),
    ("accounting", "biaya tahun 2025, eh, Desember 2025 saja", "2025-12-01", "2025-12-31"),
    ("cfo", "expenses pichle hafte? nahi, pichle mahine ka", "2025-12-01", "2025-12-31"),
    ("cfo", "sales for this quarter, wrong quarter, last quarter please", "2025-10-01", "2025-12-31"),
    ("cfo", "top expenses for last week - I take that back - last month", "2025-12-01", "2025-12-31"),
    ("accounting", "tagihan minggu lalu, nggak jadi, bulan lalu aja", "2025-12-01", "2025-12-31"),
    ("accounting", "pembayaran minggu lalu, eh, minggu ini ada berapa?", "2026-01-19", "2026-01-22"),  # "ini" of the date refers to nothing
])
def test_a_date_taken_back_by_a_clause_of_its_own_is_none(shipped, domain, query, start, end):
    assert _ranges(shipped(domain).route(query, today=TODAY)) == [(start, end)]


@pytest.mark.parametrize("domain, query", [
    ("accounting", "sales this month, no discounts, vs last month"),  # "no" inside a clause says no correction
    # a review's probes: a tag question, "no." for number, a clause that adds the next date
    ("cfo", "Sales were low in Q3, no? Compare them with Q2."),
    ("cfo", "Q3 mein kharcha zyada tha, nahi? Q4 se compare karo"),
    ("cfo", "Q3: no. of invoices; Q4: no. of invoices"),
    ("accounting", "the October invoices, sorry, and the November ones"),
    ("cfo", "expenses for March and, wait, also April"),
    ("cfo", "October ka sales dikhao, arre, November ka bhi chahiye"),
    ("accounting", "penjualan Desember, eh, sama Januari juga"),
    ("cfo", "Revenue in Q1 2025. Actually, compare it with Q1 2024."),
    ("cfo", "Cash balance in December, oh no, lower than November?"),
    # a second review's: "as well", "both", a comparison after the later date, a question about what was said
    ("accounting", "Expenses in October, sorry, November as well"),
    ("accounting", "bills due in February, sorry, bills due in March, I need both"),
    ("cfo", "December ki sales, arre, November se compare karo"),
    ("accounting", "Laba Desember, tunggu, Januari lebih tinggi nggak?"),
    ("accounting", "December expenses, wait, does that include November invoices?"),
    # words that say "wrong" or "not happening" of the records, inside a clause
    ("accounting", "faktur bulan lalu yang keliru dan bulan ini"),
    ("accounting", "invoices raised on 1 Dec, put on hold on 15 Dec"),
    ("cfo", "entries posted in Q3 to the wrong period, compare with Q4"),
    ("cfo", "paid nahi hua jo, invoices pichle mahine aur is mahine ke"),
    ("accounting", "sorry, invoices for last month and this month"),  # nothing said before it to take back
    ("accounting", "actually the sales of this month and of last month"),
])
def test_such_a_word_inside_a_clause_takes_nothing_back(shipped, domain, query):
    assert len(_ranges(shipped(domain).route(query, today=TODAY))) == 2
