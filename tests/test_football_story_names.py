"""A name in a statement before the sentence naming the players is the story's, not a player asked about
(routing.designs.intent_tiers.analysis): "Kantor kami nonton bareng di Bandung kemarin. Tolong bandingkan Rizky
Pratama dengan Fajar Nugroho." compares the two; a name in a question before them is still asked about ("How is
Kylian Mbappe doing? And Okafor?": no such player). Phrasings written before the mechanism, none from a set."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def football():
    return load_router("football")


@pytest.mark.parametrize("query, intent", [
    ("Kantor kami nonton bareng di Bandung kemarin. Tolong bandingkan Rizky Pratama dengan Fajar Nugroho.", "compare"),
    ("My cousin Priya from Leeds texted me after the derby. Compare Rizky Pratama and Fajar Nugroho.", "compare"),
])
def test_a_name_in_the_story_is_no_player(football, query, intent):
    r = football.route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["category"] == intent and r["error"] is None


def test_a_name_asked_about_before_is_still_asked(football):
    r = football.route("How is Kylian Mbappe doing? And Rizky Pratama?", today=TODAY).to_dict()
    assert r["error"]["code"] == "PLAYER_NOT_FOUND"
