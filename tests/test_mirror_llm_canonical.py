"""Factory (datasource_mirror): canonicalisation and L2 variations by the model when a request asks
for the LLM, against the local stand-in model; the rewrite table stays the default and fallback."""
from __future__ import annotations

import json

import pytest

from routing.designs import load_router
from routing.paths.fake_model import FakeModel
from routing.paths.llm import LLMClient, LLMConfig
from tests.fake_openai import refused_url

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def fake():
    with FakeModel() as f:
        yield f


@pytest.fixture()
def factory():
    return load_router("factory")  # a fresh router: an empty cache of the model's readings


def _client(url: str) -> LLMClient:
    return LLMClient(LLMConfig(base_url=url, max_retries=0, timeout_s=5.0))


def test_model_canonical_form_moves_a_slang_question_from_l2_to_l1(factory, fake):
    q = "when does the next steel delivery land"
    plain = factory.route(q, today=TODAY).to_dict()
    assert plain["layer"] == "L2" and plain["canonical_by"] == "table"
    before = len(fake.requests)
    asked = factory.run_llm(factory.route(q, today=TODAY), client=_client(fake.url)).to_dict()
    assert len(fake.requests) == before + 1
    sent = json.dumps(fake.requests[-1])
    assert "which supplier delivers steel sheets" in sent  # the vocabulary went with the question
    assert asked["canonical_by"] == "model" and asked["canonical"] == "which supplier delivers steel sheets"
    assert asked["layer"] == "L1" and asked["datasource"] == "inventory"
    assert asked["llm"]["canonical_by"] == "model" and asked["llm"]["usage"]["prompt_tokens"] > 0
    assert "the model wrote the canonical form" in asked["path_reason"]


def test_model_reading_fixes_a_question_the_table_sends_to_the_wrong_datasource(factory, fake):
    q = "which jobs on the machines r still open"
    assert factory.route(q, today=TODAY).to_dict()["datasource"] == "production"  # the table's reading
    asked = factory.run_llm(factory.route(q, today=TODAY), client=_client(fake.url)).to_dict()
    assert asked["datasource"] == "maintenance" and asked["canonical_by"] == "model"


def test_the_reading_is_cached_by_question(factory, fake):
    q = "when does the next steel delivery land"
    factory.run_llm(factory.route(q, today=TODAY), client=_client(fake.url))
    before = len(fake.requests)
    again = factory.run_llm(factory.route(q, today=TODAY), client=_client(fake.url)).to_dict()
    assert len(fake.requests) == before  # no second call for the same question
    assert again["llm"]["source"] == "cache" and again["canonical_by"] == "model" and again["layer"] == "L1"


def test_l2_voters_say_who_wrote_them(factory, fake):
    q = "r we low on bolts"  # L2 either way; the model's reading has no word of the vocabulary -> the table's voters
    table = factory.route(q, today=TODAY).to_dict()
    assert [v["source"] for v in table["votes"]][0] == "question" and {v["source"] for v in table["votes"][1:]} == {"table"}
    q = "how many machines broke down on the line this week"
    with FakeModel() as f:
        r = load_router("factory", environ={"ROUTER_L1_THRESHOLD": "0"})  # L1 never accepts: L2 votes
        asked = r.run_llm(r.route(q, today=TODAY), client=_client(f.url)).to_dict()
    assert asked["layer"] in ("L2", None) and asked["canonical_by"] == "model"
    sources = [v["source"] for v in asked["votes"]]
    assert sources[0] == "question" and set(sources[1:]) == {"model"} and len(sources) >= 2
    assert [v["text"] for v in asked["votes"][1:]][0] == asked["canonical"]


def test_unreachable_model_falls_back_to_the_table_and_says_upstream_down(factory):
    q = "when does the next steel delivery land"
    asked = factory.run_llm(factory.route(q, today=TODAY), client=_client(refused_url())).to_dict()
    assert asked["canonical_by"] == "table" and asked["layer"] == "L2" and asked["datasource"] == "inventory"
    assert asked["error"]["code"] == "UPSTREAM_DOWN" and "rewrite table" in asked["error"]["message"]


def test_a_failing_endpoint_is_asked_once_not_again_for_l3(factory):
    with FakeModel(status=503) as f:
        asked = factory.run_llm(factory.route("what is the capital of peru", today=TODAY), client=_client(f.url)).to_dict()
        assert len(f.requests) == 1
    assert asked["error"]["code"] == "UPSTREAM_DOWN" and asked["status"] in ("weak_matches", "not_found")
    assert asked["funnel"][-1]["reason"].startswith("L3 not run: the LLM endpoint failed")
