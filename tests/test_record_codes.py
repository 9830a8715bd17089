"""A record's code is the argument, whole and alone (issue 22, labelled held-out sets 25-49, read in the playground's
suggested parameters): "INV-0788 full details" gave invoice_id "INV-0788 full"; "INV/25-26/0876" read "26/0876" as
a date (no month 26) and searched for "25"; "show INV-0788" searched "0788"; "the full breakdown of INV/2026/0087
(items, PPN, payments). thx!" gave "full INV/2026/0087 thx"."""
from __future__ import annotations

from datetime import date

import pytest

from routing import load_router
from routing.dates import find_dates, load_date_lexicon

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


@pytest.mark.parametrize("domain, query, tool, param, value", [
    ("accounting", "invoice INV-0788 full details", "invoice_detail", "invoice_id", "INV-0788"),
    ("accounting", "detail faktur INV-0788 lengkap", "invoice_detail", "invoice_id", "INV-0788"),
    ("accounting", "Ticket #4420 - customer wants the full breakdown of INV/2026/0087 (items, PPN, payments). thx!",
     "invoice_detail", "invoice_id", "INV/2026/0087"),
    ("cfo", "show INV-0788 please", "invoice_lookup", "query", "INV-0788"),
    ("cfo", "INV/25-26/0876 kis customer ka hai aur uska status kya hai?", "invoice_lookup", "query", "INV/25-26/0876"),
    ("accounting", "find invoice for Sharma Traders", "invoice_search", "query", "Sharma Traders"),
    ("accounting", "cari invoice PT Maju Jaya", "invoice_search", "query", "PT Maju Jaya"),
    ("accounting", "details for invoice 1077 thanks", "invoice_detail", "invoice_id", "1077"),
    ("accounting", "look up invoice #3321 urgent", "invoice_search", "query", "3321"),
    # a number's own words and a word with digits are the search's (a review's probes)
    ("accounting", "find product 500 ml bottle", "product_search", "query", "500 ml bottle"),
    ("accounting", "cari supplier baut m8 stainless", "contact_search", "query", "baut m8 stainless"),
    ("accounting", "find product iphone 15 pro max", "product_search", "query", "iphone 15 pro max"),
])
def test_the_code_is_the_argument(routers, domain, query, tool, param, value):
    d = routers[domain].route(query, today=TODAY).to_dict()
    m = d["matches"][0]
    assert m["name"] == tool
    assert m["suggested_params"][param] == value


@pytest.mark.parametrize("query", ["show INV-0788 please", "INV-1207: lines, tax, payments. everything on it."])
def test_an_invoice_code_alone_names_the_invoice(routers, query):
    # the books' own code "INV-0788" (one group of digits, not only "INV/2026/0042"): the invoice itself
    d = routers["accounting"].route(query, today=TODAY).to_dict()
    assert d["status"] != "not_found" and d["matches"][0]["name"] == "invoice_detail"


def test_a_code_is_no_date_but_a_date_in_a_file_name_is():
    lx = load_date_lexicon()
    today = date(2026, 1, 22)
    assert find_dates("INV/25-26/0876 kis customer", today=today, lexicon=lx) == []
    found = find_dates("sales_report-2002-10-09.xlsx", today=today, lexicon=lx)
    assert [(d.start.isoformat(), d.end.isoformat()) for d in found] == [("2002-10-09", "2002-10-09")]
    bad = find_dates("from 26/13/2025", today=today, lexicon=lx)  # not glued to a code: still reported, unresolved
    assert len(bad) == 1 and not bad[0].resolved
