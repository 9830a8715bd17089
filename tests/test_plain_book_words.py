"""Plain words for the books: "what we own against what we owe" is the balance sheet (asset + payable,
patterns.yaml), "what we owe" alone stays payables, and owning one thing is no asset list ("we own a van;
how much do we still owe for it"); "what do we sell" / "how much do we sell X for" ask about the products
(accounting), "how much did we sell" and "what did we sell" about sales."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


@pytest.mark.parametrize("domain, query, tool", [
    ("cfo", "what we own against what we owe, as of the end of December", "balance_sheet"),
    ("cfo", "is there a way to see what we owned and owed at the close of last financial year?", "balance_sheet"),
    ("accounting", "on paper, what's the business worth today - everything we own minus everything we owe", "financial_balance_sheet"),
])
def test_own_against_owe_is_the_balance_sheet(routers, domain, query, tool):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["status"] == "activated"
    assert r["matches"][0]["name"] == tool


@pytest.mark.parametrize("domain, query, tool", [
    ("cfo", "how much do we owe our suppliers right now?", "payables_summary"),
    ("accounting", "what do we owe suppliers, by how late it is", "payables_aging"),
])
def test_owe_alone_stays_payables(routers, domain, query, tool):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["matches"][0]["name"] == tool


def test_owning_one_thing_is_no_balance_sheet(routers):
    r = routers["cfo"].route("we own a van; how much do we still owe for it", today=TODAY).to_dict()
    assert r["matches"][0]["name"] == "payables_summary"


@pytest.mark.parametrize("query, tool", [
    ("how much do we sell Kopi Toraja 500g for?", "product_search"),
    ("what have we got in stock right now and what do we sell each thing for", "product_list"),
    ("how much did we sell last month", "financial_sales_summary"),
    ("How much did we sell of Kopi Toraja?", "financial_sales_summary"),
])
def test_what_we_sell_is_the_products_and_how_much_we_sold_the_sales(routers, query, tool):
    r = routers["accounting"].route(query, today=TODAY).to_dict()
    assert r["status"] == "activated"
    assert r["matches"][0]["name"] == tool


@pytest.mark.parametrize("query, tool", [
    ("how much TDS have we cut on contractor payments this quarter, section-wise?", "tds_summary"),
    ("Sharma Traders paid 98,000 after deducting TDS, record the payment against INV-1201", "record_payment"),
])
def test_tds_is_deducted_on_payments(routers, query, tool):
    r = routers["cfo"].route(query, today=TODAY).to_dict()
    assert r["status"] == "activated"
    assert r["matches"][0]["name"] == tool
