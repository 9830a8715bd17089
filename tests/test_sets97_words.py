"""The words this stop's rounds gave the lexicons (README "Sets 97 to 102"), each asserted as a user sees it: the
datasource, the power or the tool a question reaches. Phrasings written for this test, none copied from a set."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo", "powers", "factory")}


def _route(routers, domain, query):
    return routers[domain].route(query, today=TODAY).to_dict()


@pytest.mark.parametrize("query, datasource", [
    ("how many trays got reworked on line 3 yesterday", "quality"),            # rework: quality's phrase
    ("berapa unit yang dikerjain ulang kemarin", "quality"),
    ("kapan mesin filler terakhir diservis?", "maintenance"),                   # serviced: preventive maintenance
    ("has anyone fixed the labeller yet", "maintenance"),                       # fixed: repairs
    ("are we on track for the daily target on line 2", "production"),          # target: production's phrase
    ("how much shrink film is left in the store", "inventory"),                # left in the: the stock level
    ("how many cartons were rejected at QC this morning", "quality"),          # rejected: the defect rate
    ("who was a no-show on the night shift", "hr"),                            # no-show: absent
    ("open repair work orders for the extruder", "maintenance"),               # a repair's work order
])
def test_factory_words(routers, query, datasource):
    assert _route(routers, "factory", query)["datasource"] == datasource


@pytest.mark.parametrize("query, status, powers", [
    ("singapore mein abhi kitne baje hain", "activated", ["time"]),                    # kitne baje: the time
    ("let my team know the truck is late", "multiple_matches", ["slack", "gmail"]),
    ("tell the staff the office opens at ten tomorrow", "multiple_matches", ["slack", "gmail"]),
    ("what is our churn rate this quarter", "weak_matches", ["analytics", "crm", "stripe"]),   # churn: a topic
    ("how did we do overall last month", "weak_matches", ["analytics", "crm", "stripe"]),
    ("remember this: Rina owns the vendor contracts", "activated", ["memory"]),
    ("remember when we moved to postgres? how big is the orders table now", "multiple_matches", ["postgres", "memory"]),
])
def test_powers_words(routers, query, status, powers):
    r = _route(routers, "powers", query)
    assert r["status"] == status
    offered = [c["name"] for c in r["candidates"]][: len(powers)]
    assert sorted(offered) == sorted(powers)


@pytest.mark.parametrize("domain, query, tool", [
    ("cfo", "suppliers ko kitna dena hai, age-wise dikhao", "payables_summary"),        # ageing: both ageing reports
    ("cfo", "how much cash on hand and in the bank do we have today", "cash_position"),  # cash in hand: cash_position's
    ("accounting", "customer invoices not yet paid, bucketed by days overdue", "receivables_aging"),
    ("accounting", "which customers have owed us money for over 60 days?", "receivables_aging"),   # "owed us"
])
def test_finance_words(routers, domain, query, tool):
    assert _route(routers, domain, query)["candidates"][0]["name"] == tool


@pytest.mark.parametrize("domain, query", [("cfo", "is that number right?"), ("accounting", "is this correct?")])
def test_a_confirmation_with_no_subject_is_asked_what(routers, domain, query):
    assert _route(routers, domain, query)["status"] == "needs_clarification"


def test_a_confirmation_after_a_subject_still_answers(routers):
    d = _route(routers, "cfo", "sales last month were 50 lakh, is that right?")
    assert (d["status"], d["candidates"][0]["name"]) == ("activated", "sales_summary")
