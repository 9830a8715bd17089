"""Money in and out is the cash flow statement, unless the payments themselves are named (accounting patterns,
issue 22 labelled set 22): "not the money we paid out - the payments that came in from customers" lists them."""
from __future__ import annotations

from routing import load_router


def test_named_payments_are_the_payment_list():
    acc = load_router("accounting")
    d = acc.route("not the money we paid out - the payments that came in from customers", today="2026-01-22").to_dict()
    assert d["matches"][0]["name"] == "payment_list"
    d = acc.route("cash in and out last month", today="2026-01-22").to_dict()
    assert (d["status"], d["matches"][0]["name"]) == ("activated", "financial_cash_flow")
