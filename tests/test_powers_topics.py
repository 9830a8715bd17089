"""The gateway's topic words (tools.yaml `hints`, shared/seeds 004 Low Confidence): a power holding more of
the question's topic words comes first, and the everyday words for a business's performance and for
system health are topics. What a user sees: the status and the powers offered."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def powers():
    return load_router("powers")


def _route(router, query):
    return router.route(query, today=TODAY).to_dict()


def _offered(r):
    return [c["name"] for c in r["candidates"]]


def test_the_powers_holding_every_topic_word_come_first(powers):
    # analyze (five powers) and business (analytics, crm, stripe): aws and postgres hold one of the two
    r = _route(powers, "analyse how the business is performing")
    assert r["status"] == "weak_matches"
    assert set(_offered(r)[:3]) == {"analytics", "crm", "stripe"}
    by_name = {c["name"]: c["confidence"] for c in r["candidates"]}
    assert by_name.get("aws", 0.0) < by_name["analytics"]


@pytest.mark.parametrize("query", ["generate a performance report for the business", "laporan performa bisnis bulan ini"])
def test_a_topic_word_said_twice_counts_twice(powers, query):
    # business twice (performance, business) and report once: stripe and crm (business) before postgres (report)
    r = _route(powers, query)
    assert r["status"] == "weak_matches"
    assert set(_offered(r)[:3]) == {"analytics", "crm", "stripe"}
    by_name = {c["name"]: c["confidence"] for c in r["candidates"]}
    assert by_name.get("postgres", 0.0) < by_name["stripe"]


@pytest.mark.parametrize("query", [
    "how are sales looking this month?",
    "gimana performa penjualan kita?",
    "what's driving our revenue growth?",
    "prepare a weekly performance summary for management",
])
def test_a_question_about_how_the_business_does_is_a_weak_match_for_its_services(powers, query):
    r = _route(powers, query)
    assert r["status"] == "weak_matches"
    assert "analytics" in _offered(r)[:3]
    assert r["candidates"][0]["confidence"] < 0.5


@pytest.mark.parametrize("query", [
    "apakah semua sistem lagi normal?",
    "is everything running ok in prod?",
    "is the system ok? everything feels slow today",
])
def test_a_question_about_system_health_is_a_weak_match_for_aws(powers, query):
    r = _route(powers, query)
    assert r["status"] == "weak_matches" and _offered(r)[0] == "aws"


@pytest.mark.parametrize("query, status, first", [
    ("numbers for the quarterly board deck from the database", "multiple_matches", "postgres"),  # a category asked
    ("ping the team about the outage", "multiple_matches", "slack"),                          # a message's subject
    ("list the sales charges in stripe from last week", "activated", "stripe"),                # a power named
])
def test_a_request_naming_a_service_or_category_is_no_topic(powers, query, status, first):
    r = _route(powers, query)
    assert r["status"] == status and _offered(r)[0] == first


@pytest.mark.parametrize("query", ["query the sales database", "check the sales db", "database performance"])
def test_a_category_with_a_topic_word_is_still_the_category(powers, query):
    # review: "sales" as a topic word had capped the database powers to a weak match
    r = _route(powers, query)
    assert r["status"] == "multiple_matches"
    assert {"postgres", "mysql", "sqlite"} & set(_offered(r)[:3])
