"""cfo's romanised Hindi: "bharna" (to pay, to fill in) asks how much GST is to be paid, a figure, not
whether a return was filed; "GST bhara kya" still asks for the filing status (patterns.yaml)."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query, tool", [
    ("December mein kitna GST bharna padega ITC adjust karke", "gst_summary"),
    ("GST kitna bharna hai is mahine", "gst_summary"),
    ("GST bhara kya December ka", "gst_filing_status"),
])
def test_bharna_is_paying(cfo, query, tool):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool


@pytest.mark.parametrize("query", [
    "expense heads that grew the most, month on month",
    "kharcha month on month, kaunsi category sabse zyada badhi?",
])
def test_what_grew_the_most_among_expenses_is_the_expense_trend(cfo, query):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == "expense_trend"


@pytest.mark.parametrize("query", ["which customers' sales grew the most this year", "which product line grew the most"])
def test_growth_said_of_sales_is_no_expense_trend(cfo, query):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["candidates"][0]["name"] != "expense_trend"
