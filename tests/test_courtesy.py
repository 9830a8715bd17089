"""Greetings, thanks and goodbyes ask for nothing (words.yaml `courtesy`, set aside as framing is): a message of
them alone is not_found, not a clarifying question or a weak guess; a question after them routes as without."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


@pytest.mark.parametrize("domain, query", [
    ("accounting", "good night, thanks for everything"),
    ("accounting", "thanks, that's all for today"),
    ("accounting", "Thank you very much indeed, that will be all for today."),
    ("accounting", "halo semuanya, apa kabar?"),
    ("accounting", "terima kasih banyak ya"),
    ("cfo", "namaste ji, kaise ho?"),
    ("cfo", "good morning ji, how are you doing today?"),
    ("cfo", "Namaste ji, aap kaise hain?"),
])
def test_courtesy_alone_asks_nothing(routers, domain, query):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["status"] == "not_found"
    assert r["dates"] == []  # "today" in "that's all for today" is no period of the data


@pytest.mark.parametrize("domain, query, tool", [
    ("accounting", "hi, show me all invoices", "invoice_list"),
    ("accounting", "selamat pagi, penjualan hari ini berapa?", "financial_sales_summary"),
    ("accounting", "Selamat pagi, mohon ditampilkan daftar semua tagihan pembelian dari supplier bulan lalu. Terima kasih banyak.", "bill_list"),
    ("cfo", "good morning, sales today?", "sales_summary"),
    ("cfo", "namaste ji, pichle mahine ka profit kitna tha?", "profit_and_loss"),
])
def test_a_question_after_courtesy_routes_as_without(routers, domain, query, tool):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool


@pytest.mark.parametrize("domain, query, param, value", [
    ("accounting", "invoices of Hello Traders", "query", "Hello Traders"),
    ("accounting", "Good Day Biscuits invoices", "query", "Good Day Biscuits"),
    ("accounting", "faktur Toko Selamat Pagi", "query", "Toko Selamat Pagi"),
    ("cfo", "Namaste Foods ka ledger", "customer", "Namaste Foods"),
])
def test_courtesy_inside_a_name_is_the_name(routers, domain, query, param, value):
    # a greeting counts only as a clause of its own: inside a name it is the name (a review's probes)
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["suggested_params"][param] == value


def test_how_did_it_happen_is_no_greeting(routers):
    # Hindi "kaise ho gaya" (how did it happen) is no "kaise ho" (how are you): no write on the fast path either way
    r = routers["cfo"].route("payment kaise ho gaya double?", today=TODAY).to_dict()
    assert r["status"] != "activated"


def test_a_name_in_title_case_after_a_comma_is_no_greeting(routers):
    r = routers["accounting"].route("invoices for Uber, Good Day", today=TODAY).to_dict()
    assert r["matches"][0]["suggested_params"]["query"] == "Uber, Good Day"
