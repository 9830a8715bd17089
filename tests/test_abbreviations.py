"""Shorthand as people type it at work: a clipped word ("cust", "prod") is the domain's term it starts
(RouterIndex.clipped), the trade's own abbreviations are synonyms ("inv", "b/s", "o/s", "txns"), and
"last mo" is last month."""
from __future__ import annotations

import pytest

from routing.core.analysis import read_word

TODAY = "2026-01-22"


@pytest.mark.parametrize("domain, word, term", [
    ("accounting", "cust", "customer"),
    ("cfo", "cust", "customer"),
    ("cfo", "bal", "balance"),
    ("cfo", "coll", "collection"),
])
def test_a_clipped_word_reads_as_the_term_it_starts(shipped, domain, word, term):
    index = shipped(domain).index
    reading, fix = read_word(index, word, True)
    assert reading == index.entry(term).concept or reading == term
    assert fix is not None and fix[0].startswith(word)  # shown like a typo correction, so it weighs less


@pytest.mark.parametrize("domain, word", [("accounting", "over"), ("accounting", "part"), ("cfo", "run"), ("cfo", "big"),
                                          ("powers", "meet"), ("powers", "sale")])
def test_a_common_word_is_never_clipped(shipped, domain, word):
    """"over" starts overdue and "meet" meeting, yet each is a word of its own."""
    index = shipped(domain).index
    assert index.clipped(word) is not None  # it would be, were it no word of the language
    assert read_word(index, word, True)[1] is None


def test_two_letters_are_no_clip(shipped):
    index = shipped("accounting").index
    assert index.clipped("cu") is None and index.clipped("pr") is None and index.clipped("cus") == ("customer", 37.5)


def test_a_clipped_word_with_a_capital_inside_the_question_is_a_name(shipped):
    r = shipped("cfo").route("payment recd from Sharma Ent 40k against INV-2210", today=TODAY)
    assert not any(c.original == "ent" for c in r.corrections)


@pytest.mark.parametrize("query, param, name", [
    ("Cust Corp ka ledger dikhao", "customer", "Cust Corp"),  # a capital on the question's first word too
    ("ledger for sharma ent", "customer", "sharma ent"),  # beside a word of no lexicon, in lower case
    ("invoices for cust corp", "query", "cust corp"),
    ("payments to tran logistics", "customer", "tran logistics"),
    ("Gupta ent ka ledger dikhao", "customer", "Gupta ent"),  # after a name's word, whatever its case
])
def test_a_clipped_word_in_a_name_stays_the_names(shipped, query, param, name):
    m = shipped("cfo").route(query, today=TODAY).matches[0]
    assert m.suggested_params.get(param) == name, m.suggested_params


def test_a_clipped_word_beside_a_capitalised_name_is_still_clipped(shipped):
    r = shipped("cfo").route("top cust Sharma Traders ka ledger", today=TODAY)
    assert any(c.original == "cust" and c.corrected == "customer" for c in r.corrections)


@pytest.mark.parametrize("query, amount", [
    ("record payment for 2000 rupees from Gupta", 2000),  # a currency word after: an amount, no year
    ("record payment of the whole of 1500 from Mehta", 1500),  # 1500 is no year of the books
])
def test_a_number_after_a_years_word_may_be_an_amount(shipped, query, amount):
    r = shipped("cfo").route(query, today=TODAY)
    assert r.to_dict()["dates"] == [] and r.matches[0].suggested_params.get("amount") == amount


@pytest.mark.parametrize("domain, query, tool, start, end", [
    ("accounting", "pls list all o/s invs", "invoice_list", None, None),
    ("accounting", "b/s for end of last mo pls", "financial_balance_sheet", None, None),
    ("accounting", "payments from each cust last mo", "payment_list", "2025-12-01", "2025-12-31"),
    ("cfo", "HDFC txns last mo", "bank_transactions", "2025-12-01", "2025-12-31"),
    ("cfo", "statement of a/c for Khanna Traders", "customer_ledger", None, None),
    ("cfo", "bva for last qtr", "budget_vs_actual", "2025-10-01", "2025-12-31"),
])
def test_the_trades_abbreviations_route(shipped, domain, query, tool, start, end):
    r = shipped(domain).route(query, today=TODAY)
    assert r.matches and r.matches[0].name == tool, r.matches[:3]
    if start:
        assert [(d["start"], d["end"]) for d in r.to_dict()["dates"]] == [(start, end)]


@pytest.mark.parametrize("domain, word, term", [("cfo", "custs", "customer"), ("accounting", "custs", "customer"), ("cfo", "bals", "balance")])
def test_a_clipped_word_with_its_ending_is_the_term_before_a_one_letter_typo(shipped, domain, word, term):
    """"custs" is customers, not costs (one letter away): the clipped reading goes first."""
    assert read_word(shipped(domain).index, word, True)[0] == term


def test_top_custs_by_revenue_ranks_customers(shipped):
    assert shipped("cfo").route("top 5 custs by sales last qtr", today=TODAY).matches[0].name == "top_customers"
