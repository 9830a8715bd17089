"""How-to questions (words.yaml `advice`) ask no tool unless a verb of the domain's tools follows (issue 22,
labelled held-out sets 14-46). A verb for a kind no tool of the domain has is no such verb ("pay" where nothing
pays: "how do I pay my home electricity bill with GoPay?" listed bills), and romanised Hindi's verb-final
how-to may hold a word between ("yoga mein balance kaise improve karein?"); a verb of the tools there asks the
tool, as it does in English ("GST kaise file karein", "how do I file GSTR-1")."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


@pytest.mark.parametrize("domain, query", [
    ("accounting", "how do I pay my home electricity bill with GoPay?"),
    ("accounting", "gmn cara bayar tagihan kartu kredit pribadi lwt m-banking"),
    ("cfo", "yoga mein balance kaise improve karein?"),
    ("cfo", "mobile ka balance recharge kaise karu?"),
])
def test_a_how_to_question_asks_no_tool(routers, domain, query):
    d = routers[domain].route(query, today=TODAY).to_dict()
    assert d["status"] == "not_found"


@pytest.mark.parametrize("domain, query, tool", [
    ("accounting", "how do I list unpaid invoices", "invoice_list"),
    ("cfo", "how do I record a payment from Sinha Traders", "record_payment"),
    ("cfo", "GST return kaise file karein?", "file_gst_return"),
    ("cfo", "bank balance kaise check karein", "bank_balance"),
    ("cfo", "GST kaise file karein", "file_gst_return"),
    ("cfo", "payment kaise record karein", "record_payment"),
    ("cfo", "profit kaise check karein", "profit_and_loss"),
])
def test_a_how_to_naming_what_the_tools_do_is_routed(routers, domain, query, tool):
    d = routers[domain].route(query, today=TODAY).to_dict()
    assert (d["status"], d["matches"][0]["name"]) == ("activated", tool)
