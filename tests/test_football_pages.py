"""Coverage and threshold-tuner pages on the football domain (design intent_tiers) under AppTest:
the golden corpus runs, tiers are the matches, and a slider re-classifies this design's scores."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import app_page
from routing import load_router
from routing.quality.evaluate import load_golden
from routing.quality.tuning import evaluate, score_cases

ROOT = Path(__file__).resolve().parent.parent


app = app_page  # the shared AppTest helper (tests/conftest.py)


def test_coverage_page_runs_the_football_golden_corpus(scratch):
    at = app("app_pages/coverage.py").run()
    assert not at.exception
    at.selectbox(key="coverage_domain_pick").set_value("football").run()
    at.button(key="coverage_run_button").click().run()
    assert not at.exception
    run = at.session_state["coverage_run"]
    assert run["domain"] == "football"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Top-1"] == "100.0%" and metrics["Tier accuracy"] == "100.0%"
    tops = {r.top for r in run["run"].rows}
    assert {"surface", "deep", "compare"} <= tops  # the tiers are this design's tools


def test_coverage_counts_an_ambiguous_name_as_a_clarification_not_a_tool(scratch):
    """'how is Diaz doing' asks which Diaz: neither player is a bar of "Top tier per query", nor a column of
    the confusion chart; the row's tool is empty, it says what it asks, and a caption under the chart says so."""
    import json

    at = app("app_pages/coverage.py").run()
    at.selectbox(key="coverage_domain_pick").set_value("football").run()
    at.button(key="coverage_run_button").click().run()
    assert not at.exception
    players = {p.name for p in load_router("football").roster.players}
    specs = {json.loads(c.proto.spec)["layout"]["title"]["text"]: json.loads(c.proto.spec) for c in at.get("plotly_chart")}
    hits = specs["Top tier per query"]["data"][0]["y"]  # the design's own word for what it routes to
    assert set(hits) == {"surface", "deep", "compare"}, hits
    assert not players & set(specs["Expected vs top tier"]["data"][0]["x"])
    table = at.dataframe[0].value
    diaz = table[table["query"] == "how is Diaz doing"].iloc[0]
    assert diaz["top"] is None or diaz["top"] != diaz["top"]  # no tool: None (NaN in the frame)
    assert "Marco Diaz" in diaz["asks"] and "Tomás Díaz" in diaz["asks"]
    caption = " ".join(c.value for c in at.caption)
    assert "asked back which one was meant" in caption and "Which Diaz" in caption


def test_tuner_page_sweeps_the_football_thresholds(scratch):
    at = app("app_pages/tuner.py").run()
    assert not at.exception
    at.selectbox(key="tuner_domain_pick").set_value("football").run()
    assert not at.exception
    counts = at.session_state["tuner_tier_counts"]
    assert counts["activated"] == 100 and counts["multiple_matches"] == 8
    at.slider(key="tuner_high").set_value(0.95).run()
    assert not at.exception
    after = at.session_state["tuner_tier_counts"]
    assert after["activated"] < counts["activated"]  # fewer tiers clear a stricter bar


def test_tuner_scores_agree_with_routing():
    """The tuner re-classifies the design's own scores: at the file's thresholds it sees what route says."""
    router = load_router("football")
    cases = load_golden(ROOT / "lexicons" / "football" / "golden.yaml")
    ev = evaluate(score_cases(router, cases), router.thresholds)
    routed = [router.route(c.query, today=c.today, context=c.context).status.value for c in cases]
    assert ev.counts == {s: routed.count(s) for s in ev.counts}
    assert ev.tier_accuracy == 1.0


@pytest.mark.parametrize("page", ["app_pages/playground.py", "app_pages/catalog.py", "app_pages/editor.py", "app_pages/dates.py"])
def test_every_page_renders_the_football_domain(scratch, page):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.session_state["domain"] = "football"
    at.switch_page(page).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]


def test_catalog_cost_counts_the_tools_the_tier_allows(scratch):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.session_state["domain"] = "football"
    at.switch_page("app_pages/catalog.py").run()
    at.text_input(key="cost_query").set_value("why is Marco Diaz declining").run()
    assert not at.exception
    metrics = {m.label: m for m in at.metric}
    assert "7 tools" in str(metrics["Only the routed tools"].proto.delta)
