"""The design documents' own examples (shared/seeds), each as the document states it.

001 (football analyst): `stats`, `form`, `help`, `support` are Surface triggers; a missing player is
then asked for, an unknown one is the contract's PLAYER_NOT_FOUND, never "no tier".
003 (factory mirror): "Show me the bots" is answered at layer 1 (distance below 0.4).
004 (power gateway): its validation examples by tier (tests/seed_004_examples.yaml). Those this
gateway does not yet answer as the document says are strict xfails naming why: they fail loudly
the day they pass.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from routing import load_router

TODAY = "2026-01-22"
SEED_004 = yaml.safe_load((Path(__file__).resolve().parent / "seed_004_examples.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def football():
    return load_router("football")


@pytest.fixture(scope="module")
def factory():
    return load_router("factory")


@pytest.fixture(scope="module")
def powers():
    return load_router("powers")


# ------------------------------------------------------------------ 001


@pytest.mark.parametrize("query", ["I need help", "support", "stats please", "form", "can you help me"])
def test_001_weak_trigger_alone_is_surface_and_asks_which_player(football, query):
    r = football.route(query, today=TODAY).to_dict()
    assert r["intent"] == "surface"
    assert r["status"] == "needs_clarification" and r["clarifying_question"]
    assert "search_player" in r["allowed_tools"]


@pytest.mark.parametrize("query", ["stats for Saka", "Zlatan form", "help Zlatan"])
def test_001_unknown_player_is_player_not_found(football, query):
    r = football.route(query, today=TODAY).to_dict()
    assert r["intent"] == "surface"
    assert r["status"] == "not_found" and r["error"]["code"] == "PLAYER_NOT_FOUND"


@pytest.mark.parametrize("query", ["help me fill this tax form", "customer support phone number"])
def test_001_trigger_words_about_something_else_are_no_football_question(football, query):
    r = football.route(query, today=TODAY).to_dict()
    assert r["status"] == "not_found" and r["intent"] is None and r["error"] is None


# ------------------------------------------------------------------ 003


def test_003_show_me_the_bots_hits_layer_1(factory):
    r = factory.route("Show me the bots", today=TODAY).to_dict()
    assert r["layer"] == "L1" and r["nearest"]["distance"] < 0.4
    assert r["status"] == "activated" and r["datasource"] == "maintenance"


# ------------------------------------------------------------------ 004

KNOWN_GAPS = {
    "process payment": "one payment power here (stripe) explains it fully: activated, the document expects alternatives",
    "handle transaction": "one payment power here (stripe) explains it fully: activated, the document expects alternatives",
    "look at my code": "no lexicon word links 'code' alone to github: not_found",
    "show customer insights": "crm and stripe both explain 'customer': multiple_matches at 0.55",
    "generate report": "no power speaks of reports: not_found",
    "check system status": "no power speaks of system status: not_found",
    "get metrics": "no power speaks of metrics: not_found",
}


def _cases():
    for tier, items in SEED_004.items():
        for item in items:
            marks = [pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[item["query"]])] if item["query"] in KNOWN_GAPS else []
            yield pytest.param(tier, item, id=f"{tier}:{item['query']}", marks=marks)


@pytest.mark.parametrize("tier, item", list(_cases()))
def test_004_examples_in_the_documents_tier(powers, tier, item):
    r = powers.route(item["query"], today=TODAY).to_dict()
    assert r["status"] == tier
    names = [m["name"] for m in r["matches"]]
    if tier == "activated":
        assert r["power"]["name"] == item["power"] and r["tools"]
    elif tier == "multiple_matches":
        assert 2 <= len(names) <= 3
    elif tier == "weak_matches":
        assert len(names) <= 5
    else:
        assert names == [] and len(r["available_powers"]) == len(powers.domain.tools)
    for power in item.get("powers", []):
        assert power in names
