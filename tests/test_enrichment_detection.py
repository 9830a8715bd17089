"""002 (cfo): which enrichments run is detected from the shape of the rows the tools returned, on
both paths; a tools.yaml `enrichments:` tag is only an override."""
from __future__ import annotations

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
