"""Issue 22 (i22held): what a user sees when they put a filler inside an idiom the lexicon lists bare,
and when a power is called by its name with another power far behind."""
from __future__ import annotations

from routing import Status, load_router

TODAY = "2026-01-22"


def _units(result):
    return [(t["text"], t["role"], t["key"]) for t in result.to_dict()["tokens"]]


def test_a_synonym_phrase_reads_across_one_stop_word(accounting):
    # synonyms.yaml lists "we owe" (payable); "we currently owe" is the same idiom with a filler
    r = accounting.route("what we currently owe to vendors", today=TODAY)
    assert ("we currently owe", "concept", "payable") in _units(r)
    assert r.status is Status.ACTIVATED and r.matches[0].name == "payables_aging"


def test_the_plain_phrase_still_reads_as_before(accounting):
    r = accounting.route("what we owe to vendors", today=TODAY)
    assert ("we owe", "concept", "payable") in _units(r)


def test_two_stop_words_between_phrase_words_do_not_join(accounting):
    r = accounting.route("we really actually owe", today=TODAY)
    assert not any(role == "concept" and key == "payable" for _, role, key in _units(r))


def test_a_gap_never_swallows_a_content_word(accounting):
    # "supplier invoice" is a bill; "supplier Budi invoice" keeps Budi as the name it is
    r = accounting.route("supplier Budi invoice", today=TODAY)
    assert ("budi", "literal", "budi") in _units(r)


def test_a_power_called_by_name_far_ahead_of_the_rest_is_activated():
    powers = load_router("powers")
    # "events" also fits the calendar, which stays far behind the named power
    r = powers.route("count the events in the mongodb logs collection", today=TODAY)
    assert r.status is Status.ACTIVATED and r.matches[0].name == "mongodb"
    # both named, neither far ahead: still a choice (004 Medium)
    r = powers.route("email or slack the team about the outage", today=TODAY)
    assert r.status is Status.MULTIPLE_MATCHES


def test_a_verb_for_a_kind_no_tool_has_decides_nothing(accounting):
    # accounting has no tool of kind "action": "pay" must not rule every tool out alike, so the
    # date range still leans to a list
    r = accounting.route("which bills do I pay next week", today=TODAY)
    assert r.status is Status.ACTIVATED and r.matches[0].name == "bill_list"
    assert r.matches[0].score_breakdown["action"] > 0


def test_examples_of_a_kind_the_verb_rules_out_do_not_outvote_the_tool_own_words(accounting):
    # a create verb and the invoice: the search tools' examples (full of shop names) no longer
    # keep invoice_create below activation
    r = accounting.route("buat invoice untuk Toko Jaya", today=TODAY)
    assert r.status is Status.ACTIVATED and r.matches[0].name == "invoice_create"
    assert r.matches[0].score_breakdown.get("agreement", 0) > 0


def test_football_compare_needs_a_player_and_hears_who_is_better():
    football = load_router("football")
    # everyday "compare" with nothing of football in it is no football question
    r = football.route("compare mobile phone plans", today=TODAY)
    assert r.status is Status.NOT_FOUND
    # two players and the comparative question without "than" is 001's Compare, activated
    r = football.route("who is better: Jonas Vogel or Pablo Ortega?", today=TODAY)
    assert r.status is Status.ACTIVATED and r.matches[0].name == "compare"
    # "compare" alone still asks for the players (001 trigger table)
    assert football.route("compare", today=TODAY).status is Status.NEEDS_CLARIFICATION


def test_a_negation_word_stands_for_another_inside_a_synonym_phrase(accounting):
    # synonyms.yaml says "not paid" (and Indonesian "belum dibayar"); users say "haven't" / "tidak"
    r = accounting.route("invoices this client hasn't paid", today=TODAY)
    assert ("hasn't paid", "concept", "unpaid") in _units(r)
    r = accounting.route("faktur yang tidak dibayar", today=TODAY)
    assert ("tidak dibayar", "concept", "unpaid") in _units(r)


def test_a_negation_of_more_than_one_word_is_refused_with_file_and_line(tmp_path):
    import pytest

    from routing.core.errors import LexiconError
    from routing.core.parse import parse_language_words
    from routing.core.yamlio import read_yaml

    path = tmp_path / "words.yaml"
    path.write_text("en:\n  stopwords: [a]\n  negations: [not, no longer]\n", encoding="utf-8")
    with pytest.raises(LexiconError) as err:
        parse_language_words(read_yaml(path, "_shared/words.yaml"), "_shared/words.yaml")
    assert "no longer" in str(err.value) and "must be one word" in str(err.value)
