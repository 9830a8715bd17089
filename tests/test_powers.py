"""Design power_gateway (lexicons/powers): tiers and their shapes, synonyms and typos, the agent
view, activation without a protocol, token counts, the validation set and the CLI."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from routing import LexiconError, load_router
from routing.designs.power_gateway.design import SELECT_HINT, agent_view, match_type_of
from routing.designs.power_gateway.tokens import count_tokens
from routing.quality.evaluate import load_golden, run_cases

ROOT = Path(__file__).resolve().parents[1]
TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def gw():
    return load_router("powers")


def route(gw, q):
    return gw.route(q, today=TODAY).to_dict()


def test_the_domain_declares_the_design_and_has_the_powers(gw):
    assert gw.design == "power_gateway"
    names = {t.name for t in gw.domain.tools}
    assert {"postgres", "mysql", "mongodb", "sqlite", "stripe", "github", "aws", "analytics", "crm", "slack",
            "gmail", "filesystem", "calendar", "jira"} <= names
    for name in names:
        spec = gw.catalog.get(name)
        assert spec.tools, name
        tools = gw.power_tools(name)
        for tool in tools:
            # tools refreshed from a reference server carry guidance where a person wrote some
            assert tool["description"].count("--- EXPERT GUIDANCE ---") <= 1, tool["name"]
            assert tool["inputSchema"]["type"] == "object"
        assert any("--- EXPERT GUIDANCE ---" in t["description"] for t in tools), name
        if not spec.server.get("command"):  # described by hand: every tool is steered
            assert all("--- EXPERT GUIDANCE ---" in t["description"] for t in tools), name
    assert {n for n, p in gw.catalog.powers.items() if p.live} == {"sqlite", "filesystem", "postgres", "git", "time", "memory"}


@pytest.mark.parametrize("query, power", [
    ("postgre tables", "postgres"), ("pg schema", "postgres"), ("postgress slow queries", "postgres"),
    ("open prs in the repo", "github"), ("mongo collections", "mongodb"), ("refunds in stripe", "stripe"),
    ("githbu commits", "github"), ("kirim surel ke Budi", "gmail"),
])
def test_synonyms_and_typos_activate_the_power(gw, query, power):
    r = route(gw, query)
    assert r["status"] == "activated", (query, r["candidates"][:2])
    assert r["power"]["name"] == power and r["power"]["confidence"] >= 0.85
    assert r["power"]["match_type"] == "keyword"
    assert [t["name"].split("__")[0] for t in r["tools"]] == [power] * len(r["tools"])


def test_each_tier_has_its_shape(gw):
    act = route(gw, "list my s3 buckets")
    assert act["status"] == "activated" and act["path"] == "fast"
    assert set(act["power"]) == {"name", "confidence", "match_type"} and act["available_powers"] is None

    multi = route(gw, "send a message to the team")
    assert multi["status"] == "multiple_matches" and 2 <= len(multi["matches"]) <= 3
    assert multi["message"].endswith(SELECT_HINT) and multi["power"] is None and multi["tools"] is None
    assert {"slack", "gmail"} == {m["name"] for m in multi["matches"]}
    assert multi["matches"][0]["keywords"] and "slack" in next(m for m in multi["matches"] if m["name"] == "slack")["keywords"]

    weak = route(gw, "look into why the checkout is slow for customers")
    assert weak["status"] == "weak_matches" and 1 <= len(weak["matches"]) <= 5
    assert "clarify or rephrase" in weak["message"]

    none = route(gw, "what's the weather in Paris")
    assert none["status"] == "not_found" and none["matches"] == []
    assert [p["name"] for p in none["available_powers"]] == [t.name for t in gw.domain.tools]


def test_confidences_add_up_and_a_kind_of_service_lists_its_powers_as_equals_in_catalog_order(gw):
    # 004's Medium: "check my database" -> postgres, mysql, mongodb (the catalog's order; sqlite comes later)
    for q in ("database", "check my database", "numbers for the quarterly board deck from the database"):
        r = route(gw, q)
        for m in r["matches"]:
            assert abs(sum(m["score_breakdown"].values()) - m["confidence"]) < 1e-3
        tied = [m["name"] for m in r["matches"] if m["confidence"] == r["matches"][0]["confidence"]]
        order = [t.name for t in gw.domain.tools]
        assert tied == sorted(tied, key=order.index) and tied[:3] == ["postgres", "mysql", "mongodb"], q


@pytest.mark.parametrize("query, top", [
    ("query the bundled sample database", "sqlite"),              # a holder clearly ahead keeps its lead
    ("open an issue about the database outage", "jira"),         # kinds no power holds together lift none
    ("send a message to the team that the database is down", "slack"),
])
def test_a_kind_of_service_beside_a_clearer_word(gw, query, top):
    r = route(gw, query)
    assert r["matches"][0]["name"] == top
    if "message" in query:  # two kinds no power holds together: both rise, their order kept (004's Medium)
        assert r["status"] == "multiple_matches" and [m["name"] for m in r["matches"][:2]] == ["slack", "gmail"]


def test_two_kinds_of_service_asked_list_the_powers_of_both(gw):
    r = route(gw, "I need to run a quick SQL query to count the orders in our database")
    assert r["status"] == "multiple_matches"
    assert [m["name"] for m in r["matches"]] == ["postgres", "mysql", "sqlite"]  # mongodb holds no SQL


def test_other_ties_break_by_name(gw):
    r = route(gw, "what about customers")
    tied = [m["name"] for m in r["matches"] if m["confidence"] == r["matches"][0]["confidence"]]
    assert tied == sorted(tied)


def test_match_type_is_only_semantic_when_an_embedding_signal_carried_it():
    assert match_type_of({"keyword": 0.6, "example": 0.2}) == "keyword"
    assert match_type_of({"synonym": 0.5, "fuzzy": 0.1, "named": 0.15}) == "keyword"
    assert match_type_of({"keyword": 0.4, "semantic": 0.3}) == "hybrid"
    assert match_type_of({"semantic": 0.6}) == "semantic"


def test_the_agent_view_is_what_resolve_intent_returns(gw):
    full = route(gw, "query the database")
    view = agent_view(full)
    assert set(view) == {"query", "status", "message", "matches"}
    assert full["token_meter"]["response_tokens"] == count_tokens(view)
    assert full["token_meter"]["all_tools_tokens"] > 5 * full["token_meter"]["response_tokens"]
    typo = agent_view(route(gw, "githbu commits"))
    assert typo["corrections"] == [{"from": "githbu", "to": "github"}] and typo["power"]["name"] == "github"


def test_bad_queries_get_a_clear_message(gw):
    for q in ("", "   ", "x" * 1001, "!!!", None):
        r = gw.route(q, today=TODAY).to_dict()
        assert r["error"]["code"] == "INVALID_QUERY" and r["status"] == "not_found"
        assert r["available_powers"] and agent_view(r)["error"]["code"] == "INVALID_QUERY"


def test_activate_without_a_protocol(gw):
    ok = gw.activate("sqlite")
    assert ok["status"] == "activated" and ok["live"] and [t["name"] for t in ok["tools"]] == [
        "sqlite__list_tables", "sqlite__describe_table", "sqlite__query_database"]
    assert gw.activate("stripe")["live"] is False
    for wrong, hint in (("postgre", "postgres"), ("githb", "github"), ("Slak", "slack")):
        out = gw.activate(wrong)
        assert out["status"] == "error" and out["error"]["code"] == "POWER_NOT_FOUND"
        assert hint in out["did_you_mean"] and f"Did you mean {hint}" in out["error"]["message"]
    assert gw.activate("zzzzzz")["did_you_mean"] == [] and "Known powers" in gw.activate("zzzzzz")["error"]["message"]
    assert gw.activate(None)["status"] == "error"


def test_token_counts_are_real_tiktoken_counts():
    assert count_tokens("hello world") == 2
    assert count_tokens({"a": 1}) == count_tokens('{"a":1}')


def test_the_validation_set_meets_the_design_criteria(gw):
    cases = load_golden(ROOT / "lexicons" / "powers" / "golden.yaml")
    statuses = [c.status for c in cases]
    # 004's plan: 20 / 20 / 20 / 10; issue 22 relabelled 17 by the document's tiers (golden.yaml says
    # which and why) and added 12 weak requests in the style of its Low examples
    assert len(cases) == 85
    assert {s: statuses.count(s) for s in set(statuses)} == {"activated": 31, "multiple_matches": 25, "weak_matches": 19, "not_found": 10}
    report = run_cases(gw, cases)
    metrics = {**report.metrics(), **gw.eval_metrics(report)}
    assert metrics["tier_accuracy"] > 0.90, metrics["failures"]
    assert metrics["correct_power_in_top3"] > 0.95
    assert metrics["avg_tokens_per_query"] < 2000


def test_a_broken_servers_yaml_names_file_and_line(tmp_path):
    root = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", root, ignore=shutil.ignore_patterns(".history", "sandbox", "sample"))
    path = root / "powers" / "servers.yaml"
    text = path.read_text().replace("server: {bundled: sqlite, database: sample/sample.sql}", "server: {bundled: oracle}")
    path.write_text(text + "  nosuchpower:\n    tools: []\n")
    with pytest.raises(LexiconError) as err:
        load_router("powers", root)
    messages = [str(p) for p in err.value.problems]
    assert any("servers.yaml line" in m and "oracle" in m for m in messages)
    assert any("nosuchpower" in m and "not in tools.yaml" in m for m in messages)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "routing", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_cli_cost_and_eval():
    cost = run_cli("cost", "--domain", "powers", "--json")
    assert cost.returncode == 0, cost.stderr
    table = json.loads(cost.stdout)
    assert [r["tier"] for r in table["tiers"]] == ["activated", "multiple_matches", "weak_matches", "not_found"]
    assert abs(sum(r["share"] for r in table["tiers"]) - 1) < 1e-3 and table["queries"] == 85
    assert table["per_query_tokens"] < table["all_tools_tokens"] and table["all_tools_count"] >= 40
    text = run_cli("cost", "--domain", "powers").stdout
    assert "every power's tools at start-up" in text and "saved per query" in text
    ev = run_cli("eval", "--domain", "powers")
    assert ev.returncode == 0, ev.stderr
    m = json.loads(ev.stdout)
    assert {"tier_accuracy", "correct_power_in_top3", "avg_latency_ms", "avg_tokens_per_query", "p50_ms", "p99_ms"} <= set(m)
    wrong = run_cli("cost", "--domain", "accounting")
    assert wrong.returncode == 2 and "power_gateway" in wrong.stderr


def test_a_hint_that_is_no_canonical_term_names_file_and_line(tmp_path):
    root = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", root, ignore=shutil.ignore_patterns(".history", "sandbox", "sample"))
    path = root / "powers" / "tools.yaml"
    path.write_text(path.read_text().replace("hints: [analyze, metric, system_status]", "hints: [analyze, metricz]"))
    with pytest.raises(LexiconError) as err:
        load_router("powers", root)
    assert any("powers/tools.yaml line" in str(p) and "aws" in str(p) and "'metricz'" in str(p) for p in err.value.problems)


@pytest.mark.parametrize("query, tier, first", [
    ("get metrics", "weak_matches", "analytics"),            # a topic word alone: weak (004 Low)
    ("website traffic report", "activated", "analytics"),    # the topic with the power's own keyword
    ("show customer insights", "weak_matches", "analytics"), # a category (customer) under a topic: capped
    ("check my database", "multiple_matches", "mysql"),      # a category: alternatives (004 Medium)
    ("aggregate the orders collection in mongodb", "activated", "mongodb"),  # named, nobody else near
    ("cloud", "weak_matches", "aws"),  # 0.5-0.84 but no other power at all: nothing to choose between
])
def test_levels_of_evidence_follow_the_document(gw, query, tier, first):
    r = route(gw, query)
    assert r["status"] == tier, (query, r["candidates"][:3])
    assert r["matches"][0]["name"] == first or first in [m["name"] for m in r["matches"]]
    top = r["matches"][0]
    assert abs(sum(top["score_breakdown"].values()) - top["confidence"]) < 1e-3  # still adds up
