"""AppTest for the coverage and threshold-tuner pages, over a scratch copy of the lexicons."""
from __future__ import annotations

import json
from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

import ui.common
from conftest import app_page

ROOT = Path(__file__).resolve().parent.parent


app = app_page  # the shared AppTest helper (tests/conftest.py)


def chart_specs(at: AppTest) -> list[dict]:
    """The Plotly figures on the page, as their JSON specs."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def test_coverage_runs_golden_set_and_filters_failures(scratch):
    at = app("app_pages/coverage.py").run()
    assert not at.exception
    at.button(key="coverage_run_button").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert int(metrics["Questions"].replace(",", "")) > 50
    assert metrics["Top-1"].endswith("%")
    specs = chart_specs(at)
    titles = [s["layout"]["title"]["text"] for s in specs]
    assert {"Tier of each query", "Fast vs LLM path", "Routing latency", "Expected vs top tool"} <= set(titles)
    status = next(s for s in specs if s["layout"]["title"]["text"] == "Tier of each query")["data"][0]
    run = at.session_state["coverage_run"]["run"]
    assert sum(status["y"]) == len(run.rows)
    assert status["y"][status["customdata"].index("not_found")] == sum(r.status == "not_found" for r in run.rows) > 0
    # Only not_found: every row shown has that status.
    at.radio(key="coverage_filter").set_value("Only not found").run()
    table = at.dataframe[0].value
    assert len(table) == sum(r.status == "not_found" for r in run.rows) and set(table["status"]) == {"not_found"}
    at.radio(key="coverage_filter").set_value("Only wrong").run()
    assert len(at.dataframe[0].value) == sum(r.wrong for r in run.rows)


def test_coverage_upload_and_fix_opens_editor_prefilled(scratch):
    at = app("app_pages/coverage.py").run()
    at.radio(key="coverage_source").set_value("Upload a file").run()
    # A file upload cannot be driven in AppTest; run the same cases through the page's state instead.
    from routing.quality.evaluate import GoldenCase
    from routing.quality.gaps import run_coverage

    router = ui.common.get_registry().router("accounting")
    run = run_coverage(router, [GoldenCase("kwitansi bulan ini"), GoldenCase("outstanding invoices", tool="invoice_list")], default_today="2026-01-22")
    at.session_state["coverage_run"] = {"domain": "accounting", "source": "test", "run": run}
    at.run()
    assert not at.exception
    assert next(s for s in at.selectbox if s.key and s.key.startswith("coverage_fix_word")).options == ["kwitansi"]
    canon = next(s for s in at.selectbox if s.key and s.key.startswith("coverage_fix_canonical"))
    canon.set_value("invoice").run()
    at.button(key="coverage_fix_button").click().run()
    assert not at.exception
    # The editor page took the handoff: the synonym form holds the word and the canonical term.
    assert "editor_prefill" not in at.session_state
    assert at.session_state["ed:prefill_query"] == "kwitansi bulan ini"
    assert any(t.value == "kwitansi" for t in at.text_input)


def test_tuner_slider_changes_tiers_and_apply_writes_yaml(scratch):
    settings = scratch / "accounting" / "settings.yaml"
    before = settings.read_text()
    repo_before = (ROOT / "lexicons" / "accounting" / "settings.yaml").read_text()
    at = app("app_pages/tuner.py").run()
    assert not at.exception
    counts = dict(at.session_state["tuner_tier_counts"])
    titles = [spec["layout"]["title"]["text"] for spec in chart_specs(at) if spec["layout"]["title"]["text"].startswith("Sweeping")]
    assert sorted(titles) == ["Sweeping high", "Sweeping low", "Sweeping margin", "Sweeping medium"]
    # Raise "high" to the top: the fast path empties into multiple matches.
    at.slider(key="tuner_high").set_value(1.0).run()
    assert not at.exception
    moved = at.session_state["tuner_tier_counts"]
    assert moved["activated"] < counts["activated"]
    assert moved["multiple_matches"] > counts["multiple_matches"]
    at.slider(key="tuner_high").set_value(0.9).run()
    at.button(key="tuner_apply").click().run()
    assert not at.exception
    assert settings.read_text() == before  # Apply first previews: nothing is written yet
    assert any("high" in m.value and "0.90" in m.value for m in at.markdown)
    at.button(key="tuner_confirm").click().run()
    assert not at.exception
    data = yaml.safe_load(settings.read_text())
    assert data["thresholds"]["high"] == 0.9
    assert settings.read_text() != before and "# Confidence tiers" in settings.read_text()  # comments kept
    assert (ROOT / "lexicons" / "accounting" / "settings.yaml").read_text() == repo_before


def test_tuner_apply_previews_and_warns_when_accuracy_drops(scratch):
    settings = scratch / "accounting" / "settings.yaml"
    before = settings.read_text()
    at = app("app_pages/tuner.py").run()
    at.slider(key="tuner_high").set_value(1.0).run()
    at.button(key="tuner_apply").click().run()
    assert not at.exception
    assert any("worse than the file" in w.value for w in at.warning)
    at.button(key="tuner_cancel").click().run()
    assert settings.read_text() == before
    assert not any(b.key == "tuner_confirm" for b in at.button)


def test_tuner_shows_the_reliability_diagram_and_ece(scratch):
    """Issue 14: the tuner draws top confidence against the share right, with the ECE in its title."""
    at = app("app_pages/tuner.py").run()
    assert not at.exception
    specs = chart_specs(at)
    reliability = [s for s in specs if "Reliability" in str(s.get("layout", {}).get("title", ""))]
    assert len(reliability) == 1
    bars = [t for t in reliability[0]["data"] if t.get("type") == "bar"]
    assert bars and all(0 <= y <= 1 for y in bars[0]["y"])
    assert any("not calibrated" in c.value for c in at.caption)
