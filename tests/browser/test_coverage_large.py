"""A large run's summary in a real browser: the Coverage page opens it from a link (run and topic in
the URL), draws tiers and tools over time and the topics as a treemap, and "Fix in the editor"
opens the editor with the topic's fix. The summary is the one the benchmark's large run wrote
(tests/data/coverage_large/summary.json: the figures of README's coverage section)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

from .conftest import shot, wait_idle

SUMMARY = Path(__file__).resolve().parents[1] / "data" / "coverage_large" / "summary.json"


def test_summary_of_a_large_run_opens_from_a_link(page, app_url, lexicon_copy):
    runs = lexicon_copy.parent / "coverage-runs" / "large"  # the runs folder beside the server's lexicons
    runs.mkdir(parents=True, exist_ok=True)
    shutil.copy(SUMMARY, runs / "summary.json")
    summary = json.loads(SUMMARY.read_text())
    topic = summary["topics"][1]
    page.goto(f"{app_url}/coverage?run=large&topic={topic['id']}")
    wait_idle(page)
    page.get_by_role("heading", name="Open a large run").wait_for()
    page.get_by_text(f"{summary['rows']:,}", exact=True).first.wait_for()  # the Questions metric
    page.get_by_text("Tiers over time").first.wait_for()
    page.get_by_text("Topics of what is not covered").first.wait_for()
    for t in summary["topics"][:3]:  # the biggest tiles carry their names
        expect(page.locator(".js-plotly-plot").filter(has_text="Topics of what is not covered")).to_contain_text(t["name"].split(" · ")[0])
    assert topic["name"] in page.locator(".st-key-lr_topic").inner_html()  # the link's topic is the chosen one
    page.get_by_text(topic["examples"][0]).first.wait_for()
    page.locator(".st-key-lr_fix_button").scroll_into_view_if_needed()
    shot(page, "coverage_large_run")
    assert "topic=" + str(topic["id"]) in page.url and "run=large" in page.url
    page.get_by_role("button", name="Fix in the editor").click()
    wait_idle(page)
    page.get_by_role("heading", name="Lexicon editor").wait_for()
    expect(page.get_by_label("New variant (any language)")).to_have_value(topic["fix"]["prefill"]["variant"], timeout=20_000)
    shutil.rmtree(runs)
