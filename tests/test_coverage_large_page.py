"""The Coverage page opens a large run's summary (never routing it): metrics, tiers and tools over
time, topics as a treemap; the run, filters and chosen topic live in the URL; "Fix in the editor"
hands the topic's fix to the editor."""
from __future__ import annotations

import csv
import json

import pytest

from conftest import app_page
from routing.quality.coverage_input import Columns
from routing.quality.coverage_run import JobSpec, run_job

THEMES = ["weather tomorrow in jakarta", "will it rain tomorrow", "what's the weather forecast tomorrow", "weather for tomorrow morning",
          "tell me a joke", "tell me a funny joke", "know any good jokes", "a joke please"]
COVERED = ["outstanding invoices", "unpaid invoices this month", "profit and loss last quarter", "list all customers"]


@pytest.fixture()
def run_folder(scratch):
    """A finished run of the accounting domain, in the runs folder beside the scratch lexicons."""
    src = scratch.parent / "log.csv"
    with src.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["text", "asked"])
        for i, q in enumerate(THEMES * 3 + COVERED * 6):
            w.writerow([q, f"2026-01-{1 + i % 10:02d}"])
    out = scratch.parent / "coverage-runs" / "big"
    summary = run_job(JobSpec(input=str(src), domain="accounting", root=str(scratch), out=str(out), today="2026-01-22",
                              columns=Columns(time="asked"), workers=1))
    return out, summary


def specs(at) -> dict[str, dict]:
    return {json.loads(el.proto.spec)["layout"]["title"]["text"]: json.loads(el.proto.spec) for el in at.get("plotly_chart")}


def test_a_link_opens_the_run_with_its_filters_and_topic(run_folder):
    out, summary = run_folder
    topics = summary["topics"]
    assert len(topics) >= 2
    at = app_page("app_pages/coverage.py")
    at.query_params.update({"run": "big", "topic": str(topics[1]["id"]), "tiers": "not_found"})
    at.run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Questions"] == f"{summary['rows']:,}" and metrics["Not covered"] == f"{summary['uncovered']:,}"
    charts = specs(at)
    tiers = charts["Tiers over time (per day)"]["data"]
    assert [t["customdata"][0] for t in tiers] == ["not_found"]  # the link's tier filter
    assert sum(tiers[0]["y"]) == summary["tiers"]["not_found"]
    treemap = charts["Topics of what is not covered (area = questions)"]["data"][0]
    assert treemap["values"] == [t["size"] for t in topics] and treemap["labels"] == [t["name"] for t in topics]
    assert at.selectbox(key="lr_topic").value == topics[1]["id"]
    assert any(topics[1]["examples"][0] in m.value for m in at.markdown)
    # Choosing another topic and another tier writes them to the URL.
    at.selectbox(key="lr_topic").set_value(topics[0]["id"]).run()
    at.multiselect(key="lr_tiers").select("activated").run()
    assert not at.exception
    assert at.query_params["topic"] == [str(topics[0]["id"])] or at.query_params["topic"] == str(topics[0]["id"])
    tiers_param = at.query_params["tiers"]
    tiers_param = tiers_param[0] if isinstance(tiers_param, list) else tiers_param
    assert set(tiers_param.split(",")) == {"not_found", "activated"}


def test_fix_in_the_editor_takes_the_topics_fix(run_folder):
    out, summary = run_folder
    topic = summary["topics"][0]
    at = app_page("app_pages/coverage.py")
    at.query_params.update({"run": "big"})
    at.run()
    assert at.selectbox(key="lr_topic").value == topic["id"]
    at.button(key="lr_fix_button").click().run()
    assert not at.exception
    assert "editor_prefill" not in at.session_state  # the editor took the hand-off
    assert at.session_state["ed:prefill_query"] == topic["fix"]["prefill"]["query"] == topic["examples"][0]
    assert any(t.value == topic["fix"]["prefill"]["variant"] for t in at.text_input)


def test_an_unfinished_run_shows_its_progress(run_folder, scratch):
    out, summary = run_folder
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["finished"] = False
    manifest["total_estimate"] = summary["rows"] * 4
    (out / "summary.json").unlink()
    (out / "manifest.json").write_text(json.dumps(manifest))
    at = app_page("app_pages/coverage.py")
    at.query_params.update({"run": "big"})
    at.run()
    assert not at.exception
    bar = at.get("progress")[0]
    assert f"{summary['rows']:,} of {summary['rows'] * 4:,}" in bar.proto.text
    assert not at.metric or all(m.label != "Not covered" for m in at.metric)
