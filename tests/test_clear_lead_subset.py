"""A leader holding every term of a one-thing question, ahead by the margin, where each close rival holds only some of
the leader's terms, is lifted to `high` (settings scoring.clear_lead_subset; routing.core.sole.mark_clear_lead): "GST
summary - output tax, ITC and net payable" names gst, tax and payable; tds_summary holds tax and payable only. The
lift shows as the `lead` part of the breakdown. Labelled sets: 18 fixed, none lost (README "Sets 97 to 102")."""
from __future__ import annotations

import pytest

from routing import load_router
from routing.core.lexicon import load_domain
from routing.designs import build_router

TODAY = "2026-01-22"
QUERY = "November ka GST summary do - output tax, ITC aur net payable kitna bana"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


def test_a_rival_holding_only_some_of_the_leaders_terms_leaves_a_clear_answer(cfo):
    d = cfo.route(QUERY, today=TODAY).to_dict()
    top = d["candidates"][0]
    assert d["status"] == "activated" and top["name"] == "gst_summary"
    assert top["score_breakdown"].get("lead", 0) > 0
    assert d["candidates"][1]["name"] == "tds_summary"


def test_without_the_setting_the_same_question_stays_a_choice():
    domain = load_domain("cfo", "lexicons")
    w = domain.settings.weights
    router = build_router(domain.with_weights(clear_lead_subset=0.0))
    d = router.route(QUERY, today=TODAY).to_dict()
    assert w.clear_lead_subset > 0
    assert d["status"] == "multiple_matches" and d["candidates"][0]["name"] == "gst_summary"


@pytest.mark.parametrize("query", [
    "gst summary + filing status both",            # two things asked: the LLM path's, no lift
    "how many reminders went out for unpaid invoices",   # a writer's related terms are wide: never lifted (a review)
    "invoice pe customer ka payment aaya kya",
])
def test_a_question_asking_two_things_is_not_lifted(cfo, query):
    d = cfo.route(query, today=TODAY).to_dict()
    assert d["status"] != "activated" or d["candidates"][0]["score_breakdown"].get("lead", 0) == 0
