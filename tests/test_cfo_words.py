"""cfo's romanised Hindi: "bharna" (to pay, to fill in) asks how much GST is to be paid, a figure, not
whether a return was filed; "GST bhara kya" still asks for the filing status (patterns.yaml)."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


def test_bhara_kya_asks_for_the_filing_status(cfo):
    r = cfo.route("GST bhara kya December ka", today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == "gst_filing_status"


@pytest.mark.parametrize("query", [
    "GSTR-1 bharna hai aaj, prepare kar do",    # review: "return / GSTR bharna" is filing, not paying
    "is mahine ka return bharna hai, kab tak",
])
def test_bharna_a_return_is_filing_it(cfo, query):
    names = [m["name"] for m in cfo.route(query, today=TODAY).to_dict()["candidates"][:2]]
    assert names[0] in ("file_gst_return", "gst_filing_status")



@pytest.mark.parametrize("query", [
    "which expense heads grew the most, month on month",
    "kharcha month on month, kaunsi category sabse zyada badhi?",
])
def test_what_grew_the_most_among_expenses_is_the_expense_trend(cfo, query):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == "expense_trend"


@pytest.mark.parametrize("query", ["which customers' sales grew the most this year", "which product line grew the most"])
def test_growth_said_of_sales_is_no_expense_trend(cfo, query):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["candidates"][0]["name"] != "expense_trend"


@pytest.mark.parametrize("query", [
    "which product category grew the most in sales this year",   # review: the growth's subject is no expense head
    "after cutting costs, which customers grew the most",
])
def test_a_growth_of_something_else_is_no_expense_trend(cfo, query):
    assert cfo.route(query, today=TODAY).to_dict()["candidates"][0]["name"] != "expense_trend"


def test_a_payment_asked_about_is_no_recording(cfo):
    # review: "against invoice" with no amount received is a question, not a write
    r = cfo.route("is any payment pending against invoice 554?", today=TODAY).to_dict()
    assert not (r["status"] == "activated" and r["matches"][0]["name"] == "record_payment")
