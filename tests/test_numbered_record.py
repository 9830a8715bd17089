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
