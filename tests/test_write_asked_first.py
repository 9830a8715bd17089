"""A write asked by its first verb (routing.core.sole.mark_sole_writer / _write_asked): the one write tool
holding the question's terms is activated even where a reader is close behind ("send payment reminders to
all overdue customers": overdue_customers says whom, it is no rival), the reader held at the margin below;
a read asked first stays a read."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query", [
    "send payment reminders to all overdue customers today",      # "all" (a list word) after the write verb
    "send payment reminder ke semua klien yang invoice-nya udah overdue dong",
])
def test_the_write_is_activated_and_the_reader_held_below(cfo, query):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == "send_payment_reminders"
    assert r["category"] == "bookkeeper" and r["path"] == "fast"
    cands = {c["name"]: c["confidence"] for c in r["candidates"]}
    margin = cfo.domain.settings.thresholds.margin
    assert cands["overdue_customers"] == pytest.approx(r["matches"][0]["confidence"] - margin)
    held = next(c for c in r["candidates"] if c["name"] == "overdue_customers")
    assert held["score_breakdown"]["sole_write"] < 0  # the chart shows what held it


@pytest.mark.parametrize("query, tool", [
    ("send me the overdue customers", "overdue_customers"),                # "send me": the list is the ask
    ("create a report of overdue customers", "overdue_customers"),
    ("which supplier bills are still unpaid", "unpaid_bills"),
])
def test_a_read_stays_a_read(cfo, query, tool):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool


@pytest.mark.parametrize("query, domain", [
    ("new bills this month", "cfo"),            # "new", a weak verb: listing them is meant as much
    ("new invoices this month", "accounting"),
])
def test_a_weak_first_verb_lifts_no_writer_past_a_close_reader(query, domain):
    r = load_router(domain).route(query, today=TODAY).to_dict()
    assert r["status"] == "multiple_matches"


def test_add_up_sums_rather_than_adds(cfo):
    r = cfo.route("add up all the expenses for December", today=TODAY).to_dict()
    assert r["matches"][0]["name"] == "expense_summary"


def test_a_writer_holding_a_term_the_leader_lacks_is_a_rival(cfo):
    # "invoice" is create_invoice's, not record_payment's: two writes could be meant, no lift
    r = cfo.route("record the payment and raise the invoice", today=TODAY).to_dict()
    lead = r["candidates"][0]
    assert "sole_write" not in lead.get("score_breakdown", {})


@pytest.mark.parametrize("query", [
    "record a 900 rupee taxi expense for the client meeting",     # "client": create_invoice only relates to customers
    "log the team lunch with the customer, 3,400, as an expense",
])
def test_a_writer_that_only_relates_to_a_word_is_no_rival(cfo, query):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == "record_expense"
    assert "sole_write" in r["matches"][0]["score_breakdown"] or r["matches"][0]["confidence"] >= 0.85
