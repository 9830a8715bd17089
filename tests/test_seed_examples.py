"""The design documents' own examples (shared/seeds), each as the document states it.

001 (football analyst): `stats`, `form`, `help`, `support` are Surface triggers; a missing player is
then asked for, an unknown one is the contract's PLAYER_NOT_FOUND, never "no tier".
003 (factory mirror): "Show me the bots" is answered at layer 1 (distance below 0.2), the sample
question "List all machines" and its variants at layer 1, the slang example canonicalised as the
document writes it; L1 0.4 / L2 0.6.
004 (power gateway): its validation examples by tier (tests/seed_004_examples.yaml), each in the
document's band: activated >= 0.85 with the power's tools, multiple_matches 0.5-0.84 with the top
2-3, weak_matches below 0.5 with the top 5, not_found below 0.3 with every power.
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


@pytest.mark.parametrize("query", ["I need help", "support", "stats please", "form", "can you help me",
                                   "show me the stats", "what's the form like", "get the stats"])
def test_001_weak_trigger_alone_is_surface_and_asks_which_player(football, query):
    r = football.route(query, today=TODAY).to_dict()
    assert r["intent"] == "surface"
    assert r["status"] == "needs_clarification" and r["clarifying_question"]
    assert "search_player" in r["allowed_tools"]


@pytest.mark.parametrize("query", ["stats for Saka", "Zlatan form", "help Zlatan", "stats for saka", "form of mbappe"])
def test_001_unknown_player_is_player_not_found(football, query):
    r = football.route(query, today=TODAY).to_dict()
    assert r["intent"] == "surface"
    assert r["status"] == "not_found" and r["error"]["code"] == "PLAYER_NOT_FOUND"


@pytest.mark.parametrize("query", ["help me fill this tax form", "customer support phone number", "form of payment",
                                   "show me the tax form", "stats for today"])
def test_001_trigger_words_about_something_else_are_no_football_question(football, query):
    r = football.route(query, today=TODAY).to_dict()
    assert r["status"] == "not_found" and r["intent"] is None and r["error"] is None


# ------------------------------------------------------------------ 003


def test_003_show_me_the_bots_hits_layer_1(factory):
    r = factory.route("Show me the bots", today=TODAY).to_dict()
    # "Canonicalizes to 'List machines' -> Matches ... Distance is optimized to be extremely low (< 0.2)"
    assert r["layer"] == "L1" and r["nearest"]["distance"] < 0.2
    assert r["status"] == "activated" and r["datasource"] == "maintenance"
    assert "machines" in r["canonical"].split()


# The indexing workflow's sample question and its two variants, the "before" state's direct match.
@pytest.mark.parametrize("query", ["List all machines", "Show all equipment", "List active machinery", "List machines"])
def test_003_the_sample_question_and_its_variants_hit_layer_1(factory, query):
    r = factory.route(query, today=TODAY).to_dict()
    assert r["layer"] == "L1" and r["nearest"]["distance"] < 0.4  # ROUTER_L1_THRESHOLD 0.4
    assert r["status"] == "activated" and r["datasource"] == "maintenance"


def test_003_slang_is_canonicalised_to_the_documents_canonical_form(factory):
    r = factory.route("How many guys are working on the floor?", today=TODAY).to_dict()
    assert r["canonical"] == "count operators on active shift"  # the document's canonical, word for word
    assert r["layer"] == "L1" and r["datasource"] == "hr" and r["nearest"]["distance"] < 0.4


def test_003_layer_1_threshold_is_the_documents(factory):
    r = factory.route("List all machines", today=TODAY).to_dict()
    assert r["funnel"][0]["layer"] == "L1" and r["funnel"][0]["threshold"] == 0.4  # ROUTER_L1_THRESHOLD


# ------------------------------------------------------------------ 004

def _cases():
    for tier, items in SEED_004.items():
        for item in items:
            yield pytest.param(tier, item, id=f"{tier}:{item['query']}")


@pytest.mark.parametrize("tier, item", list(_cases()))
def test_004_examples_in_the_documents_tier(powers, tier, item):
    r = powers.route(item["query"], today=TODAY).to_dict()
    assert r["status"] == tier
    names = [m["name"] for m in r["matches"]]
    top = r["matches"][0]["confidence"] if r["matches"] else 0.0
    if tier == "activated":  # >= 0.85, the power's tools
        assert r["power"]["name"] == item["power"] and r["tools"] and top >= 0.85
        assert r["power"]["match_type"] == "keyword"  # no embedding signal in this domain
    elif tier == "multiple_matches":  # 0.5-0.84, the top 2-3
        assert 2 <= len(names) <= 3 and 0.5 <= top < 0.85
    elif tier == "weak_matches":  # below 0.5, the top 5
        assert 1 <= len(names) <= 5 and 0.3 <= top < 0.5
    else:  # below 0.3, every power
        assert names == [] and len(r["available_powers"]) == len(powers.domain.tools)
    for power in item.get("powers", []):
        assert power in names
