"""Dates that say when something happens, not what is asked (routing.core.occasions): a day ahead beside a period
("we are seeing the auditors tomorrow and they want the expenses from last quarter") or a date right after a framing
phrase ("before the board meeting on Monday, show me the P&L for December") is the occasion; the period is the
question's date. A question with one date keeps it. Phrasings written before the mechanism, none from a set."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


@pytest.mark.parametrize("domain, query, tool, period", [
    ("accounting", "we are seeing the auditors tomorrow and they want the expenses from last quarter", "expense_list",
     ("2025-10-01", "2025-12-31")),
    ("accounting", "before the board meeting on Monday, show me the profit and loss for December", "financial_profit_loss",
     ("2025-12-01", "2025-12-31")),
    ("accounting", "besok ada rapat sama bank, tolong tampilkan pengeluaran bulan lalu", "expense_list",
     ("2025-12-01", "2025-12-31")),
    ("cfo", "the investors visit tomorrow, so give me the P&L for last quarter", "profit_and_loss",
     ("2025-10-01", "2025-12-31")),
])
def test_the_occasion_is_no_period(routers, domain, query, tool, period):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["matches"][0]["name"] == tool
    assert [(d["start"], d["end"]) for d in r["dates"]] == [period]


@pytest.mark.parametrize("domain, query, day", [
    ("accounting", "bills due tomorrow", ("2026-01-23", "2026-01-23")),
    ("accounting", "invoices from last Monday", ("2026-01-12", "2026-01-12")),   # the Monday of last week
])
def test_one_date_is_kept(routers, domain, query, day):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert [(d["start"], d["end"]) for d in r["dates"]] == [day]
