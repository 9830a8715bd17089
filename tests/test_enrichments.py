"""Enrichments computed on replayed data (cfo, --data-mode replay): every pipeline tool has a recording,
trends / anomalies / rankings / alerts / amounts are computed from it, on both paths, and shown."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from streamlit.testing.v1 import AppTest

from fake_openai import FakeOpenAI
from routing import Router
from routing.paths.enrichments import anomalies, compute_enrichments, display_money, trend
from routing.paths.llm import LLMClient, LLMConfig
from routing.paths.run import run_llm

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"
REPLAY = {"data_mode": "replay"}


@pytest.fixture(scope="module")
def cfo() -> Router:
    return Router.load("cfo")


def _recorded(tool: str) -> dict:
    return yaml.safe_load((ROOT / "lexicons" / "cfo" / "replay.yaml").read_text())["responses"][tool]


def test_every_pipeline_step_of_every_intent_has_a_recording(cfo):
    for tool in cfo.domain.tools:
        for step in tool.extra.get("pipeline") or []:
            assert step["tool"] in cfo.replay.responses, (tool.name, step["tool"])


def test_the_done_when_command_returns_computed_enrichment_results():
    proc = subprocess.run([sys.executable, "-m", "routing", "route", "pichle mahine ka P&L dikhao", "--domain", "cfo",
                           "--data-mode", "replay", "--today", TODAY], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["pipeline"][0] == {"tool": "get_profit_and_loss", "params": {"from": "2025-12-01", "to": "2025-12-31"}}
    values = _recorded("get_profit_and_loss")["series"]["values"]
    t = next(e for e in out["enrichment_results"] if e["name"] == "trend_analysis")["data"]
    assert t["change"] == values[-1] - values[0] and t["direction"] == "up"
    assert t["change_pct"] == round((values[-1] - values[0]) / values[0] * 100, 1)
    assert [p["period"] for p in t["points"]] == ["2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12"]
    money = next(e for e in out["enrichment_results"] if e["name"] == "currency_format")["data"]["amounts"]
    assert money["get_profit_and_loss.revenue"] == "₹48,25,000"  # Indian grouping


def test_route_events_prints_timed_json_lines_before_the_result():
    proc = subprocess.run([sys.executable, "-m", "routing", "route", "top expenses this month", "--domain", "cfo",
                           "--data-mode", "replay", "--today", TODAY, "--events"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    events = [x["event"] for x in lines[:-1]]
    assert [e["type"] for e in events] == [e["type"] for e in lines[-1]["events"]]
    assert [e["type"] for e in events][:2] == ["route_started", "route_classified"] and "pipeline_executing" in [e["type"] for e in events]
    assert all(a["t_ms"] <= b["t_ms"] for a, b in zip(events, events[1:]))


def test_ranking_alerts_and_anomalies_on_recorded_data(cfo):
    r = cfo.route("overdue customers", today=TODAY, context=REPLAY)
    by = {}
    for e in r.path_fields.enrichment_results:
        by.setdefault(e["name"], []).append(e)
    ranked = by["ranking"][0]["data"]["rows"]
    amounts = [x["amount"] for x in ranked]
    assert amounts == sorted(amounts, reverse=True) and [x["rank"] for x in ranked] == list(range(1, len(ranked) + 1))
    fired = [a for a in by["alert_evaluation"] if a["data"]["fired"]]
    assert fired and fired[0]["data"]["value"] == 96 and fired[0]["summary"].startswith("ALERT")
    sales = cfo.route("sales trend", today=TODAY, context=REPLAY)
    odd = [e for e in sales.path_fields.enrichment_results if e["name"] == "anomaly_detection"]
    values = _recorded("get_sales_timeseries")["series"]["values"]
    assert odd and odd[0]["data"]["points"][0]["value"] == min(values) == 2410000


def test_enrichment_functions_on_their_own():
    assert trend([100, 110, 121])["direction"] == "up" and trend([100, 110, 121])["slope_per_period"] == 10.5
    assert trend([5, 5])["direction"] == "flat" and trend([0, 3])["change_pct"] is None
    assert anomalies([10, 11, 10, 12, 11, 90]) == [5] and anomalies([10, 10, 10, 10, 10]) == [] and anomalies([1, 50]) == []
    assert display_money(12345678, "INR") == "₹1,23,45,678" and display_money(-5000, "INR") == "-₹5,000"
    assert display_money(1234567, "IDR") == "Rp 1,234,567"
    responses = [{"tool": "t", "checks": [{"metric": "m", "value": 5, "below": 3}]}]
    assert compute_enrichments(responses, ["alert_evaluation"], currency="INR")[0]["data"]["fired"] is False
    assert compute_enrichments(responses, ["ranking", "trend_analysis"], currency="INR") == []


def test_without_a_data_mode_nothing_runs_and_nothing_is_computed(cfo):
    r = cfo.route("pichle mahine ka P&L dikhao", today=TODAY)
    assert r.path_fields.enrichment_results == () and r.enrichments
    assert "pipeline_executing" not in [e["type"] for e in r.events]
    assert "enrichment_results" in r.to_dict() and "pipeline_data" not in r.to_dict()


def test_a_replayed_series_ends_in_the_requested_month(cfo):
    r = cfo.route("cash flow statement for march 2025", today=TODAY, context=REPLAY)
    t = next(e for e in r.path_fields.enrichment_results if e["name"] == "trend_analysis")
    assert t["data"]["points"][-1]["period"] == "2025-03"


def test_the_llm_path_on_replay_data_computes_the_enrichments_of_the_tool_the_model_chose(cfo):
    with FakeOpenAI() as fake:
        fake.arguments = {"operation": "get_expense_timeseries", "date_from": "2025-02-01", "date_to": "2026-01-31"}
        planned = cfo.route("mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao", today=TODAY, context=REPLAY)
        assert planned.path.value == "llm"
        client = LLMClient(LLMConfig(api_key="k", base_url=fake.url, timeout_s=5, max_retries=0))
        fake.tool_name = next(m.name for m in cfo.paths.meta_tools if "get_expense_timeseries" in m.tools)
        done = run_llm(cfo, planned, client=client)
    assert done.error is None
    names = [e["name"] for e in done.path_fields.enrichment_results]
    assert "trend_analysis" in names and "anomaly_detection" in names
    assert done.path_fields.pipeline_data[0]["tool"] == "get_expense_timeseries"


def test_modes_belong_to_domains_that_have_modes(cfo):
    acc = Router.load("accounting").route("invoice bulan ini", today=TODAY).to_dict()
    assert acc["path"] == "fast" and acc["mode"] is None and acc["conversation_mode"] is None
    assert cfo.route("pichle mahine ka P&L dikhao", today=TODAY).to_dict()["mode"] == "cfo"


def test_the_playground_shows_the_thinking_panel_and_the_enrichments():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.query_params["domain"] = "cfo"
    at.run()
    at.selectbox(key="_w_domain").set_value("cfo").run()
    at.toggle(key="data_mode_replay_cfo").set_value(True).run()
    at.chat_input(key="query").set_value("receivables summary").run()
    assert not at.exception, at.exception
    result = at.session_state["conversation"][0]["result"]
    assert result["data_mode"] == "replay" and result["enrichment_results"]
    assert any("ALERT" in e.value for e in at.error)  # the fired alert as a banner
    assert at.status and "events" in at.status[0].label
    assert any("CFO mode" in m.value for m in at.markdown)  # cfo has modes


def test_the_accounting_fast_card_shows_no_mode_badge():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    at.selectbox(key="_w_domain").set_value("accounting").run()
    at.chat_input(key="query").set_value("invoice bulan ini").run()
    assert not at.exception, at.exception
    assert at.session_state["conversation"][0]["result"]["path"] == "fast"
    assert not any("CFO mode" in m.value for m in at.markdown)


def test_replay_in_a_domain_without_recordings_says_nothing_ran():
    r = Router.load("accounting").route("invoice bulan ini", today=TODAY, context=REPLAY)
    assert r.path_fields.enrichment_results == () and "nothing ran" in r.path_fields.pipeline_notes[-1]
    assert "pipeline_executing" not in [e["type"] for e in r.events]
