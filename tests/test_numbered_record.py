"""One record named by its number is asked about, not a set of records filtered: a list's status term set
("open" / "paid" + invoice) does not fire on the numbered term, and invoice_detail holds what its
description says it shows (lines, taxes, payments and status). What a user sees: the tool and tier."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def accounting():
    return load_router("accounting")


def _route(router, query):
    return router.route(query, today=TODAY).to_dict()


@pytest.mark.parametrize("query", [
    "open invoice 1077 and show its line items",                       # "open" reads as unpaid
    "detil invoice no 1456 dong, udah dibayar sebagian belum?",
    "INV-2026-0042: line items, PPN and payment status",
    "what's on invoice INV-0456 - items, tax and has it been paid?",
])
def test_a_numbered_invoice_asked_about_is_its_detail(accounting, query):
    r = _route(accounting, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == "invoice_detail"


@pytest.mark.parametrize("query, status", [
    ("open invoices", "unpaid"),
    ("paid invoices", "paid"),
    ("unpaid invoices of customer 1045", "unpaid"),   # the number names a customer: the invoices are still filtered
])
def test_a_status_filter_over_invoices_stays_a_list(accounting, query, status):
    r = _route(accounting, query)
    m = r["matches"][0]
    assert r["status"] == "activated" and m["name"] == "invoice_list"
    assert m["suggested_params"].get("status") == status


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query", [
    "Sethi & Co ne aaj 1.5 lakh bheja INV-2210 ke against, entry kar do",
    "Joshi & Co se 75k aaye hain invoice 1180 ke against, entry kar do",
])
def test_a_payment_against_a_numbered_invoice_creates_no_invoice(cfo, query):
    # the invoice exists (it has a number): the write that makes invoices is not asked for
    r = _route(cfo, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == "record_payment"


@pytest.mark.parametrize("query, tool", [
    ("Chopra & Co ne NEFT se 1.1 lakh bheja INV-2231 ke against, entry kar do", "record_payment"),  # an amount after a term
    ("record rent expense of 25000", "record_expense"),                                              # a value after a marker
    ("January ka office rent 65k expense mein record kar do", "record_expense"),
    ("create an invoice for Reddy Constructions, 85,000 plus 18% GST", "create_invoice"),
])
def test_an_amount_names_no_record(cfo, query, tool):
    r = _route(cfo, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool
