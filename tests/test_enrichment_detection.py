"""002 (cfo): which enrichments run is detected from the shape of the rows the tools returned, on
both paths; a tools.yaml `enrichments:` tag is only an override."""
from __future__ import annotations

import json

import pytest

from routing import Router
from routing.paths.enrichments import detect_enrichments
from routing.paths.fake_model import FakeModel
from routing.paths.llm import LLMClient, LLMConfig

TODAY = "2026-01-22"
REPLAY = {"data_mode": "replay"}


def _names(responses) -> list[str]:
    return [d["name"] for d in detect_enrichments(responses)]


def test_shapes_without_any_tag():
    series = {"tool": "t", "series": {"metric": "revenue", "unit": "money", "points": [{"period": "2025-11", "value": 10.0}, {"period": "2025-12", "value": 12.0}]}}
    pct = {"tool": "t", "series": {"metric": "margin_pct", "unit": "percent", "points": [{"period": "2025-11", "value": 10.0}, {"period": "2025-12", "value": 12.0}]}}
    rows = {"tool": "t", "rows": [{"name": "a", "amount": 5}, {"name": "b", "amount": 9}]}
    checks = {"tool": "t", "checks": [{"metric": "runway_months", "value": 2, "below": 3}]}
    figures = {"tool": "t", "figures": {"cash": 120000}}
    assert _names([series]) == ["currency_format", "trend_analysis"]
    assert _names([pct]) == ["trend_analysis"]  # a percent series is not money
    assert _names([rows]) == ["currency_format", "ranking"]
    assert _names([checks]) == ["alert_evaluation"]
    assert _names([figures]) == ["currency_format"]
    assert _names([{"tool": "t", "rows": [{"name": "a", "amount": 5}]}]) == ["currency_format"]  # one row: nothing to rank
    assert _names([{"tool": "t", "series": {"metric": "x", "points": [{"period": "2025-12", "value": 1}]}}]) == []  # one point: no trend
    assert _names([{"tool": "t", "action": {"status": "created"}}]) == []


@pytest.fixture(scope="module")
def cfo() -> Router:
    return Router.load("cfo")


def test_fast_path_enrichments_follow_the_data(cfo):
    assert cfo.domain.tool("top_customers").extra.get("enrichments") is None  # no tag: the data decides
    r = cfo.route("top customers by revenue this year", today=TODAY, context=REPLAY).to_dict()
    assert r["path"] == "fast" and r["matches"][0]["name"] == "top_customers"
    assert "ranking" in r["enrichments"] and r["enrichments_source"].startswith("detected from the data returned")
    assert any(e["name"] == "ranking" for e in r["enrichment_results"])


def test_without_data_the_enrichments_are_labelled_predicted(cfo):
    r = cfo.route("top customers by revenue this year", today=TODAY).to_dict()
    assert r["enrichments"] and r["enrichments_source"].startswith("predicted")


def test_a_tag_overrides_detection(cfo):
    tool = cfo.domain.tool("send_payment_reminders")
    assert tool.extra.get("enrichments") == []
    r = cfo.route("send payment reminders to overdue customers", today=TODAY, context=REPLAY).to_dict()
    assert r["path"] == "fast" and r["matches"][0]["name"] == "send_payment_reminders"
    assert r["pipeline"] and r["enrichment_results"] == []
    # Its data has rows and limits (detection would rank and alert), but the tag says none.
    assert _names(r["pipeline_data"]) and r["enrichments"] == [] and r["enrichments_source"].startswith("override")


def test_llm_path_enrichments_detected_from_the_chosen_tools_data(cfo):
    with FakeModel() as fake:
        client = LLMClient(LLMConfig(base_url=fake.url, max_retries=0, timeout_s=5))
        planned = cfo.route("which customers owe us the most money", today=TODAY, context=REPLAY)
        assert planned.path.value == "llm"
        r = cfo.run_llm(planned, client=client).to_dict()
    assert r["llm"]["tool_call"]["arguments"]["operation"] == "get_customer_outstanding"
    assert r["enrichments_source"].startswith("detected from the data get_customer_outstanding returned")
    assert "ranking" in r["enrichments"] and any(e["name"] == "ranking" for e in r["enrichment_results"])


def test_costs_and_cache_hits_read_from_the_replys_usage(cfo):
    """The second question sends the same tools and system prompt: the reply's usage says how much
    of the prompt was cached, and the cost is priced from it (the estimate stays labelled one)."""
    with FakeModel() as fake:
        client = LLMClient(LLMConfig(base_url=fake.url, max_retries=0, timeout_s=5))
        first = cfo.run_llm(cfo.route("which customers owe us the most money", today=TODAY), client=client).to_dict()
        planned = cfo.route("which customers owe us the most right now", today=TODAY)
        assert planned.path.value == "llm"  # a second question for the model, same system prompt and tools
        second = cfo.run_llm(planned, client=client).to_dict()
    m1, m2 = first["llm"]["measured"], second["llm"]["measured"]
    assert first["estimate"]["kind"] == "estimate" and m1["kind"] == "measured"
    assert m1["cached_tokens"] == 0 and m1["cache_hit"] is False and m1["cost_usd"] == m1["uncached_cost_usd"]
    assert m2["cache_hit"] is True and 0 < m2["cached_tokens"] <= m2["input_tokens"]
    assert m2["cost_usd"] < m2["uncached_cost_usd"]
    assert m1["input_tokens"] == len(json.dumps(fake.requests[0]["tools"]) + json.dumps(fake.requests[0]["messages"])) // 4
    assert m1["latency_ms"] is not None and m1["latency_ms"] >= 0


def test_match_intent_is_offered_and_its_answer_is_the_routers_own(cfo):
    from tests.fake_openai import FakeOpenAI

    planned = cfo.route("which customers owe us the most money", today=TODAY)
    assert planned.tools_sent[-1] == "match_intent"
    with FakeOpenAI("tool_call") as fake:  # a model that asks the router first
        fake.tool_name = "match_intent"
        fake.arguments = {"question": "which customers owe us the most money", "intent": "overdue_customers"}
        r = cfo.run_llm(planned, client=LLMClient(LLMConfig(base_url=fake.url, max_retries=0, timeout_s=5))).to_dict()
        sent = fake.requests[0]["tools"][-1]["function"]
    assert sent["name"] == "match_intent" and set(sent["parameters"]["properties"]) == {"question", "intent"}
    answer = r["llm"]["match_intent"]
    routed = cfo.route("which customers owe us the most money", today=TODAY)
    expected = [m.name for m in routed.matches[:3]] or [c["name"] for c in routed.ranked_candidates()[:3]]
    assert [i["name"] for i in answer["intents"]] == expected and expected
    assert answer["expected"] == "overdue_customers" and answer["agrees"] == ("overdue_customers" in expected)
    assert any(e["type"] == "match_intent_answered" for e in r["events"])
