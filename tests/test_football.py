"""Design intent_tiers on the football domain: tiers, precedence, hard constraints, contract errors,
pronoun carry-over, replay on fixtures (numbers recomputed here from the YAML), no network in
replay, the system prompt and the LLM path. Expected values are what a user sees in the result."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from fake_openai import FakeOpenAI
from routing import load_router
from routing.core.errors import LexiconError
from routing.core.lexicon import load_domain
from routing.designs import build_router
from routing.designs.intent_tiers.guard import NetworkBlocked, no_network
from routing.paths.llm import LLMClient, LLMConfig

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "lexicons" / "football" / "fixtures" / "players.yaml"
L2_TOOLS = {"get_detailed_stats", "calculate_derived", "show_form_chart"}
SURFACE_TOOLS = ["search_player", "get_recent_games", "calculate_per90", "compare_to_league"]


@pytest.fixture(scope="module")
def football():
    return load_router("football")


def route(router, query, today, **context):
    return router.route(query, today=today, context=context or None).to_dict()


# ------------------------------------------------------------------ tiers and precedence


@pytest.mark.parametrize(
    "query, intent, depth, tools",
    [
        ("how is Okafor doing", "surface", "L1", SURFACE_TOOLS),
        ("statistik Rizky Pratama", "surface", "L1", SURFACE_TOOLS),
        ("why is Marco Diaz declining", "deep", "L2", SURFACE_TOOLS + sorted(L2_TOOLS, key=["get_detailed_stats", "calculate_derived", "show_form_chart"].index)),
        ("analisis taktik Teodor Ilic", "deep", "L2", None),
        ("compare Okafor vs Nwosu", "compare", "L1", ["search_player", "get_recent_games", "calculate_per90"]),
        ("bandingkan Rizky Pratama dengan Fajar Nugroho", "compare", "L1", None),
    ],
)
def test_each_tier_fixes_its_tools_and_depth(football, today, query, intent, depth, tools):
    r = route(football, query, today)
    assert (r["status"], r["intent"], r["depth"], r["design"]) == ("activated", intent, depth, "intent_tiers")
    if tools:
        assert r["allowed_tools"] == tools
    assert {e["name"] for e in r["excluded_tools"]} == {"search_player", "get_recent_games", "calculate_per90", "compare_to_league", *L2_TOOLS} - set(r["allowed_tools"])
    assert r["matches"][0]["name"] == intent and r["error"] is None and r["path"] == "fast"


def test_deep_wins_over_compare_and_every_trigger_is_listed(football, today):
    r = route(football, "why is Marco Diaz worse than Okafor", today)
    assert r["intent"] == "deep" and r["status"] == "activated"
    fired = {(t["tier"], t["text"]) for t in r["triggers_fired"]}
    assert fired == {("deep", "why"), ("compare", "worse than")}
    assert "Deep wins over Compare" in r["precedence"]
    compare = next(c for c in r["candidates"] if c["name"] == "compare")
    assert compare["score_breakdown"]["overruled"] < 0
    assert [e["name"] for e in r["entities"]] == ["Marco Diaz", "Chidi Okafor"]


def test_breakdown_adds_up_to_confidence(football, today):
    for q in ["why is Marco Diaz worse than Okafor", "compare Okafor vs Nwosu", "Okafor", "analyze Okafor xG"]:
        for c in route(football, q, today)["candidates"]:
            assert abs(sum(c["score_breakdown"].values()) - c["confidence"]) < 1e-3, (q, c)


def test_typos_missing_accents_and_surname_only_find_the_player(football, today):
    assert route(football, "how is Okafro doing", today)["entities"][0]["name"] == "Chidi Okafor"
    assert route(football, "Soren Lindqvist stats", today)["entities"][0]["name"] == "Søren Lindqvist"
    assert route(football, "statistik Herrera", today)["entities"][0]["name"] == "Joaquín Herrera"
    r = route(football, "why are Okafor's stats dropping", today)
    assert r["entities"][0]["name"] == "Chidi Okafor" and r["intent"] == "deep"


# ------------------------------------------------------------------ max depth


def test_max_depth_l1_lowers_deep_and_removes_l2_tools(football, today):
    r = route(football, "why is Marco Diaz declining", today, max_depth="L1")
    assert (r["intent"], r["depth"], r["requested_intent"]) == ("surface", "L1", "deep")
    assert not L2_TOOLS & set(r["allowed_tools"])
    removed = {e["name"]: e["reason"] for e in r["excluded_tools"]}
    assert set(removed) == L2_TOOLS and all("max depth L1" in v for v in removed.values())
    assert "analyst" in r["system_prompt"] and "tactical" not in r["system_prompt"]
    ran = {s["tool"] for s in r["replay"]["steps"]}
    assert ran == set(SURFACE_TOOLS)  # nothing L2 ran
    assert "lowered by max depth L1" in r["message"]


def test_max_depth_l1_leaves_compare_alone(football, today):
    r = route(football, "compare Okafor vs Nwosu", today, max_depth="L1")
    assert r["intent"] == "compare" and r["requested_intent"] == "compare"


def test_bad_request_options_are_refused(football, today):
    with pytest.raises(ValueError, match="max_depth"):
        football.route("how is Okafor doing", today=today, context={"max_depth": "L3"})
    with pytest.raises(ValueError, match="data_mode"):
        football.route("how is Okafor doing", today=today, context={"data_mode": "cloud"})


# ------------------------------------------------------------------ errors


def test_pronoun_without_a_player_is_insufficient_context(football, today):
    for q in ["how is he doing", "kenapa dia menurun", "bagaimana performanya"]:
        r = route(football, q, today)
        assert r["status"] == "needs_clarification" and r["error"]["code"] == "INSUFFICIENT_CONTEXT", q
        assert r["plan"] == [] and r["replay"] is None and r["clarifying_question"]


def test_unknown_player_is_player_not_found(football, today):
    r = route(football, "how is Wojtek Kowalczyk doing", today)
    assert r["status"] == "not_found" and r["error"]["code"] == "PLAYER_NOT_FOUND"
    assert "wojtek kowalczyk" in r["error"]["message"] and r["replay"] is None


def test_shared_surname_is_ambiguous_with_candidates(football, today):
    r = route(football, "how is Diaz doing", today)
    assert r["status"] == "multiple_matches" and r["error"]["code"] == "AMBIGUOUS_ENTITY"
    assert [m["name"] for m in r["matches"]] == ["Marco Diaz", "Tomás Díaz"]
    assert {c["id"] for c in r["error"]["details"]["candidates"]} == {"p-marco-diaz", "p-tomas-diaz"}
    assert "Marco Diaz or Tomás Díaz" in r["clarifying_question"] and r["replay"] is None
    # the full name settles it
    assert route(football, "how is Tomas Diaz doing", today)["entities"][0]["id"] == "p-tomas-diaz"


def test_player_without_games_is_insufficient_data_and_aborts(football, today):
    r = route(football, "how is Kenji Morita doing", today)
    assert r["error"]["code"] == "INSUFFICIENT_DATA" and r["intent"] == "surface"
    assert r["plan"] == [] and r["replay"] is None and r["path"] == "llm"


def test_two_games_warn_and_the_plan_still_runs(football, today):
    r = route(football, "how is Bayu Saputra doing", today)
    assert r["error"] is None and [w["code"] for w in r["warnings"]] == ["INSUFFICIENT_GAMES"]
    per90 = next(s for s in r["replay"]["steps"] if s["tool"] == "calculate_per90")["output"]
    assert per90["games"] == 2


def test_before_any_game_is_played_there_is_no_data(football):
    r = route(football, "how is Okafor doing", "2025-09-01")
    assert r["error"]["code"] == "INSUFFICIENT_DATA"


def test_invalid_queries(football, today):
    for q in ["", "   ", "x" * 1001, "?!"]:
        r = route(football, q, today)
        assert r["error"]["code"] == "INVALID_QUERY" and r["design"] == "intent_tiers"


def test_not_a_football_question(football, today):
    for q in ["launch my rocket to Mars", "help me fill this tax form", "resep nasi goreng"]:
        r = route(football, q, today)
        assert r["status"] == "not_found" and r["error"] is None and r["intent"] is None, q


# ------------------------------------------------------------------ conversation


def test_pronoun_after_a_named_player_resolves_to_him(football, today):
    first = football.route("how is Marco Diaz doing", today=today)
    context = football.next_context(first)
    assert context["player_ids"] == ["p-marco-diaz"]
    second = football.route("why is he declining", today=today, context=context).to_dict()
    assert second["intent"] == "deep" and second["error"] is None
    assert second["entities"][0]["name"] == "Marco Diaz" and second["entities"][0]["via"] == "pronoun"
    assert "Marco Diaz" in second["system_prompt"]
    # the page holds dicts: the same carry-over
    assert football.next_context(first.to_dict()) == context
    # a turn without a player keeps the earlier one
    assert football.next_context(football.route("hello there", today=today), context)["player_ids"] == ["p-marco-diaz"]


def test_batch_conversation_carries_the_player(today):
    turns = "how is Marco Diaz doing\nwhy is he declining\nbandingkan dia dengan Okafor\n"
    proc = subprocess.run(
        [sys.executable, "-m", "routing", "batch", "--domain", "football", "--today", "2026-01-22", "--conversation", "--max-depth", "L1"],
        input=turns, cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["error"] for o in out] == [None, None, None]
    assert out[1]["entities"][0]["name"] == "Marco Diaz" and out[1]["intent"] == "surface"  # Deep lowered by --max-depth L1
    assert out[2]["intent"] == "compare" and [e["name"] for e in out[2]["entities"]] == ["Marco Diaz", "Chidi Okafor"]


def test_cli_route_with_options(today):
    proc = subprocess.run(
        [sys.executable, "-m", "routing", "route", "why is he declining", "--domain", "football", "--today", "2026-01-22",
         "--context", '{"player_ids": ["p-chidi-okafor"]}', "--data-mode", "live"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["entities"][0]["name"] == "Chidi Okafor" and out["data_mode"] == "live"
    assert out["replay"] is None and len(out["plan"]) == 7  # live: planned, not run


# ------------------------------------------------------------------ replay on fixtures


def _fixture_games(pid: str, today: str, last_n: int = 5) -> list[dict]:
    players = yaml.safe_load(FIXTURES.read_text(encoding="utf-8"))["players"]
    games = next(p for p in players if p["id"] == pid)["games"]
    return [g for g in sorted(games, key=lambda g: g["date"]) if g["date"] <= today][-last_n:]


def _steps(r: dict) -> dict:
    return {(s["player_id"], s["tool"]): s["output"] for s in r["replay"]["steps"]}


def test_replay_computes_per90_and_derived_metrics_from_the_fixtures(football, today):
    r = route(football, "analyze Okafor xG", today)
    steps = _steps(r)
    games = _fixture_games("p-chidi-okafor", "2026-01-22")
    minutes = sum(g["minutes"] for g in games)
    per90 = steps[("p-chidi-okafor", "calculate_per90")]
    assert per90["minutes"] == minutes
    assert per90["goals"] == round(sum(g["goals"] for g in games) * 90 / minutes, 2)
    assert per90["xg"] == round(sum(g["xg"] for g in games) * 90 / minutes, 2)
    derived = steps[("p-chidi-okafor", "calculate_derived")]
    shots = sum(g["shots"] for g in games)
    assert derived["shot_conversion"] == round(sum(g["goals"] for g in games) / shots, 3)
    assert derived["goals_minus_xg"] == round(sum(g["goals"] for g in games) - sum(g["xg"] for g in games), 2)
    assert derived["form"] == "improving"  # Okafor's ratings rise over the recent games
    assert route(football, "why is Marco Diaz declining", today)["replay"]["steps"][5]["output"]["form"] == "declining"
    chart = steps[("p-chidi-okafor", "show_form_chart")]
    assert [g["date"] for g in chart["games"]] == [g["date"] for g in _fixture_games("p-chidi-okafor", "2026-01-22", 10)]


def test_replay_compares_to_the_league_average_of_the_same_position(football, today):
    r = route(football, "how is Okafor doing", today)
    league = _steps(r)[("p-chidi-okafor", "compare_to_league")]
    players = yaml.safe_load(FIXTURES.read_text(encoding="utf-8"))["players"]
    peers = [p["id"] for p in players if p["league"] == "Premier Liga" and p["position"] == "FW" and p["id"] != "p-chidi-okafor"
             and len(_fixture_games(p["id"], "2026-01-22")) >= 3]
    assert league["peers"] == len(peers)
    values = []
    for pid in peers:
        g = _fixture_games(pid, "2026-01-22")
        values.append(round(sum(x["goals"] for x in g) * 90 / sum(x["minutes"] for x in g), 2))
    assert league["metrics"]["goals"]["league_avg"] == round(sum(values) / len(values), 2)
    assert 0 <= league["metrics"]["goals"]["percentile"] <= 100


def test_compare_runs_the_plan_for_both_players(football, today):
    r = route(football, "compare Okafor vs Nwosu", today)
    players = {s["player_id"] for s in r["replay"]["steps"]}
    assert players == {"p-chidi-okafor", "p-oscar-nwosu"}
    assert {s["tool"] for s in r["replay"]["steps"]} == {"search_player", "get_recent_games", "calculate_per90"}


def test_replay_makes_no_network_call(football, today, monkeypatch):
    """Every socket connect fails loudly; a replay plan still runs end to end."""
    calls = []

    def refuse(self, *args, **kwargs):
        calls.append(args)
        raise AssertionError("network call in replay mode")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    r = route(football, "why is Marco Diaz worse than Okafor", today)
    assert r["replay"]["steps"] and calls == []


def test_replay_guard_refuses_any_connection_attempt():
    with no_network():
        with pytest.raises(NetworkBlocked):
            socket.create_connection(("127.0.0.1", 9), timeout=0.1)
        with pytest.raises(NetworkBlocked):
            socket.getaddrinfo("example.com", 80)
    # outside replay the guard is inactive (a refused local port is an OSError, not NetworkBlocked)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", 9), timeout=0.1)


# ------------------------------------------------------------------ prompts and the LLM path


def test_system_prompt_is_built_per_request(football, today):
    deep = route(football, "why is Marco Diaz declining", today)["system_prompt"]
    scout = route(football, "compare Okafor vs Nwosu", today)["system_prompt"]
    assert deep.startswith("You are a tactical expert") and "Marco Diaz" in deep and "show_form_chart" in deep
    assert scout.startswith("You are a scout") and "Chidi Okafor and Oscar Nwosu" in scout and "compare_to_league" not in scout


def test_llm_without_endpoint_is_upstream_down_with_the_request(football, today):
    result = football.route("why is Marco Diaz declining", today=today, context={"max_depth": "L1"})
    out = football.run_llm(result, client=LLMClient(LLMConfig())).to_dict()
    assert out["error"]["code"] == "UPSTREAM_DOWN"
    request = out["llm"]["request"]
    assert request["messages"][0]["content"] == out["system_prompt"]
    assert [t["function"]["name"] for t in request["tools"]] == SURFACE_TOOLS  # L2 tools never sent


def test_llm_against_the_fake_endpoint_returns_its_tool_call(football, today):
    with FakeOpenAI() as fake:
        fake.tool_name = "calculate_derived"
        fake.arguments = {"player_id": "p-marco-diaz"}
        result = football.route("why is Marco Diaz declining", today=today)
        out = football.run_llm(result, client=LLMClient(LLMConfig(base_url=fake.url, max_retries=0))).to_dict()
        assert out["error"] is None
        assert out["llm"]["tool_call"] == {"name": "calculate_derived", "arguments": {"player_id": "p-marco-diaz"}}
        sent = fake.requests[-1]
        assert sent["messages"][0]["content"].startswith("You are a tactical expert")
        assert len(sent["tools"]) == 7


def test_cli_llm_without_endpoint():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ROUTING_MODEL_", "ROUTING_LLM_"))}
    proc = subprocess.run([sys.executable, "-m", "routing", "route", "how is Okafor doing", "--domain", "football", "--today", "2026-01-22", "--llm"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["error"]["code"] == "UPSTREAM_DOWN" and out["llm"]["request"]["tools"]


# ------------------------------------------------------------------ lexicon validation


def _scratch(tmp_path, edit) -> Path:
    import shutil

    root = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", root, ignore=shutil.ignore_patterns(".history"))
    path = root / "football" / "tiers.yaml"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return root


@pytest.mark.parametrize(
    "old, new, problem",
    [
        ("- {term: why, weight: 0.6, everyday: true}", "- {regex: '(a+)+b', weight: 0.6}", "inside another repeat"),
        ("- {term: why, weight: 0.6, everyday: true}", "- {term: wherefore, weight: 0.6}", "not a canonical term"),
        ("tools: [search_player, get_recent_games, calculate_per90]", "tools: [search_player, get_recent_games, calculate_per90, show_form_chart]", "reads L2 data"),
        ("precedence: [deep, compare, surface]", "precedence: [deep, surface]", "precedence must list every tier"),
        ("- {term: why, weight: 0.6, everyday: true}", "- {term: why, weight: 7}", "between 0 and 1"),
        ("name_after: {en: [for, of, on]}", "name_after: [for, of, on]", "must map a language code to a list of words"),
        ("- {term: why, weight: 0.6, everyday: true}", "- {term: why, weight: 0.6, everyday: sometimes}", "everyday must be true or false"),
        ("- {term: recent, weight: 0.55, needs_player: true, period: true}", "- {term: recent, weight: 0.55, period: often}", "period must be true or false"),
    ],
)
def test_broken_tiers_yaml_names_file_and_line(tmp_path, old, new, problem):
    root = _scratch(tmp_path, lambda text: text.replace(old, new, 1))
    with pytest.raises(LexiconError) as exc:
        build_router(load_domain("football", root))
    p = exc.value.problems[0]
    assert p.file.endswith("tiers.yaml") and p.line and problem in p.message


def test_players_without_a_trigger_get_a_weak_guess(football, today):
    one = route(football, "Okafor", today)
    two = route(football, "Okafor or Nwosu", today)
    assert (one["status"], one["intent"]) == ("weak_matches", "surface")
    assert (two["status"], two["intent"]) == ("weak_matches", "compare")
    assert two["candidates"][0]["score_breakdown"] == {"player_only": 0.25, "entity": 0.3, "second_entity": 0.1}


def test_a_broken_tiers_yaml_keeps_the_last_good_router_in_service(tmp_path):
    from routing import RouterRegistry

    root = _scratch(tmp_path, lambda text: text)
    registry = RouterRegistry(root)
    good = registry.router("football")
    path = root / "football" / "tiers.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("- {term: why, weight: 0.6, everyday: true}", "- {regex: '(\\w*)*x', weight: 0.6}"), encoding="utf-8")
    state = registry.state("football")
    assert state.stale and state.router is good
    assert "tiers.yaml" in state.error.problems[0].file
    assert state.router.route("why is Marco Diaz declining", today="2026-01-22").to_dict()["intent"] == "deep"


@pytest.mark.parametrize("query", ["Okafor 🔥🔥 stats", "how is O\u200bkafor doing", "‏كيف حال أوكافور", "why " * 240, "ＯＫＡＦＯＲ ｓｔａｔｓ", "'\"<script>", "Diaz Diaz Diaz vs vs vs"])
def test_odd_input_gets_an_answer_not_a_crash(football, today, query):
    r = route(football, query, today)
    assert r["status"] in {"activated", "multiple_matches", "weak_matches", "not_found", "needs_clarification"}
    json.dumps(r)


@pytest.mark.parametrize("query, intent, corrected", [
    ("anlayze Okafor xG", "deep", "analyze"),
    ("Okafor statistcs", "surface", "statistics"),
    ("bandingkann Okafor dengan Nwosu", "compare", "bandingkan"),
])
def test_typos_in_trigger_words_still_fire(football, today, query, intent, corrected):
    r = route(football, query, today)
    assert r["intent"] == intent and r["status"] == "activated"
    assert [c["to"] for c in r["corrections"]] == [corrected]
    assert corrected in [t["text"] for t in r["triggers_fired"]]


def test_a_repeated_name_is_not_an_unknown_player(football, today):
    r = route(football, "Diaz Diaz vs Okafor", today)
    assert r["error"]["code"] == "AMBIGUOUS_ENTITY"


# ------------------------------------------------------------ everyday triggers need a football question

@pytest.mark.parametrize("query, status", [
    # an everyday trigger alone is no football question
    ("tips to improve my public speaking", "not_found"),
    ("why is my laptop fan so loud all of a sudden", "not_found"),
    ("compare gojek vs grab promo hari ini", "not_found"),
    ("any drills to improve my sprint speed before a 5k race?", "not_found"),
    # in a football question it still fires, and the player is asked for
    ("why the sudden drop in form?", "needs_clarification"),            # form: a term of the game
    ("my boss asked me to analyze the xG trends", "needs_clarification"),
    ("why is he underperforming?", "needs_clarification"),              # a pronoun: someone to be about
    ("analyze our team", "needs_clarification"),                        # review: the team and its play are football
    ("why did we lose", "needs_clarification"),
    ("improve our pressing", "needs_clarification"),
    ("kenapa tim kalah", "needs_clarification"),
])
def test_an_everyday_trigger_fires_only_in_a_football_question(query, status):
    assert load_router("football").route(query, today="2026-01-22").to_dict()["status"] == status
