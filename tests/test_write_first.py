"""A list's "all" before a strong write verb says what the write is about (routing.core.router._write_first): "all the
customers who are late, send them a reminder" and Hindi's verb-final "saare overdue customers ko reminder bhej do" ask
for the reminders, as "send reminders to all overdue customers" does; "list all overdue customers" still lists."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query, status, tool", [
    ("all customers who are late, send them a reminder", "activated", "send_payment_reminders"),
    ("saare late customers ko WhatsApp pe reminder bhej do", "activated", "send_payment_reminders"),
    ("list all overdue customers", "activated", "overdue_customers"),
    ("all overdue customers, biggest first", "activated", "overdue_customers"),
])
def test_the_write_asked_after_all(cfo, query, status, tool):
    d = cfo.route(query, today=TODAY).to_dict()
    assert (d["status"], d["candidates"][0]["name"]) == (status, tool)


@pytest.mark.parametrize("query", [
    "list the overdue customers and then send them reminders",      # two asks: the LLM path's (002)
    "all overdue customers, do not send reminders yet",              # the write negated
    "get the list of overdue customers, I'll send the reminders later",
])
def test_no_write_is_activated_where_it_is_put_off_or_one_of_two(cfo, query):
    d = cfo.route(query, today=TODAY).to_dict()
    assert not (d["status"] == "activated" and d["candidates"][0]["name"] == "send_payment_reminders")
