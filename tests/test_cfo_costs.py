"""Prompt caching in the costs: first call vs cached call per message and per month, the cached-input
prices from settings.yaml, and the design's target table on the Catalog page."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from routing import Router
from routing.paths.monthly import DESIGN_TARGETS, cost_profile, design_comparison, monthly_cost

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo() -> Router:
    return Router.load("cfo")


def test_a_novel_question_with_many_tools_is_cheaper_once_its_prefix_is_cached(cfo):
    e = cfo.route("mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao", today=TODAY).estimate
    model = cfo.paths.models["capable"] if e["model"] == cfo.paths.models["capable"].name else cfo.paths.models["cheap"]
    assert e["cacheable_tokens"] >= 1024 and e["cached_tokens"] == e["cacheable_tokens"]
    saved = e["cached_tokens"] * (model.input_usd_per_1m - model.cached_input_usd_per_1m) / 1e6
    assert e["cached_cost_usd"] == pytest.approx(e["cost_usd"] - saved, abs=2e-6)


def test_a_short_prefix_is_never_cached(cfo):
    e = cfo.route("pichle mahine ka P&L dikhao", today=TODAY).estimate
    assert e["cacheable_tokens"] < 1024 and e["cached_tokens"] == 0 and e["cached_cost_usd"] == e["cost_usd"]
    assert "below" in e["cache_note"]


def test_the_month_with_caching_costs_less_and_the_hit_rate_is_applied(cfo):
    profile = cost_profile(cfo, today=TODAY)
    month = monthly_cost(profile, volume=10_000, mix={"known": 0.6, "novel": 0.3, "chat": 0.1})
    assert month.total_cached_usd < month.total_usd and month.baseline_cached_usd < month.baseline_usd
    novel = next(r for r in month.rows if r["key"] == "novel")
    hit = profile.cache_hit_rate
    assert novel["monthly_cached_usd"] == pytest.approx(novel["messages"] * (hit * profile.novel["cached_cost_usd"] + (1 - hit) * profile.novel["cost_usd"]))


def test_cached_prices_come_from_settings(tmp_path):
    import shutil

    shutil.copytree(ROOT / "lexicons", tmp_path / "lexicons")
    settings = tmp_path / "lexicons" / "cfo" / "settings.yaml"
    settings.write_text(settings.read_text().replace("cached_input_usd_per_1m: 1.25", "cached_input_usd_per_1m: 0.25"))
    q = "mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao"
    before = Router.load("cfo").route(q, today=TODAY).estimate
    after = Router.load("cfo", tmp_path / "lexicons").route(q, today=TODAY).estimate
    assert after["cost_usd"] == before["cost_usd"] and after["cached_cost_usd"] < before["cached_cost_usd"]


def test_the_design_comparison_has_every_target_and_a_reason(cfo):
    table = design_comparison(cfo, cost_profile(cfo, today=TODAY))
    assert [r["key"] for r in table["rows"]] == list(DESIGN_TARGETS)
    for r in table["rows"]:
        assert (r["target_usd"], r["target_ms"]) == DESIGN_TARGETS[r["key"]]
        assert r["cached_call_usd"] <= r["first_call_usd"] and "tokens a message" in r["why"]
    assert table["monthly"]["messages"] == 10_000 and table["monthly"]["target_usd"] == 70.0


def test_the_catalog_page_shows_the_targets_beside_our_estimates():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.query_params["domain"] = "cfo"
    at.run()
    at.switch_page("app_pages/catalog.py")
    at.run()
    assert not at.exception, at.exception
    frames = [d.value for d in at.dataframe]
    target = next(f for f in frames if "Target / message" in f.columns)
    assert list(target["Target / message"]) == ["$0.003", "$0.02", "$0.001"]
    assert "Ours, cached call" in target.columns
    month = next(f for f in frames if "Ours, no caching" in f.columns)
    assert "10,000 messages" in month.iloc[0, 0]


def test_anthropic_style_marks_the_system_prompt_and_the_last_tool_cacheable(tmp_path):
    import shutil

    from routing.paths.run import build_request

    shutil.copytree(ROOT / "lexicons", tmp_path / "lexicons")
    settings = tmp_path / "lexicons" / "cfo" / "settings.yaml"
    settings.write_text(settings.read_text().replace("prompt_cache: {min_prefix_tokens: 1024}", "prompt_cache: {min_prefix_tokens: 1024, style: anthropic}"))
    router = Router.load("cfo", tmp_path / "lexicons")
    body = build_request(router, router.route("mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao", today=TODAY)).to_dict()
    system = body["messages"][0]["content"]
    assert system[0]["cache_control"] == {"type": "ephemeral"} and system[0]["text"] == router.paths.system_prompts["cfo"]
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"} and all("cache_control" not in t for t in body["tools"][:-1])
    # The default (OpenAI): nothing marked, the static prefix first so the provider caches it.
    plain = build_request(Router.load("cfo"), Router.load("cfo").route("mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao", today=TODAY)).to_dict()
    assert isinstance(plain["messages"][0]["content"], str) and all("cache_control" not in t for t in plain["tools"])
    assert [m["role"] for m in plain["messages"]] == ["system", "user"]


def test_the_fast_path_sends_the_computed_data_to_format(tmp_path):
    from routing.paths.run import build_request

    router = Router.load("cfo")
    r = router.route("pichle mahine ka P&L dikhao", today=TODAY, context={"data_mode": "replay"})
    user = json.loads(build_request(router, r).to_dict()["messages"][1]["content"])
    assert user["data"][0]["figures"]["revenue"] == 4825000
    assert any(e["name"] == "trend_analysis" for e in user["enrichment_results"])
