"""Football questions in the words of the tiers' own tools (tools.yaml), and names that are no players.

- Surface's tools report recent games, per-90 numbers and the league comparison: a player beside
  "goals and assists", "minutes", "percentile", "recent games" is Surface, activated (it was a weak
  guess from the player alone). Deep alone holds event-level detail, derived metrics and the chart.
- "compare" or "vs" against the league with one player is Surface's league comparison, not Compare.
- In a question naming a known player, a capital right after a word of place or time ("after Christmas",
  "from Bandung") is no unknown player; a rare one there still is, and so is any without a known player.
- A pronoun after a name the roster lacks refers back to it: PLAYER_NOT_FOUND, not INSUFFICIENT_CONTEXT;
  a rare word after the pronoun is no antecedent.
- With two known players named, a lower-case word of the languages is no third name.
"""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def football():
    return load_router("football")


def _route(router, q, **context):
    return router.route(q, today=TODAY, context=context or None).to_dict()


@pytest.mark.parametrize("query, tier", [
    ("Niko Petrovic goals and assists this month?", "surface"),
    ("minutes played by Jonas Vogel in his last three games", "surface"),
    ("what's Amadou Keita's percentile for key passes", "surface"),
    ("show me Chidi Okafor's recent games", "surface"),
    ("Emre Yildiz per 90 minutes please", "surface"),
    ("how does Kwame Mensah compare to the league average at his position", "surface"),
    ("touches in the box for Mateus Almeida", "deep"),
    ("form chart for Agus Wibowo please", "deep"),
    ("Bayu Saputra pass completion and shot conversion", "deep"),
])
def test_a_player_with_a_tools_word_activates_its_tier(football, query, tier):
    r = _route(football, query)
    assert r["status"] == "activated", r["matches"]
    assert r["matches"][0]["name"] == tier
    assert r["error"] is None


def test_two_players_against_the_league_stay_compare(football):
    r = _route(football, "compare Okafor and Nwosu against the league average")
    assert r["matches"][0]["name"] == "compare"


@pytest.mark.parametrize("query", [
    "what should I cook for Christmas dinner",
    "how many goals did we set for the quarter at work",
    "my blood pressure chart looks odd",
    "conversion rate of our website this month",
])
def test_everyday_senses_without_a_player_are_no_football(football, query):
    r = _route(football, query)
    assert r["status"] == "not_found" and not r["matches"]


@pytest.mark.parametrize("query, tier", [
    ("why did Rafael Sousa's numbers dip after Christmas?", "deep"),
    ("My daughter is from Bandung and follows Rizky Pratama. Might I see Rizky Pratama's recent form?", "surface"),
])
def test_a_place_or_time_after_its_word_is_no_player(football, query, tier):
    r = _route(football, query)
    assert r["status"] == "activated" and r["error"] is None
    assert r["matches"][0]["name"] == tier


@pytest.mark.parametrize("query, name", [
    ("Okafor's stats since Kowalczykowski arrived?", "kowalczykowski"),  # a rare word after "since"
    ("stats from Walker", "walker"),                                     # no known player: the capital is asked about
])
def test_a_name_after_a_word_of_time_can_still_be_the_player(football, query, name):
    r = _route(football, query)
    assert r["error"]["code"] == "PLAYER_NOT_FOUND" and name in r["error"]["message"].casefold()


@pytest.mark.parametrize("query, name", [
    ("Kylian Mbappé - how's his season going?", "kylian mbappe"),
    ("How is Harry Kane doing this season? He was always a favourite of mine.", "harry kane"),
])
def test_a_pronoun_after_an_unknown_name_is_that_player_not_found(football, query, name):
    r = _route(football, query)
    assert r["status"] == "not_found"
    assert r["error"]["code"] == "PLAYER_NOT_FOUND" and name in r["error"]["message"].casefold()


def test_a_pronoun_with_no_name_before_it_still_asks(football):
    r = _route(football, "kok dia sekarang susah banget ngegolin sih?")
    assert r["status"] == "needs_clarification"
    assert r["error"]["code"] == "INSUFFICIENT_CONTEXT"


def test_two_known_players_leave_no_room_for_a_third_name(football):
    r = _route(football, "My nephew and I have a small wager riding on this. Is Oscar Nwosu better than Andi Hidayat?")
    assert r["status"] == "activated" and r["error"] is None
    assert r["matches"][0]["name"] == "compare"
    assert {e["name"] for e in r["entities"]} == {"Oscar Nwosu", "Andi Hidayat"}


def test_a_trigger_unless_names_a_known_term(tmp_path):
    from routing.core.errors import LexiconError
    from routing.designs.intent_tiers.config import parse_tier_config
    from routing.core.lexicon import load_domain, DEFAULT_LEXICON_ROOT
    import yaml
    domain = load_domain("football", DEFAULT_LEXICON_ROOT)
    data = yaml.safe_load((DEFAULT_LEXICON_ROOT / "football" / "tiers.yaml").read_text())
    data["tiers"]["compare"]["triggers"][0]["unless"] = ["no_such_term"]
    with pytest.raises(LexiconError) as err:
        parse_tier_config(data, "football/tiers.yaml", domain)
    assert "unless names 'no_such_term'" in str(err.value)


@pytest.mark.parametrize("query", [
    "Okafor assists against Chelsea",
    "How many goals did Okafor score against Liverpool last season",
    "Okafor's assists in the Premier League",
    "gol Okafor lawan Persija",
])
def test_an_opponent_or_a_competition_is_no_second_player(football, query):
    r = _route(football, query)
    assert r["status"] == "activated" and r["error"] is None
    assert r["matches"][0]["name"] == "surface"


@pytest.mark.parametrize("query", [
    "who has more assists, Okafor or Vogel",
    "Okafor and Vogel goals",
    "Okafor ya Vogel, kiske goals zyada hain",
])
def test_what_surface_reports_said_of_two_players_is_compare(football, query):
    r = _route(football, query)
    assert r["status"] == "activated" and r["error"] is None
    assert r["matches"][0]["name"] == "compare"


@pytest.mark.parametrize("query", ["gimme sumthin on his form", "cmon, is he scoring?", "uska goals kitna hai"])
def test_slang_before_a_pronoun_is_no_player(football, query):
    r = _route(football, query)
    assert r["status"] == "needs_clarification"
    assert r["error"]["code"] == "INSUFFICIENT_CONTEXT"


def test_compare_with_an_unknown_second_player_is_not_found(football):
    r = _route(football, "compare Okafor with Grealish against the league")
    assert r["error"]["code"] == "PLAYER_NOT_FOUND"


@pytest.mark.parametrize("query, name", [
    ("how is Mbappe's form", "mbappe"),
    ("compare Okafor with Haaland's numbers", "haaland"),
    ("Compare Okafor with Mbappe's league numbers", "mbappe"),
])
def test_an_unknown_name_with_a_possessive_is_not_found(football, query, name):
    r = _route(football, query)
    assert r["status"] == "not_found"
    assert r["error"]["code"] == "PLAYER_NOT_FOUND" and f"'{name}'" in r["error"]["message"]


@pytest.mark.parametrize("query, context", [
    ("How many goals did Okafor score at Anfield?", None),
    ("Okafor's goals since the World Cup", None),
    ("I watched Okafor at the Riverside Stadium on Saturday. How was his rating?", None),
    ("Okafor ke goals aur assists batao", None),
    ("and his rating in the Premier Liga?", {"player_ids": ["p-chidi-okafor"]}),
])
def test_a_setting_beside_a_players_numbers_is_no_player(football, query, context):
    r = _route(football, query, **(context or {}))
    assert r["status"] == "activated" and r["error"] is None
    assert r["matches"][0]["name"] == "surface"


@pytest.mark.parametrize("query, name", [
    ("Haaland goals this season", "haaland"),      # no known player: the name is asked about
    ("Okafor vs Haaland goals", "haaland"),        # a tier's own trigger asks about both
])
def test_an_unknown_name_asked_about_is_still_not_found(football, query, name):
    r = _route(football, query)
    assert r["error"]["code"] == "PLAYER_NOT_FOUND" and f"'{name}'" in r["error"]["message"]
