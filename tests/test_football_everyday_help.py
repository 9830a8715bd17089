""""help", "support" and "doing" are everyday words (issue 22, labelled held-out sets 22 and 35): beside an
everyday trigger they made a question about football, so "Please help me improve the slide design for
tomorrow's board presentation." asked "Which player do you mean?". They are tiers.yaml `everyday` triggers
now: they fire in a question about football (a player, a pronoun, a term of the game) or one that says
nothing else (001's trigger table: "I need help" is Surface and the player is asked for)."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def football():
    return load_router("football")


@pytest.mark.parametrize("query", [
    "Please help me improve the slide design for tomorrow's board presentation.",
    "can you help me analyze my blood test results",
    "what are you doing to support the new office move",
])
def test_everyday_help_is_no_football_question(football, query):
    d = football.route(query, today=TODAY).to_dict()
    assert d["status"] == "not_found"
    assert d["clarifying_question"] is None


@pytest.mark.parametrize("query, status, intent", [
    ("I need help", "needs_clarification", "surface"),
    ("can you help me with Chidi Okafor's finishing?", "activated", "surface"),
    ("support for Okafor", "activated", "surface"),
    ("how is Chidi Okafor doing?", "activated", "surface"),
])
def test_help_about_a_player_or_alone_is_still_surface(football, query, status, intent):
    d = football.route(query, today=TODAY).to_dict()
    assert (d["status"], d["intent"]) == (status, intent)
