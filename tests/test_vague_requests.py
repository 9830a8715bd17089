"""A request that asks for something the domain has but names nothing ("give me an update", "bisa minta
rekapnya ga kak?") gets the clarifying question; small talk and other requests stay not_found."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


@pytest.mark.parametrize("domain, query", [
    ("accounting", "I'd like to see a report"),            # "i'd" is no word saying what
    ("accounting", "bisa minta rekapnya ga kak?"),         # "kak": a form of address
    ("accounting", "tolong tarikin laporannya ya"),        # "tarikin": a weak verb for a listing
    ("accounting", "give me an update"),
    ("cfo", "need some insights"),
])
def test_a_request_naming_nothing_is_asked_about(routers, domain, query):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["status"] == "needs_clarification" and r["clarifying_question"]


@pytest.mark.parametrize("domain, query", [
    ("accounting", "okay thanks that's all bye"),
    ("accounting", "cara bikin kue lapis legit yang lembut"),
    ("cfo", "mera PAN card ka address kaise update karu"),   # "update" as a verb is no vague request
])
def test_small_talk_and_other_requests_stay_not_found(routers, domain, query):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["status"] == "not_found"


def test_a_form_of_address_is_no_name_but_pak_still_precedes_one(routers):
    r = routers["accounting"].route("cari invoice Pak Budi", today=TODAY).to_dict()
    assert r["matches"][0]["name"] == "invoice_search"
    assert "Budi" in str(r["matches"][0]["suggested_params"])
