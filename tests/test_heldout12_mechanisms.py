"""Issue 22, held-out set 12 round: the general rules set 12's misses pointed at, each checked as a
user sees it (the tier, the player found, the error code, the tool) on phrasings that are not in set 12.
Set 12 itself is measured with `python -m routing eval --golden lexicons/D/heldout12.yaml`."""
from __future__ import annotations

import re

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def football():
    return load_router("football")


@pytest.fixture(scope="module")
def accounting():
    return load_router("accounting")


def _route(router, query):
    return router.route(query, today=TODAY).to_dict()


def _players(r):
    return [e["name"] for e in r.get("entities") or []]


# ------------------------------------------------------------ a team of the data is no unknown player

@pytest.mark.parametrize("query, tier, player", [
    ("tactical breakdown of Rizky Pratama against Persija Raya", "deep", "Rizky Pratama"),
    ("Bayu Saputra stats in the last game against Arema Jaya", "surface", "Bayu Saputra"),
])
def test_a_team_named_beside_a_player_is_no_second_player(football, query, tier, player):
    # Persija Raya and Arema Jaya are teams of the roster's data: before, each was taken for a player
    # no one knows and the question came back PLAYER_NOT_FOUND without a tier
    r = _route(football, query)
    assert r["status"] == "activated" and r["error"] is None
    assert [m["name"] for m in r["matches"]] == [tier]
    assert _players(r) == [player]


def test_a_player_no_one_knows_is_still_not_found_beside_a_team(football):
    r = _route(football, "compare Rizky Pratama with Lionel Messi at Persija Raya")
    assert r["status"] == "not_found"
    assert r["error"]["code"] == "PLAYER_NOT_FOUND"
    assert r["error"]["details"]["names"] == ["lionel messi"]


# ------------------------------------------------------------ a word without vowels is a chat abbreviation

def test_a_lower_case_word_without_vowels_is_no_player(football):
    # "gmn" (gimana, how) was a player no one knows, so a known player's question had no tier
    r = _route(football, "gmn stats Bayu Saputra 3 laga terakhir")
    assert r["status"] == "activated" and r["error"] is None
    assert [m["name"] for m in r["matches"]] == ["surface"]
    assert _players(r) == ["Bayu Saputra"]


def test_a_name_with_vowels_in_lower_case_is_still_a_name(football):
    r = _route(football, "gmn stats mbappe")
    assert r["error"]["code"] == "PLAYER_NOT_FOUND"
    assert r["error"]["details"]["names"] == ["mbappe"]


# ------------------------------------------------------------ a record's code glued to its number

@pytest.mark.parametrize("query", [
    "invoice INV-0042, show me the lines on it",
    "invoice SO/2025/118 - what's on it?",
])
def test_an_invoice_named_by_its_code_is_that_invoice(accounting, query):
    r = _route(accounting, query)
    assert r["status"] == "activated"
    assert r["matches"][0]["name"] == "invoice_detail"


def test_a_number_glued_to_a_word_after_no_term_names_no_record(accounting):
    # "covid-19" follows no term of the lexicon: it asks for no record's detail
    r = _route(accounting, "expenses related to covid-19 this year")
    assert r["matches"][0]["name"] == "expense_list"


# ------------------------------------------------------------ Hinglish function words are stop words

@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query, tool", [
    ("abhi kaun kaun se customers ka payment overdue hai", "overdue_customers"),
    ("kya humne TDS file kiya", "tds_summary"),
    ("apne dono bank accounts ka balance dikhao", "bank_balance"),
])
def test_hinglish_function_words_do_not_dilute_a_clear_question(cfo, query, tool):
    # abhi (now), kaun (who), humne (we), kiya (did), apne (our), dono (both) were read as unknown
    # words, which lowered the examples' likeness below the fast path's 0.85
    r = _route(cfo, query)
    assert r["status"] == "activated"
    assert r["matches"][0]["name"] == tool


def test_a_phrase_holding_a_function_word_still_matches(cfo):
    # "pay ho gaya" (got paid) is a phrase of the lexicon: its words are matched before stop words go
    r = _route(cfo, "Sharma Traders ka bill pay ho gaya kya")
    assert "paid" in [t["key"] for t in r["tokens"] if t["role"] == "concept"]
    assert "pay ho gaya" in [t["text"] for t in r["tokens"]]


def test_sales_so_far_this_year_keeps_its_dates(cfo):
    r = _route(cfo, "sales abhi tak kitni hui hai is saal")
    assert r["status"] == "activated" and r["matches"][0]["name"] == "sales_summary"
    assert (r["dates"][0]["start"], r["dates"][0]["end"]) == ("2026-01-01", "2026-01-22")


# ------------------------------------------------------------ a word doubled with a 2 (Indonesian)

@pytest.mark.parametrize("query, tool", [
    ("barang2 yg stoknya habis", "product_list"),   # barang2 = barang-barang, goods
    ("faktur2 bulan lalu", "invoice_list"),
])
def test_a_word_doubled_with_a_2_reads_as_the_word(accounting, query, tool):
    # "barang2" held a digit, so it was read as a number (or an id) and the question named nothing
    r = _route(accounting, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool
    assert not [t for t in r["tokens"] if t["role"] == "number"]


def test_the_faktur2_question_keeps_its_date(accounting):
    r = _route(accounting, "faktur2 bulan lalu")
    assert (r["dates"][0]["start"], r["dates"][0]["end"]) == ("2025-12-01", "2025-12-31")


def test_a_word_with_a_2_the_router_does_not_know_stays_a_name_or_number(accounting):
    # "EC2" is no doubled "ec": an id the lexicon does not know, as before
    r = _route(accounting, "EC2 instances")
    assert "ec2" in [t["key"] for t in r["tokens"]]


def test_a_language_without_the_mark_reads_no_doubled_word():
    from routing.core.parse import parse_language_words

    assert parse_language_words({"en": {"stopwords": ["the"]}}, "w", ("en",)).reduplication == frozenset()
    assert parse_language_words({"id": {"reduplication": "2"}}, "w", ("id",)).reduplication == frozenset("2")
    assert parse_language_words({"id": {"reduplication": "2"}}, "w", ("en",)).reduplication == frozenset()


def test_a_bad_mark_names_the_file_and_line():
    from routing.core.errors import LexiconError
    from routing.core.parse import parse_language_words
    from routing.core.yamlio import load_with_lines

    data = load_with_lines("id:\n  stopwords: [yang]\n  reduplication: dua\n")
    with pytest.raises(LexiconError) as err:
        parse_language_words(data, "words.yaml", ("id",))
    assert "id.reduplication must be the digits written for a doubled word" in str(err.value)
    assert err.value.problems[0].line == 3


# ------------------------------------------------------------ a clear leader in a question asking one thing (cfo)

@pytest.mark.parametrize("query, tool, lift", [
    # record_payment holds every term create_invoice does and more: the one writer (routing.core.sole)
    ("received 40,000 from Arora Steels for INV-2210, please record it", "record_payment", "sole_write"),
    ("which suppliers do we owe the most", "payables_summary", "lead"),
    ("ICICI aur SBI dono accounts mein abhi kitna balance hai", "bank_balance", "lead"),
])
def test_a_clear_leader_takes_the_fast_path(cfo, query, tool, lift):
    # a known question far ahead of any other tool, lifted to high (with "against INV-2210" cfo's pattern
    # makes record_payment sure alone; "output" and "net" are gst_summary's description's words)
    r = _route(cfo, query)
    assert r["status"] == "activated" and r["path"] == "fast"
    m = r["matches"][0]
    assert m["name"] == tool and m["confidence"] == 0.85
    assert lift in m["score_breakdown"]


def test_a_question_asking_two_things_is_not_lifted(cfo):
    # two request verbs (compare, explain): the LLM path's, shared/seeds 002
    r = _route(cfo, "compare sales and expenses for the last quarter and explain why profit fell")
    assert r["status"] != "activated" and r["path"] == "llm"
    assert all("lead" not in c["score_breakdown"] for c in r["candidates"])


def test_without_the_setting_the_bands_are_as_before():
    from routing.core.router import Router

    plain = Router(load_router("cfo").domain.with_weights(clear_lead=0.0))
    r = plain.route("ICICI aur SBI dono accounts mein abhi kitna balance hai", today=TODAY).to_dict()
    assert r["status"] == "multiple_matches"
    assert r["matches"][0]["name"] == "bank_balance" and r["matches"][0]["confidence"] < 0.85


def test_a_clear_lead_out_of_range_names_the_file_and_line(tmp_path):
    import shutil

    from routing.core.errors import LexiconError
    from routing.core.lexicon import DEFAULT_LEXICON_ROOT, load_domain

    shutil.copytree(DEFAULT_LEXICON_ROOT / "cfo", tmp_path / "cfo")
    shutil.copytree(DEFAULT_LEXICON_ROOT / "_shared", tmp_path / "_shared")
    settings = tmp_path / "cfo" / "settings.yaml"
    text = re.sub(r"(?m)^  clear_lead: [0-9.]+$", "  clear_lead: 1.5", settings.read_text(encoding="utf-8"))
    settings.write_text(text, encoding="utf-8")
    line = text.splitlines().index("  clear_lead: 1.5") + 1
    with pytest.raises(LexiconError) as err:
        load_domain("cfo", tmp_path)
    problem = next(p for p in err.value.problems if "clear_lead" in p.message)
    assert problem.line == line


# ------------------------------------------------------------ review: what the new rules must leave alone

@pytest.mark.parametrize("query, start, end", [
    ("invoices from jan2", "2026-01-02", "2026-01-02"),   # a date word with a digit is still a date
])
def test_a_date_word_glued_to_a_digit_is_no_doubled_word(accounting, query, start, end):
    r = _route(accounting, query)
    assert (r["dates"][0]["start"], r["dates"][0]["end"]) == (start, end)


def test_last2_months_gets_no_made_up_date(accounting):
    # "last2" is no doubled "last": before the review it read "last months" and gave December
    r = _route(accounting, "sales last2 months")
    assert not r["dates"] or r["dates"][0]["start"] != "2025-12-01"


@pytest.mark.parametrize("query", ["invoices for PO-3321", "sales H-1 2025", "invoice list Q/4"])
def test_another_records_code_or_a_period_names_no_invoice(accounting, query):
    # the code must follow the term it numbers, with two letters or more
    r = _route(accounting, query)
    assert not r["matches"] or r["matches"][0]["name"] != "invoice_detail"


def test_a_name_a_trigger_introduces_may_have_no_vowel(football):
    r = _route(football, "stats for rhys")
    assert r["error"]["code"] == "PLAYER_NOT_FOUND"
    assert r["error"]["details"]["names"] == ["rhys"]
