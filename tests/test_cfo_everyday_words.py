"""Everyday words of the cfo's users (lexicons/cfo/synonyms.yaml, lexicons/_shared/words.yaml) and a
statement's date giving way to the date of the ask's own sentence (routing.core.background)."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query, tool", [
    ("Mehta Steels ko 80 hazaar ka invoice kaat do", "create_invoice"),
    ("a 12k courier bill from Bluedart came in today, put it in the books", "create_bill"),
    ("how big was the topline last quarter", "sales_summary"),
    ("show me expenses month over month since April", "expense_trend"),
])
def test_everyday_words_name_the_tool(cfo, query, tool):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["matches"][0]["name"] == tool and r["status"] == "activated"


def test_a_date_in_an_earlier_sentence_gives_way_to_the_asks_sentence():
    accounting = load_router("accounting")
    r = accounting.route("I joined the team on Monday. My supervisor is reconciling the invoices paid last month, so could you list "
                         "the paid invoices from last month?", today=TODAY).to_dict()
    assert r["matches"][0]["name"] == "invoice_list"
    params = r["matches"][0]["suggested_params"]
    assert (params["date_from"], params["date_to"]) == ("2025-12-01", "2025-12-31")
    # with no date in the ask's sentence the statement's date is all there is, and stays
    r = accounting.route("I joined the team on Monday. My supervisor is reconciling the unpaid invoices, could you list them?", today=TODAY).to_dict()
    assert r["matches"][0]["suggested_params"]["date_from"] == "2026-01-19"
