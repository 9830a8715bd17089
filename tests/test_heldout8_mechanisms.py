"""Issue 22, held-out set 8 round: the general rules set 8's misses pointed at (set 8 was written by a
helper from the design documents and the tools' one-line descriptions and measured first), each
checked as a user sees it, on phrasings that are not in set 8: the tool or power chosen, the tier, the
error code. Set 8 itself is measured with `python -m routing eval --golden lexicons/D/heldout8.yaml`."""
from __future__ import annotations

import pytest

from routing import load_router
from routing.core.text import uninflected_forms

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def accounting():
    return load_router("accounting")


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.fixture(scope="module")
def powers():
    return load_router("powers")


@pytest.fixture(scope="module")
def football():
    return load_router("football")


def _route(router, query):
    return router.route(query, today=TODAY).to_dict()


# ------------------------------------------------------------ tools design: one tool explains the whole question

@pytest.mark.parametrize("query, tool", [
    ("any invoice worth exactly 3,200,000?", "invoice_search"),   # the amount is what the search looks for
    ("is there an item named Gula Aren 1kg in our catalogue?", "product_search"),  # item: a product
])
def test_a_question_one_tool_explains_whole_is_activated(accounting, query, tool):
    r = _route(accounting, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool
    assert r["path"] == "fast"


@pytest.mark.parametrize("query, tool", [
    ("which customer payments came in yesterday?", "payment_list"),
    ("payments that came in from customers yesterday", "payment_list"),
])
def test_terms_only_one_tool_holds_with_its_own_keyword_activate_it(accounting, query, tool):
    # payment is payment_list's own keyword, customer its related term; no other tool holds both: nothing
    # is left to choose. (A contact's phone or address asked for is contact_search's by its own pattern.)
    r = _route(accounting, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool
    assert r["matches"][0]["score_breakdown"].get("sole", 0) > 0


@pytest.mark.parametrize("query", ["which supplier has the phone number of Budi", "which customer uses the address Jalan Merdeka 10"])
def test_a_contacts_phone_or_address_asked_for_is_a_contact_search(accounting, query):
    r = _route(accounting, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == "contact_search"


def test_000s_ambiguous_question_stays_a_choice(accounting):
    # shared/seeds 000: "show invoices" returns the matching tools, it picks none
    r = _route(accounting, "show invoices")
    assert r["status"] == "multiple_matches"
    assert {"invoice_list", "invoice_search"} <= {m["name"] for m in r["matches"]} | {c["name"] for c in r["candidates"][:3]}


def test_two_related_topics_do_not_activate_the_tool_relating_them(cfo):
    # revenue and expense are profit_and_loss's related terms, profit its own: a comparison for the
    # LLM path (002), not a request for the report
    r = _route(cfo, "compare sales and expenses for the last 3 months and explain why profit fell")
    assert r["status"] != "activated" and r["path"] == "llm"


# ------------------------------------------------------------ tools design: a verb alone names no subject

def test_small_talk_naming_nothing_the_domain_knows_gets_no_points_for_its_kind(cfo):
    # no term, idiom, date, number or name: the kind that fits "no verb" is no evidence of a tool
    # (it gave every tool 0.15, and a word shared with one example made small talk a weak match)
    r = _route(cfo, "you guys are awesome, bahut mast")
    assert r["status"] == "not_found" and r["matches"] == []
    assert all("action" not in c["score_breakdown"] for c in r["candidates"])


def test_a_request_with_a_known_term_still_gets_its_kind(cfo):
    r = _route(cfo, "show me the balance sheet")
    assert r["status"] == "activated" and r["matches"][0]["name"] == "balance_sheet"
    assert r["matches"][0]["score_breakdown"].get("action", 0) > 0


# ------------------------------------------------------------ a phrase listed inflected is read bare too

def test_a_phrase_listed_in_the_plural_is_read_in_the_singular(powers):
    # synonyms.yaml lists "page views" (traffic): "page view" is the same term, not "page" + the verb "view"
    r = _route(powers, "daily page view count for the blog")
    assert r["status"] == "activated" and r["power"]["name"] == "analytics"
    assert any(t["key"] == "traffic" for t in r["tokens"])


def test_uninflected_forms_keep_every_listed_entry_and_single_words():
    table = {("page", "views"): {"concept": "traffic"}, ("news",): {"concept": "feed"}, ("new",): {"kinds": {"create": 1}},
             ("sales", "invoices"): {"concept": "invoice"}, ("sales", "invoice"): {"concept": "sale_doc"}}
    found = dict(uninflected_forms(table, [("s", ""), ("es", "")]))
    assert found[("page", "view")] == "traffic"
    assert ("new",) not in found and ("sales", "invoice") not in found  # one word alone, and a phrase the lexicon lists


# ------------------------------------------------------------ football: a rare word after a player is no name

def test_a_rare_word_right_after_a_named_player_is_no_second_name(football):
    r = _route(football, "is Okafor overperforming his xG this season")
    assert r["status"] == "activated" and r["intent"] == "deep" and r["error"] is None


def test_an_unknown_player_after_vs_is_still_player_not_found(football):
    r = _route(football, "okafor vs mbappe")
    assert r["status"] == "not_found" and r["error"]["code"] == "PLAYER_NOT_FOUND"


def test_how_has_a_two_word_name_been_doing_is_surface(football):
    r = _route(football, "how has Chidi Okafor been doing")
    assert r["status"] == "activated" and r["intent"] == "surface"


def test_how_is_a_three_word_topic_doing_is_no_football_question(football):
    r = _route(football, "how is the stock market doing")
    assert r["status"] == "not_found"


# ------------------------------------------------------------ a domain reads the words of its own languages

def test_a_domain_reads_only_its_languages_words(cfo):
    # cfo speaks English, romanised Hindi and Indonesian: "abhi tak" is Hindi for "by now", not Indonesian's
    # negation "tak" (which read "abhi tak paid" as unpaid); Hindi lists "tak" as a function word
    r = _route(cfo, "abhi tak paid invoices")
    assert not any(t["key"] == "unpaid" for t in r["tokens"])
    assert "tak" not in cfo.domain.words.negations and "nahi" in cfo.domain.words.negations


def test_every_language_block_is_still_checked(tmp_path):
    from routing.core.errors import LexiconError
    from routing.core.parse import parse_language_words

    data = {"en": {"stopwords": ["the"]}, "id": {"stopwords": ["yang"], "colour": ["x"]}}
    with pytest.raises(LexiconError) as err:
        parse_language_words(data, "words.yaml", ("en",))
    assert "unknown section 'colour' under 'id'" in str(err.value)
    assert parse_language_words({"en": {"stopwords": ["the"]}, "id": {"stopwords": ["yang"]}}, "w", ("en",)).stopwords == {"the"}


# ------------------------------------------------------------ the lifts follow the thresholds in use

def test_a_lift_is_made_at_the_sessions_thresholds(accounting):
    # payment_list alone holds "payment" and "customer": lifted to the `high` in use, not the domain's
    query = "which customer payments came in yesterday?"
    r = accounting.route(query, today=TODAY, thresholds={"high": 0.92})
    assert r.status.value == "activated" and r.matches[0].confidence == 0.92
    assert r.matches[0].score_breakdown["sole"] > 0
    # a session margin the leader does not clear leaves the choice
    wide = accounting.route(query, today=TODAY, thresholds={"margin": 0.6})
    assert wide.status.value == "multiple_matches" and "sole" not in wide.matches[0].score_breakdown


def test_the_tuners_sweep_sees_the_lift_at_each_swept_value(accounting):
    from routing.quality.evaluate import GoldenCase
    from routing.quality.tuning import evaluate, score_cases

    cases = [GoldenCase(query="which supplier has the phone number of Budi", tool="contact_search", status="activated")]
    scored = score_cases(accounting, cases, default_today=TODAY)
    for high in (0.8, 0.85, 0.9, 0.95):
        th = accounting.thresholds.__class__(**{**accounting.thresholds.to_dict(), "high": high})
        assert evaluate(scored, th).tier_accuracy == 1.0, high


def test_the_index_keeps_each_terms_holders(accounting):
    # the lifts read who holds a term from the index (a 10,000-tool catalog was scanned tool by tool a question)
    from routing.core.sole import term_holders

    # (each tool's keywords and related terms, and the terms its description names: routing.core.enrich.described)
    from routing.core.enrich import described
    named, _ = described(accounting.index, accounting.index.tools)
    own = term_holders(accounting.index.tools)
    assert accounting.index.term_holders == {c: own.get(c, frozenset()) | named.get(c, frozenset()) for c in own.keys() | named.keys()}
    assert accounting.index.term_holders["contact_info"] == {accounting.index.tool_index["contact_search"]}


def test_a_spelling_rule_makes_no_phrase_form():
    # our>or / or>our spell one word two ways: "tagihan vendor" made "tagihan vendour", "vendour" a known
    # word, and "vendor" then folded onto it, so "vendor bills" stopped reading as the phrase "vendor bill"
    table = {("tagihan", "vendor"): {"concept": "bill"}, ("vendor", "bill"): {"concept": "bill"}}
    rules = [("our", "or"), ("or", "our"), ("s", "")]
    assert dict(uninflected_forms(table, rules)) == {}
    assert dict(uninflected_forms({("page", "views"): {"concept": "traffic"}}, rules)) == {("page", "view"): "traffic"}


def test_a_negation_another_spoken_language_calls_a_plain_word_is_none():
    from routing.core.parse import parse_language_words

    data = {"id": {"stopwords": ["yang", "tidak"], "negations": ["tak", "tidak"]}, "hi": {"stopwords": ["tak"], "negations": ["nahi"]}}
    both = parse_language_words(data, "w", ("id", "hi"))
    assert both.negations == {"tidak", "nahi"}  # "tidak": Indonesian lists it as both, still a negation
    assert parse_language_words(data, "w", ("id",)).negations == {"tak", "tidak"}  # Indonesian alone keeps "tak"
