"""A date alone asks for nothing (routing.core.scoring.score_action): the kind bonus a date range gives ("invoices
from last month" lists) needs a term of the domain beside it, so small talk with a day in it ("kal Mumbai mein mausam
kaisa rahega?", tomorrow's weather in Mumbai) is no report with a period (labelled cfo sets: 4 fixed, none lost)."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.mark.parametrize("domain, query", [
    ("cfo", "kal Mumbai mein mausam kaisa rahega?"),
    ("cfo", "Bangalore mein aaj traffic kaisa hai"),
])
def test_small_talk_with_a_day_in_it_is_not_found(domain, query):
    assert load_router(domain).route(query, today=TODAY).to_dict()["status"] == "not_found"


@pytest.mark.parametrize("domain, query, tool", [
    ("accounting", "invoices from last month", "invoice_list"),
    ("cfo", "sales last month", "sales_summary"),
])
def test_a_date_beside_a_term_still_says_the_kind(domain, query, tool):
    d = load_router(domain).route(query, today=TODAY).to_dict()
    assert d["status"] == "activated" and d["candidates"][0]["name"] == tool
