"""A goal said first, then the ask after a comma (routing.core.framing.background_clauses, `stated`): "lagi ngitung
modal kerja, tampilkan arus kas Q4 2025" asks for the cash flow; the working capital ("modal kerja") is what the
speaker is doing, no second tool. Only where the first clause opens with a word of the speaker's own and holds no
verb of the domain, and the ask is the second clause and ends in no "?" (such a clause narrows the first one).
Phrasings written before the mechanism, none from a labelled set."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


def route(routers, domain, query):
    return routers[domain].route(query, today=TODAY).to_dict()


def test_a_goal_before_the_ask_is_no_second_tool(routers):
    out = route(routers, "accounting", "lagi ngitung modal kerja, tampilkan arus kas Q4 2025")
    assert out["status"] == "activated"
    top = out["matches"][0]
    assert top["name"] == "financial_cash_flow"
    assert (top["suggested_params"]["date_from"], top["suggested_params"]["date_to"]) == ("2025-10-01", "2025-12-31")


@pytest.mark.parametrize("domain, query, tool", [
    # the first clause names the ask, the second narrows it: both read as asked
    ("accounting", "hutang ke pemasok yang udah lewat jatuh tempo, mana yang harus dilunasi duluan?", "payables_aging"),
    ("accounting", "Saya disuruh cek utang kita ke pemasok: mana yang sudah lewat jatuh tempo, dan sudah telat berapa lama?",
     "payables_aging"),
    ("cfo", "dec mein sabse zyada kharcha kis head pe hua, top 5 ranked", "top_expenses"),
])
def test_a_first_clause_that_names_the_ask_stays_asked(routers, domain, query, tool):
    out = route(routers, domain, query)
    assert out["status"] == "activated"
    assert out["matches"][0]["name"] == tool


def test_what_the_answer_is_for_inside_a_clause_is_no_ask(routers):
    """words.yaml `purpose_within`: "before we approve payments" to the clause's end says what it is for."""
    cfo = routers["cfo"]
    out = cfo.route("we must review everything before we approve payments, show the bank balance", today=TODAY).to_dict()
    assert out["status"] == "activated" and out["matches"][0]["name"] == "bank_balance"
    out = cfo.route("we should double-check the numbers before we sign off the audit - find the bill from Mehta Steel in December",
                    today=TODAY).to_dict()
    top = out["matches"][0]
    assert top["name"] == "bill_lookup"
    assert "audit" not in top["suggested_params"]["query"] and "Mehta Steel" in top["suggested_params"]["query"]


def test_before_a_past_verb_tells_when_not_what_for(routers):
    # "before I got ..." tells when something happened: no purpose set aside (its words may still be a search's)
    from routing.core.aside import _told
    told = _told(routers["accounting"].index.domain.words)
    assert told("got") and told("closed") and not told("need") and not told("spend") and not told("approve")


def test_a_goals_date_gives_way_to_the_asks(routers):
    top = route(routers, "accounting", "budgeting for next year, show the profit and loss for 2025")["matches"][0]
    assert top["name"] == "financial_profit_loss"
    assert (top["suggested_params"]["date_from"], top["suggested_params"]["date_to"]) == ("2025-01-01", "2025-12-31")
