"""Routing beyond the words of the examples (issue 14): stop words that carry meaning, queries made
only of stop words, numbers and percentages, and word forms (English and Indonesian) read through
their stem. Each is checked on a small imported (English) domain whose examples never use the
query's form; Indonesian affixes on the stem table itself."""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from routing import Router
from routing.core.stems import Stems
from routing.quality.importer import import_labelled_csv

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"

INTENTS = {
    "assistant_abilities": ["what are you able to do", "what can you do", "how can you help me", "what are you for",
                            "tell me what you can do", "are you able to help", "what do you do"],
    "user_name_change": ["change my name", "update my name on my profile", "my name is wrong, fix it",
                         "set my name to something else", "i got married and my name changed"],
    "assistant_name_change": ["change your name", "i want to call you something else", "can i rename you",
                              "give yourself another name", "your name should be different"],
    "calculator": ["what is 5 plus 3", "12 times 7", "20% of 150", "divide 81 by 9", "what is 2 to the power of 10",
                   "how much is 45 minus 12", "7 percent of 300"],
    "weather": ["will it rain today", "weather forecast for tomorrow", "is it going to snow", "how hot is it outside",
                "do i need an umbrella", "rain this weekend"],
    "send_message": ["send a text to mom", "text my brother", "message dad that i am late", "send an sms to anna"],
    "alarm": ["set an alarm for 7", "wake me up at six", "cancel my alarm", "snooze the alarm"],
    "money_transfer": ["transfer money to savings", "send funds to my other account", "move cash between accounts",
                       "transfer 100 to john"],
}


@pytest.fixture(scope="module")
def router(tmp_path_factory) -> Router:
    root = tmp_path_factory.mktemp("lex")
    shutil.copytree(ROOT / "lexicons" / "_shared", root / "_shared")
    src = root / "train.csv"
    with src.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["text", "category"])
        for label, texts in INTENTS.items():
            for t in texts:
                w.writerow([t, label])
    import_labelled_csv(src, "general", root=root, holdout=0.0)
    return Router.load("general", root)


def top(router: Router, query: str) -> str | None:
    cands = router.route(query, today=TODAY).ranked_candidates
    return cands[0]["name"] if cands else None


def test_a_query_of_stop_words_only_still_gets_candidates(router):
    assert top(router, "what can you do for me") == "assistant_abilities"


def test_my_and_your_route_apart(router):
    assert top(router, "change my name please") == "user_name_change"
    assert top(router, "change your name please") == "assistant_name_change"


@pytest.mark.parametrize("query", ["what is 100 multiplied by 55", "15% of 68"])
def test_numbers_and_percentages_lean_to_the_tool_whose_examples_have_them(router, query):
    assert top(router, query) == "calculator"


@pytest.mark.parametrize("query,tool", [
    ("is it raining", "weather"),  # English: raining -> rain
    ("snowing tomorrow?", "weather"),
    ("transferring", "money_transfer"),
])
def test_an_unknown_word_form_reads_as_the_known_word(router, query, tool):
    assert top(router, query) == tool


def test_a_derived_form_is_a_weaker_reading_shown_as_a_correction(router):
    r = router.route("rainy tomorrow?", today=TODAY)
    assert r.ranked_candidates[0]["name"] == "weather"
    assert [(c.original, c.corrected) for c in r.corrections] == [("rainy", "rain")]


def test_stems_never_lengthen_a_word():
    stems = Stems(("en", "id"), {"goods", "transfer", "penjualan", "kirim"})
    assert stems.known_form("transferring") == "transfer"
    assert stems.known_form("dikirimkan") == "kirim"  # Indonesian affixes: di-...-kan
    assert stems.known_form("mengirim") == "kirim"  # and nasal prefixes (meng- + kirim)
    assert stems.known_form("good") is None  # "good" is not "goods"
    assert stems.known_form("jual") is None  # a shorter word keeps its own meaning
    assert stems.known_form("transfer") is None  # a known word is not remapped
    assert Stems(("en",), {"rain", "bus"}).derived_form("rainy") == "rain"
    assert Stems(("en",), {"rain", "bus"}).derived_form("busy") is None  # too short to trust
