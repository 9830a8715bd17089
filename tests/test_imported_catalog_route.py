"""An imported catalog in a demo (issue 22): the path classifier speaks of the domain's own tools, not
of cfo's modes; a parameter takes a value only when the question holds one of its shape (a number or
id, a capitalised name, words after a marker of words.yaml); an off-topic question fills nothing."""
from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from routing import Router
from routing.cli.main import main
from routing.paths.classify import classify_category
from routing.paths.run import build_request

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = Path(__file__).resolve().parent / "catalogs"
TODAY = "2026-01-22"


def cli(*args: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    assert code == 0, err.getvalue() + out.getvalue()
    return json.loads(out.getvalue())


@pytest.fixture()
def travel(lexicon_root):
    cli("--lexicons", str(lexicon_root), "import-tools", str(CATALOGS / "travel_five.json"), "--domain", "travel")
    return lexicon_root


def route(root: Path, domain: str, query: str) -> dict:
    return cli("--lexicons", str(root), "route", "--domain", domain, query, "--today", TODAY)


def test_an_imported_catalog_shows_no_cfo_mode_and_a_reason_about_its_own_tools(travel):
    r = route(travel, "travel", "fly to rome next friday")
    assert r["path"] == "llm"
    assert r["category"] is None and r["mode"] is None
    assert r["classifier"]["category"] is None
    assert set(r["classifier"]["hits"]) == {"general_chat"}  # no bookkeeper / cfo words on a travel catalog
    assert r["classifier"]["reason"] == "travel declares no modes: the model chooses among its own 5 tools"
    classified = next(e for e in r["events"] if e["type"] == "route_classified")
    assert classified["category"] is None and "cfo" not in json.dumps(classified)
    assert set(r["tools_sent"]) == {"getWeatherForecast", "bookFlight", "translateText", "getStockPrice", "sendEmail"}
    # The request the model would get has the domain-neutral prompt, not a business assistant's.
    router = Router.load("travel", travel)
    request = build_request(router, router.route("fly to rome next friday", today=TODAY))
    system = request.messages[0]["content"]
    assert system.startswith("You are an assistant.") and "business" not in system
    assert route(travel, "travel", "hi")["category"] == "general_chat"  # chat still reads as chat


def test_cfo_keeps_its_modes_from_its_own_settings():
    cfg = Router.load("cfo").paths
    assert {"bookkeeper", "cfo"} <= set(cfg.classifier) and cfg.default_category == "cfo"
    assert classify_category("record a payment from Sharma", cfg, has_concepts=True).category == "bookkeeper"
    plain = classify_category("mystery question", cfg, has_concepts=True)
    assert (plain.category, plain.reason) == ("cfo", "no mode words; cfo by default")


def _params(r: dict) -> dict[str, dict]:
    return {m["name"]: m["suggested_params"] for m in r["matches"]}


def test_a_question_without_a_value_fills_no_parameter(travel):
    r = route(travel, "travel", "how is my stock portfolio doing today")
    assert r["matches"][0]["name"] == "getStockPrice" and r["matches"][0]["suggested_params"] == {}  # was symbol="stock portfolio doing"
    off = route(travel, "travel", "who won the football match yesterday")  # was a weak match with symbol="won football match"
    assert off["status"] == "not_found" and all(p == {} for p in _params(off).values())


def test_a_parameter_takes_a_value_of_its_shape(travel, lexicon_root):
    assert _params(route(travel, "travel", "stock price of AAPL"))["getStockPrice"] == {"symbol": "AAPL"}
    assert _params(route(travel, "travel", "what is the stock price of Apple"))["getStockPrice"] == {"symbol": "Apple"}
    assert _params(route(travel, "travel", "the stock price of apple"))["getStockPrice"] == {"symbol": "apple"}  # after "of"
    cli("--lexicons", str(lexicon_root), "import-tools", str(CATALOGS / "openapi_petstore.yaml"), "--domain", "pets")
    assert all("petId" not in p for p in _params(route(lexicon_root, "pets", "show me the pets")).values())  # was petId=pets
    ids = _params(route(lexicon_root, "pets", "info for pet 42"))
    assert ids["get_pets_petId"] == {"petId": "42"}  # the id, not "pet 42"
    assert _params(route(lexicon_root, "pets", "delete the pet with id abc-12"))["deletePet"] == {"petId": "abc-12"}


def test_a_search_parameter_the_author_marked_still_takes_every_leftover_word(accounting):
    r = accounting.route("find invoice sharma traders", today=TODAY)
    assert r.top.name == "invoice_search" and r.top.suggested_params.get("query") == "sharma traders"


# ---------------------------------------------------------------- what the playground card shows


@pytest.fixture()
def playground(travel, monkeypatch):
    import ui.common

    monkeypatch.setenv("ROUTING_LEXICONS", str(travel))
    ui.common.get_registry.clear()
    yield travel
    ui.common.get_registry.clear()


def _card(query: str) -> list[str]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.query_params.update({"domain": "travel", "today": TODAY, "q": query})
    at.run()
    assert not at.exception, at.exception
    return [str(m.value) for m in at.markdown]


def test_the_card_of_a_question_without_a_value_shows_no_made_up_value_nor_cfo(playground):
    shown = _card("how is my stock portfolio doing today")
    chips = [c for m in shown if m.startswith("Parameters:") for c in re.findall(r">([^<]*)</code>", m)]
    assert "symbol" in chips and not any("=" in c for c in chips)  # bare parameter names, no value
    assert not any("symbol=" in m for m in shown)  # was symbol=stock portfolio doing
    assert not any("cfo" in m for m in shown)
    shown = _card("check the share price for me")  # a choice: the LLM path, its classification shown
    assert not any("cfo" in m for m in shown)
    thinking = [m for m in shown if "declares no modes" in m]
    assert thinking  # the Thinking panel's classification line speaks of the domain's own tools


def test_the_card_shows_a_value_the_question_holds(playground):
    shown = _card("stock price of AAPL")
    assert any("symbol=AAPL" in m for m in shown if m.startswith("Parameters:"))


def test_a_dated_off_topic_question_on_a_catalog_speaks_of_its_tools_not_business_data(playground):
    shown = _card("which team won the football match yesterday")
    assert any("names a date but nothing a tool of this domain answers" in m for m in shown)
    assert not any("business" in m for m in shown)


@pytest.mark.parametrize("query", ["convert 100 dollars to euros", "what's the capital of france"])
def test_a_question_in_words_the_catalog_never_uses_is_at_best_a_weak_match(travel, query):
    # the dense list alone speaks there; the 5-tool catalog's synthetic fit read the first as
    # getStockPrice at 0.91, an activation of a tool that cannot convert currencies
    r = route(travel, "travel", query)
    assert r["status"] in ("weak_matches", "not_found")
    assert all(m["confidence"] < r["thresholds"]["medium"] for m in r["matches"])


def test_the_catalogs_own_words_are_still_answered(travel):
    r = route(travel, "travel", "book me a plane ticket to Paris")
    assert r["status"] in ("activated", "multiple_matches") and r["matches"][0]["name"] == "bookFlight"


def test_a_weak_match_asks_in_words_of_any_domain(travel):
    # the tools design's message is every domain's: it asked a travel catalog's user for "what kind of record"
    r = route(travel, "travel", "convert 100 dollars to euros")
    assert r["status"] == "weak_matches" and "record" not in r["message"] and "rephrase" in r["message"]
