"""A request that names no subject is asked what (needs_clarification), not turned away: the verb's forms and
fillers are stop words (words.yaml: Hindi "karke", "karni", "baar"; English "eh"), and "look into" with nothing to
look into is vague (settings.yaml). A word of another subject stays not_found."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query", ["eh tolong cek dong", "ek baar sab check karke batao",
                                   "can you look into this for me"])
def test_a_request_with_no_subject_is_asked_what(cfo, query):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["status"] == "needs_clarification" and r["clarifying_question"]


@pytest.mark.parametrize("query", ["how do i fix my phone screen its all cracked", "check the cricket score for me"])
def test_an_unknown_subject_is_not_asked_about(cfo, query):
    r = cfo.route(query, today=TODAY).to_dict()
    assert r["status"] != "needs_clarification"
