"""Intent entities (tools.yaml `entities:`) land in the pipeline's parameters."""
from __future__ import annotations

import pytest

from routing import Router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo() -> Router:
    return Router.load("cfo")


def test_amount_party_and_date_of_a_payment(cfo):
    r = cfo.route("record payment of Rs 50,000 from Sharma Traders on 15 march", today=TODAY)
    (step,) = r.pipeline
    assert step["tool"] == "record_customer_payment"
    # The party without the amount or its currency symbol (its case as the router keeps it).
    assert step["params"]["customer"].casefold() == "sharma traders"
    assert step["params"]["amount"] == 50000 and step["params"]["date"] == "2025-03-15" and "open" not in step
    assert "amount read from the question: 50000" in r.path_fields.pipeline_notes


@pytest.mark.parametrize("query, amount", [
    ("Bansal ne 1,25,000 diye, payment record karo", 125000),
    ("record payment of ₹2,500.50 from Iyer Brothers on 15 march", 2500.5),
    ("record payment from Iyer Brothers on 15 march", None),  # the date's 15 is no amount
])
def test_indian_grouping_and_a_date_number_is_not_an_amount(cfo, query, amount):
    r = cfo.route(query, today=TODAY)
    (step,) = r.pipeline
    assert step["tool"] == "record_customer_payment"
    assert step["params"].get("amount") == amount


def test_an_intent_without_an_amount_entity_takes_no_number(cfo):
    r = cfo.route("top 5 customers this year", today=TODAY)
    assert all("amount" not in step["params"] for step in r.pipeline)
