"""Issue 22, held-out set 7 round (t_held2): the general rules and the domains' own words that set 6's
misses pointed at (set 7 was written and measured first), each checked as a user sees it: the tool
or power chosen and the tier. Sets 6 and 7 themselves are measured with `python -m routing eval
--golden`, not here."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def powers():
    return load_router("powers")


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


def _route(router, query):
    return router.route(query, today=TODAY).to_dict()


# ------------------------------------------------------------ gateway: a hint is no rival

def test_a_topic_word_does_not_turn_an_exact_keyword_match_into_a_choice(powers):
    # "reports" is a hint of analytics and postgres (a weak match on its own); "files" / "folder"
    # are the filesystem's own keywords: the filesystem is activated, not one of three choices.
    r = _route(powers, "list the files in the reports folder")
    assert r["status"] == "activated" and r["power"]["name"] == "filesystem"


def test_a_topic_word_alone_is_still_a_weak_match(powers):
    r = _route(powers, "generate report")
    assert r["status"] == "weak_matches"


def test_a_rival_with_its_own_word_still_makes_a_choice(powers):
    r = _route(powers, "send a message to the team")
    assert r["status"] == "multiple_matches"
    assert {"slack", "gmail"} <= {m["name"] for m in r["matches"]}


# ------------------------------------------------------------ powers: their descriptions' own words

@pytest.mark.parametrize("query, power", [
    ("show the cloudwatch alarms for the api servers", "aws"),      # "... Lambda functions and CloudWatch"
    ("am i free on thursday afternoon", "calendar"),                # "events, meetings, free time ..."
    ("show the diff of my uncommitted changes", "git"),             # "commit log, status, diffs, branches"
    ("which branch am i on in the local repo", "git"),              # "Local git repositories"
    ("convert 9am Jakarta time to London time", "time"),            # "converting a time between time zones"
])
def test_a_powers_own_description_word_activates_it(powers, query, power):
    r = _route(powers, query)
    assert r["status"] == "activated" and r["power"]["name"] == power


def test_times_as_multiplication_is_still_no_power(powers):
    assert _route(powers, "what is 17 times 23")["status"] == "not_found"


# ------------------------------------------------------------ cfo: the tools' own words, Hindi verbs

@pytest.mark.parametrize("query, tool", [
    ("which items are below reorder level", "stock_summary"),       # "... items below reorder level"
    ("bank debits and credits for last week", "bank_transactions"),  # "(credits and debits)"
    ("kya GSTR-3B file ho gaya is mahine", "gst_filing_status"),      # "filed", not the filing itself
])
def test_a_cfo_tools_own_description_word_activates_it(cfo, query, tool):
    r = _route(cfo, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool


def test_the_hindi_light_verb_kar_is_not_tax(cfo):
    # "pay kar diya ... record karo" (paid ... record it) records a payment; read as "kar" (tax)
    # it came back as tds_summary
    r = _route(cfo, "Gupta Enterprises ne 20000 pay kar diya record karo")
    assert r["matches"][0]["name"] == "record_payment"
    assert all(t["key"] != "tax" for t in r["tokens"])


def test_filing_the_return_is_still_the_action(cfo):
    r = _route(cfo, "GSTR-1 file karo for December")
    assert r["matches"][0]["name"] == "file_gst_return"


def test_chahiye_is_a_function_word_so_a_bare_report_asks_what(cfo):
    # "mujhe report chahiye" = "I want a report": "chahiye" (want / need) says nothing of what, so
    # the bare verb is asked about, as "show me data" is; read as a word of its own it was not_found
    r = _route(cfo, "mujhe report chahiye")
    assert r["status"] == "needs_clarification"


def test_business_is_a_topic_offering_analytics_crm_and_stripe_as_004_does(powers):
    # 004 Low: "analyze my business performance" -> Analytics, CRM (sales pipeline), Stripe (revenue)
    r = _route(powers, "how is the business doing this quarter")
    assert r["status"] == "weak_matches"
    assert [m["name"] for m in r["matches"][:3]] == ["analytics", "crm", "stripe"]


# ------------------------------------------------------------ tools design: every term points to one tool

def test_a_request_whose_terms_are_all_one_tools_own_is_activated(cfo):
    # "biggest" (top) and "spend" (expense) are both top_expenses's own keywords and no other tool
    # claims both; "tell", "where", "goes", "nowadays" diluted it to 0.83, a choice with nothing to choose
    r = _route(cfo, "tell me where the biggest spend goes nowadays")
    assert r["status"] == "activated" and r["matches"][0]["name"] == "top_expenses"
    assert r["path"] == "fast"
    # lifted: by "sole" while no other tool held both terms; expense_trend's description now names
    # "most" (top) and expenses, so the lift is the clear lead's
    assert {"sole", "lead"} & r["matches"][0]["score_breakdown"].keys()


def test_a_term_the_leader_does_not_own_leaves_the_choice(cfo):
    # "late" (overdue) is no keyword of top_expenses: still a choice
    r = _route(cfo, "which costs went up the most lately")
    assert r["status"] == "multiple_matches" and r["matches"][0]["name"] == "top_expenses"


def test_a_near_tie_is_not_lifted_nor_a_term_read_through_a_spelling_correction():
    """The lift settles what the scores already answer: a leader within the margin of its runner-up
    (strong on examples or meaning) stays a choice; a misspelt term does not make the terms 'all its own'."""
    from routing.core.scoring import Scored
    from routing.core.sole import lifted, mark_sole_tool

    class T:
        def __init__(self, name, keywords, related=()):
            self.name, self.keywords, self.related = name, tuple(keywords), tuple(related)

    tools = [T("top_expenses", ["top", "expense"]), T("expense_summary", ["expense"])]
    near = [Scored(0, 0.52, 0.52, {"keyword": 0.52}, [], {}, "keyword"), Scored(1, 0.5, 0.5, {"example": 0.5}, [], {}, "example")]
    assert lifted(mark_sole_tool(near, ["top", "expense"], tools), 0.5, 0.85, 0.1)[0].confidence == 0.52
    clear = [Scored(0, 0.7, 0.7, {"keyword": 0.7}, [], {}, "keyword"), Scored(1, 0.4, 0.4, {"example": 0.4}, [], {}, "example")]
    assert lifted(mark_sole_tool(clear, ["top", "expense"], tools), 0.5, 0.85, 0.1)[0].confidence == 0.85


def test_a_misspelt_term_does_not_count_towards_the_lift(cfo):
    a = cfo.analyze("tell me where the bigest spend goes nowadays", today="2026-01-22")
    fuzzy = [k for k, via in a.concepts.items() if via == "fuzzy"]
    if not fuzzy:
        pytest.skip("no term read through a spelling correction here")
    # no mark for routing.core.sole's sole-tool lift; the clear lead may still mark it, as "bigest" is
    # one slip of a long word (routing.core.sole.sure_correction), no guess
    lift = cfo.score(a)[0].lift
    assert not lift or lift[0] == "lead"
    assert "sole" not in cfo.route("tell me where the bigest spend goes nowadays", today=TODAY).matches[0].score_breakdown


def test_an_analytical_request_over_several_tools_stays_on_the_llm_path(cfo):
    # expense and revenue are only profit_and_loss's related terms: no lift, 002's LLM path
    r = _route(cfo, "compare sales and expenses for the last 3 months and explain why profit fell")
    assert r["status"] != "activated" and r["path"] == "llm"


# ------------------------------------------------------------ tools design: a write with one writer

@pytest.mark.parametrize("query, tool", [
    ("record the bill Kapoor Metals sent us", "create_bill"),          # not bill_lookup, which reads
    ("Joshi ne 5000 pay kar diya record karo", "record_payment"),       # not invoice_lookup
])
def test_a_write_request_with_one_write_tool_for_its_terms_is_activated(cfo, query, tool):
    r = _route(cfo, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool
    assert r["category"] == "bookkeeper" and r["path"] == "fast"


def test_a_write_two_write_tools_could_do_stays_a_choice(cfo):
    # rent (record_expense's own word) and paid (record_payment's): two writers, the agent asks
    r = _route(cfo, "record the rent we paid to the landlord")
    assert r["status"] == "multiple_matches"
    assert {"record_payment", "record_expense"} <= {m["name"] for m in r["matches"]}


def test_a_read_verb_beside_the_write_verb_is_no_sole_write(cfo):
    r = _route(cfo, "which bills did we record this month")
    assert r["matches"][0]["name"] != "create_bill"


def test_have_to_pay_is_payable_not_a_command_to_pay(cfo):
    # "we need to pay" states what is payable (gst_summary: "net GST payable"); read as the verb
    # "pay" it filed the return
    r = _route(cfo, "how much GST do we need to pay for last month")
    assert r["status"] == "activated" and r["matches"][0]["name"] == "gst_summary"
