"""A verb's word that is also a vague word ("details", "overview", "report", "summary", "rekap") names a kind of
answer, not what it is about (issue 22, labelled held-out sets 19-47): with no term of the lexicon the question
gets the clarifying question, where the words beside it ("asap", "quick", "usual") had made it not_found. Beside
a term the verb still asks for its kind ("sales summary for December")."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


@pytest.mark.parametrize("domain, query", [
    ("cfo", "Kindly share the details at your earliest convenience."),
    ("cfo", "kindly share the details asap"),
    ("accounting", "I need a quick overview"),
    ("accounting", "export the usual report for me"),
    ("cfo", "can u pull a report for me?"),
    ("accounting", "bisa minta rekapnya ga kak?"),
])
def test_a_kind_of_answer_with_nothing_to_say_what_is_asked_what(routers, domain, query):
    d = routers[domain].route(query, today=TODAY).to_dict()
    assert d["status"] == "needs_clarification"
    assert d["clarifying_question"] == routers[domain].domain.settings.clarifying_question


@pytest.mark.parametrize("domain, query, tool", [
    ("accounting", "sales summary for December 2025", "financial_sales_summary"),
    ("cfo", "GST summary for last month", "gst_summary"),
    ("accounting", "invoice INV-0788 full details", "invoice_detail"),
])
def test_beside_a_term_the_verb_still_asks_for_its_kind(routers, domain, query, tool):
    d = routers[domain].route(query, today=TODAY).to_dict()
    assert d["matches"][0]["name"] == tool
    assert d["status"] in ("activated", "multiple_matches")


@pytest.mark.parametrize("domain, query", [
    ("cfo", "could you check the weather?"),
    ("accounting", "can you get me a taxi?"),
])
def test_a_word_of_another_subject_stays_not_found(routers, domain, query):
    assert routers[domain].route(query, today=TODAY).to_dict()["status"] == "not_found"
