"""Compare said without "compare" or "vs" (lexicons/football synonyms.yaml compare / better_than,
tiers.yaml's comparative triggers): two known players side by side, head to head, one outperforming the
other, "who is more X", "siapa lebih X" are Compare, activated; such words without two players are not."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def football():
    return load_router("football")


@pytest.mark.parametrize("query", [
    "Okafor and Bayu Saputra head to head",
    "has Lukas Brenner been outperforming Rafael Sousa lately?",
    "siapa lebih produktif, Dimas Setiawan atau Agus Wibowo?",
    "who is more dangerous, Jonas Vogel or Arjun Mehta",
    "put Niko Petrović and Teodor Ilić side by side",
    "Siapa yang lebih produktif antara Lukas Brenner dan Emre Yıldız belakangan ini?",   # "antara" (between)
    "Okafor or Vogel, who is the better finisher?",                                     # named first, asked after
    "Søren Lindqvist or Emre Yıldız - who's the sharper striker right now?",
])
def test_two_players_compared_in_other_words(football, query):
    r = football.route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["intent"] == "compare" and r["error"] is None
    assert len(r["entities"]) == 2


@pytest.mark.parametrize("query", [
    "who is more dangerous, Okafor?",                            # one player: no "or", no comparison
    "Okafor is up against Arema Jaya on Saturday, how is he doing?",
    "who is more dangerous, Okafor or the league average?",      # the league: Surface's league comparison
])
def test_one_player_is_no_comparison(football, query):
    r = football.route(query, today=TODAY).to_dict()
    assert r["intent"] == "surface"


def test_two_players_with_no_comparative_stay_a_weak_guess(football):
    r = football.route("Okafor and Bayu Saputra", today=TODAY).to_dict()
    assert r["status"] == "weak_matches" and r["matches"][0]["name"] == "compare"


def test_hinglish_asks_for_a_players_stats(football):
    # football reads romanised Hindi too (settings.yaml languages): "kaisa khel raha hai, stats bhejo"
    r = football.route("hugo lefevre kaisa khel raha hai, stats bhejo", today=TODAY).to_dict()
    assert r["status"] == "activated" and r["intent"] == "surface" and r["error"] is None
