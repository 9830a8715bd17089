"""Which list leads the fusion (routing.semantic.dense.FusionPolicy), chosen per catalog at build from
the synthetic pseudo-questions the dense calibration makes anyway: no labelled question.

Runs on the shipped token table (no build step)."""
from __future__ import annotations

import json

import pytest

from routing import Router
from routing.quality.tool_import import import_tool_catalog
from routing.semantic import dense as dn
from routing.semantic import dense_calibration as dc

TODAY = "2026-01-22"
# A catalog known by its tools' names only (as an intent set imported by its labels).
NAMES = ["set_alarm", "remove_alarm", "play_music", "play_radio", "weather_query", "send_email", "query_email",
         "order_taxi", "book_train_ticket", "cooking_recipe", "set_calendar_event", "turn_lights_off",
         "currency_exchange_rate", "news_headlines"]


def names_only(root, name="assistant"):
    tools = [{"type": "function", "function": {"name": n, "description": n.replace("_", " ").capitalize() + ".",
                                               "parameters": {"type": "object", "properties": {}}}} for n in NAMES]
    path = root / f"{name}.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    import_tool_catalog(path, name, root=root)
    return Router.load(name, root)


@pytest.fixture
def assistant(lexicon_root):
    router = names_only(lexicon_root)
    if router.dense is None:
        pytest.skip(f"no dense list: {router.dense_off}")
    return router


@pytest.mark.parametrize("question, right, lexical_first", [
    # One word of the question is a catalog word that names another tool ("set", "query"); the rest
    # is what the right tool means, in words the catalog does not contain.
    ("set up dinner with my parents on sunday", "set_calendar_event", "set_alarm"),
    ("query how much a pound is worth", "currency_exchange_rate", "query_email"),
])
def test_names_only_catalog_follows_the_dense_list_where_it_is_the_stronger(assistant, question, right, lexical_first):
    policy = assistant.dense.policy
    assert policy.lead == 1.0 and policy.fragments >= dn.MIN_FRAGMENTS
    assert "the dense list leads" in assistant.describe()["confidence"]["dense"]["fusion"]
    r = assistant.route(question, today=TODAY)
    assert r.candidates[0]["name"] == right
    # ... where the lexical list alone, and the fusion as it was (lexical-led), put the other tool first.
    f = assistant.fusion(assistant.index.analyze(question, today=assistant_today()))
    assert assistant.index.tools[f.lexical[0][0]].name == lexical_first
    before = dn.refuse(f, dn.FusionPolicy(0.0), assistant.index.tools)
    assert assistant.index.tools[before.order[0]].name == lexical_first


def assistant_today():
    from routing.core.clock import parse_today

    return parse_today(TODAY)


def test_the_policy_is_cached_with_the_calibration_and_read_back(lexicon_root, assistant):
    data = json.loads((lexicon_root / "assistant" / dc.CACHE_FILE).read_text(encoding="utf-8"))
    assert data["fusion"] == assistant.dense.policy.to_dict()
    again = Router.load("assistant", lexicon_root)
    assert again.dense.policy == assistant.dense.policy
    assert again.route("set up dinner with my parents on sunday", today=TODAY).candidates[0]["name"] == "set_calendar_event"


def test_choose_policy_follows_how_close_the_dense_list_comes_on_the_tools_own_words():
    fallback = dn.FusionPolicy(0.0, "fallback")
    # Seal-Tools dev's pseudo-questions: the dense list 45 of 116 against the lexical 66 (ratio 0.68): lexical-led.
    seal = dn.choose_policy(116, 66, 45, fallback)
    assert seal.lead == 0.0 and seal.dense_weight == dn.WEIGHT_LEXICAL_LED and seal.lexical_weight(0.3) == 1.0
    # HWU64 names only: 76 against 80 (0.95): dense-led, the lexical list weighted by the known share.
    hwu = dn.choose_policy(122, 80, 76, fallback)
    assert hwu.lead == 1.0 and hwu.dense_weight == dn.WEIGHT_DENSE_LED and hwu.lexical_weight(0.25) == 0.25
    between = dn.choose_policy(100, 80, 64, fallback)  # ratio 0.8: half way, log-linear
    assert 0 < between.lead < 1 and dn.WEIGHT_LEXICAL_LED < between.dense_weight < dn.WEIGHT_DENSE_LED
    assert "ratio 0.80" in between.why
    # Too few pseudo-questions to judge by: the fallback, saying why.
    few = dn.choose_policy(3, 1, 3, fallback)
    assert few.lead == 0.0 and "only 3 pseudo-questions" in few.why
    # A question the catalog knows none of: the lexical list weighs nothing when the dense list leads.
    assert hwu.fuse([(1, 0.9), (2, 0.1)], [(2, 0.7), (1, 0.2), (3, 0.1)], 0.0)[2] > hwu.fuse([(1, 0.9), (2, 0.1)], [(2, 0.7), (1, 0.2), (3, 0.1)], 0.0)[1]


def test_off_topic_question_on_a_tiny_descriptions_catalog_is_not_found(lexicon_root):
    """A 4-tool catalog known by its descriptions: a question in words the catalog never uses gets no
    floor from the small catalog's lexical sum (its words unknown, that sum is no evidence), so it is
    not_found; a paraphrase and a question in the tools' words are still answered."""
    from tests.test_dense import import_catalog

    import_catalog(lexicon_root)
    router = Router.load("shop", lexicon_root)
    if router.dense_calibration is None:
        pytest.skip(f"no synthetic calibration: {router.dense_off}")
    for question in ("who won the football match yesterday", "I want to order a pizza"):
        f = router.fusion(router.index.analyze(question, today=assistant_today()))
        assert f.known == 0.0 and f.lexical and f.lexical[0][1] > 0.15  # the lexical list has a sum, of unknown words
        assert router.route(question, today=TODAY).status.value == "not_found", question
    # a shared verb ("which": the languages' word, not the catalog's) gives the lexical floor no ground
    question = "which team won the football match yesterday"
    f = router.fusion(router.index.analyze(question, today=assistant_today()))
    assert not f.knows_word and router.route(question, today=TODAY).status.value == "not_found"
    assert router.route("book me a plane ticket to Paris", today=TODAY).candidates[0]["name"] == "bookFlight"
    assert router.route("book me a plane ticket to Paris", today=TODAY).status.value in ("activated", "multiple_matches")
    sure = router.route("translate this text into another language", today=TODAY)
    assert sure.status.value == "activated" and sure.matches[0].name == "translateText"


def test_floor_is_the_lexical_sum_where_the_catalog_knows_a_word_of_the_question():
    assert dc.floored(0.1, 0.4, 1.0, 100) == 0.4
    assert dc.floored(0.1, 0.4, 0.25, 100) == 0.4
    assert dc.floored(0.1, 0.4, 0.0, 100) == 0.1
    assert dc.floored(0.7, 0.4, 1.0, 100) == 0.7


def test_where_the_catalog_knows_no_word_a_probability_at_or_below_chance_is_not_found():
    """Chance is one in the catalog's tools: on 4 tools 0.2 is below it (0), on 100 tools it is not."""
    assert dc.floored(0.2, 0.4, 0.0, 4) == 0.0
    assert dc.floored(0.3, 0.4, 0.0, 4) == 0.3
    assert dc.floored(0.2, 0.4, 0.0, 100) == 0.2
    assert dc.floored(0.2, 0.4, 0.5, 4) == 0.4  # a known word: the lexical floor, not chance


def test_where_the_catalog_knows_no_word_the_dense_list_alone_makes_at_best_a_weak_match():
    assert dc.floored(0.91, 0.0, False, 5, 0.2) == 0.2
    assert dc.floored(0.15, 0.0, False, 5, 0.2) == 0.0  # at or below chance (1 in 5): not_found
    assert dc.floored(0.91, 0.3, True, 5, 0.2) == 0.91  # a word it knows: the fit, never below the lexical sum


def test_held_out_examples_are_scored_by_a_learned_model_that_never_saw_them(lexicon_root, tmp_path):
    """A fused domain with a learned model (70 tools x 3 examples: >= 200 examples, < 4 a tool): the
    calibration's held-out example questions get their lexical list from a model retrained without them,
    not from the domain's model, which was trained on them and finds each one itself."""
    import numpy as np
    from conftest import write_csv

    from routing.quality.importer import import_labelled_csv

    rows = [(f"please handle case {i} ref q{i}v{j}z{(i * 7 + j) % 11}", f"intent_{i}") for i in range(70) for j in range(3)]
    import_labelled_csv(write_csv(tmp_path / "many.csv", rows), "many", root=lexicon_root, holdout=0)
    router = Router.load("many", lexicon_root)
    if router.dense is None or router.learned is None:
        pytest.skip(f"no dense list or learned model here: {router.dense_off}")
    held = dc.held_out_examples(router.domain, np.random.default_rng(1))
    model = dc._held_out_model(router, dc.without_held_out(router.domain, held))
    assert model is not None and model.examples == router.learned.examples - len(held)
    column = {int(t): j for j, t in enumerate(router.learned.tools)}
    aux_column = {int(t): j for j, t in enumerate(model.tools)}
    own = [router.learned.probabilities(text)[column[t]] for t, text in held.items()]
    fresh = [model.probabilities(text)[aux_column[t]] for t, text in held.items()]
    assert np.mean(fresh) < np.mean(own)  # the domain's model knows them; the retrained one does not
    assert (lexicon_root / "many" / "settings.yaml").is_file() and not list((lexicon_root / "many").glob("held-out-model*"))
