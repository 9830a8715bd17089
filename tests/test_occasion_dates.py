"""Days that say when something happens, not what is asked (routing.core.occasions, words.yaml `occasions`): a day
ahead in a clause saying a meeting or a visit, beside a period ("we are seeing the auditors tomorrow and they want the
expenses from last quarter"), or a day right after a framing phrase saying one ("before the board meeting on Monday,
show me the P&L for December"), is the occasion. Two asked dates stay ("bills due tomorrow and payments from last
week", "my boss wants last month's and this month's sales": a review's probes). Phrasings written before the
mechanism and after the review, none from a set."""
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
    # a day, past or ahead, within three words of an occasion beside a longer period
    ("accounting", "the auditors met us on Tuesday and they want the expenses of last quarter", "expense_list",
     ("2025-10-01", "2025-12-31")),
    ("cfo", "Monday ki board meeting ke liye, pichle quarter ka P&L chahiye", "profit_and_loss", ("2025-10-01", "2025-12-31")),
    # a period wholly ahead right after an occasion's word, beside a period gone by (development set 102)
    ("cfo", "board meeting next week and I still can't tell if we made a profit last quarter - P&L please", "profit_and_loss",
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


@pytest.mark.parametrize("domain, query, n", [
    ("accounting", "bills due tomorrow and payments from last week", 2),
    ("cfo", "cash forecast for tomorrow vs yesterday", 2),
    ("accounting", "my boss wants last month's and this month's sales", 2),
    ("cfo", "sales yesterday, no wait I mean last week vs this week", 2),
    ("accounting", "hi team, yesterday's and today's invoices", 2),
    ("accounting", "expenses on Monday compared with last week", 2),   # no occasion said
    # the occasion is what is asked of (a term before it), or the period ahead is asked
    ("accounting", "what did we spend on the team offsite on 5 December and in the whole of November", 2),
    ("accounting", "compare the budget for the coming quarter with last quarter's sales", 2),
    ("accounting", "invoices due by the audit deadline on 31 January and those issued in December", 2),
])
def test_two_asked_dates_stay(routers, domain, query, n):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert len(r["dates"]) == n


def test_the_occasions_clause_is_no_search_text(routers):
    r = routers["accounting"].route("the auditors come tomorrow, show invoices for Acme from last month", today=TODAY).to_dict()
    assert [(d["start"], d["end"]) for d in r["dates"]] == [("2025-12-01", "2025-12-31")]
    assert all("auditors" not in str(m["suggested_params"]) for m in r["matches"])


def test_the_occasion_is_named_in_a_note(routers):
    # the date is set aside, and the user is told which and why (the Playground shows the match's notes)
    m = routers["accounting"].route("We meet the bank tomorrow and they'd like to see the payments our customers made to "
                                    "us last month", today=TODAY).matches[0]
    assert m.name == "payment_list" and m.suggested_params["date_from"] == "2025-12-01"
    assert any('"tomorrow"' in n and "set aside" in n for n in m.param_notes)
    one = routers["accounting"].route("bills due tomorrow", today=TODAY).matches[0]
    assert not any("set aside" in n for n in one.param_notes)


# A date naming the occasion itself, two words or fewer before its word: "Tuesday's partner review", "the June
# audit"; an occasion the domain's tools are about ("meetings" to the calendar) is asked, and so are two dates an
# occasion's word comes before ("the conference last month compared to this month": a review's probe).
@pytest.mark.parametrize("domain, query, tool, period", [
    ("accounting", "for Tuesday's partner review please list the unpaid bills from last month", "bill_list",
     ("2025-12-01", "2025-12-31")),
    ("accounting", "for next month's offsite, I need the expenses of Q4 2025", "expense_list",
     ("2025-10-01", "2025-12-31")),
    ("cfo", "for the June audit I want last financial year's balance sheet", "balance_sheet",
     ("2024-04-01", "2025-03-31")),
])
def test_a_date_naming_the_occasion_is_no_period(routers, domain, query, tool, period):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["matches"][0]["name"] == tool
    assert [(d["start"], d["end"]) for d in r["dates"]] == [period]


def test_an_occasion_the_tools_are_about_is_asked():
    from datetime import date
    a = load_router("powers").router.analyze("which meetings did I have last week, and which emails came in this week",
                                             today=date(2026, 1, 22))
    assert [d.text for d in a.dates] == ["last week", "this week"] and not a.occasions


def test_dates_after_an_occasions_word_are_asked(routers):
    r = routers["cfo"].route("what did we spend on the conference last month compared to this month", today=TODAY).to_dict()
    assert len(r["dates"]) == 2


@pytest.mark.parametrize("domain, query, period", [
    # an occasion's word before a date alone in its clause: that date is the occasion's (a review's probes)
    ("cfo", "auditors visit next week, so I need the balance sheet as of 30 June 2025", ("2025-06-30", "2025-06-30")),
    ("cfo", "rapat hari Kamis, tolong siapkan laba rugi bulan lalu", ("2025-12-01", "2025-12-31")),
])
def test_an_occasion_alone_in_its_clause_is_no_period(routers, domain, query, period):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert [(d["start"], d["end"]) for d in r["dates"]] == [period]


@pytest.mark.parametrize("domain, query, periods", [
    # a period ahead that a term of the domain asks of stays (a review's probes)
    ("accounting", "invoices coming due next month vs invoices paid last month", 2),
    ("cfo", "which bills are coming due next week compared with what we paid last week", 2),
])
def test_a_period_ahead_that_is_asked_stays(routers, domain, query, periods):
    assert len(routers[domain].route(query, today=TODAY).to_dict()["dates"]) == periods
