"""mirror.yaml `llm_variants`: the model's paraphrases of each sample question join the factory
mirror's index (kind llm_variant), cached beside the domain; a failing endpoint or a bad reply never
breaks the build, and describe() says why none were used. Against tests/fake_openai.py only."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from routing import load_router
from routing.core.errors import LexiconError
from routing.designs.datasource_mirror.llm_variants import CACHE_FILE, MAX_CHARS, parse_paraphrases
from routing.paths.llm import LLMClient, LLMConfig
from tests.fake_openai import FakeOpenAI, refused_url

ROOT = Path(__file__).resolve().parents[1]
TODAY = "2026-01-22"
SLANG = "which checks flunked today"  # routed to hr by the deterministic index
TARGET = "failed quality inspections today"  # the quality sample the fake model paraphrases into it


def _root(tmp_path, *, on: bool = True) -> Path:
    dest = tmp_path / "lx"
    shutil.copytree(ROOT / "lexicons" / "_shared", dest / "_shared")
    shutil.copytree(ROOT / "lexicons" / "factory", dest / "factory", ignore=shutil.ignore_patterns(CACHE_FILE))
    if on:
        p = dest / "factory" / "mirror.yaml"
        p.write_text(p.read_text().replace("llm_variants: false", "llm_variants: true"))
    return dest


def _samples() -> list[str]:
    data = yaml.safe_load((ROOT / "lexicons/factory/sample_questions.yaml").read_text())
    return list(dict.fromkeys(q for qs in data.values() for q in qs))


def _reply(body: dict) -> str:
    """The fake model: a fenced JSON list for TARGET, numbered lines for every other sample."""
    sample = body["messages"][-1]["content"]
    if sample == TARGET:
        return "```json\n" + json.dumps([SLANG, "inspections that did not pass today", SLANG]) + "\n```"
    return f"Here you go:\n1. {sample} for the plant manager\n2. {sample} in the last report"


def _client(url: str, **config) -> LLMClient:
    return LLMClient(LLMConfig(api_key="sk-test-mirror-variants", base_url=url, max_retries=0, **config))


def _kinds(router) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in router.entries:
        out[e["kind"]] = out.get(e["kind"], 0) + 1
    return out


def test_llm_variants_join_the_index_and_a_slang_question_hits_one(tmp_path):
    root = _root(tmp_path)
    plain = load_router("factory", _root(tmp_path / "off", on=False), environ={})
    before = plain.route(SLANG, today=TODAY).to_dict()
    assert not (before["layer"] == "L1" and before["datasource"] == "quality")
    with FakeOpenAI("text") as fake:
        fake.reply = _reply
        router = load_router("factory", root, environ={}, llm_client=_client(fake.url))
        sent = [r["messages"][-1]["content"] for r in fake.requests]
        prompts = {r["messages"][0]["content"] for r in fake.requests}
    assert sorted(sent) == sorted(_samples())  # one call per sample question
    assert all("5" in p and "JSON list" in p for p in prompts)  # N = mirror.yaml variants
    kinds = _kinds(router)
    assert kinds["llm_variant"] >= len(_samples()) and kinds["variant"] == _kinds(plain)["variant"]
    r = router.route(SLANG, today=TODAY).to_dict()
    assert r["layer"] == "L1" and r["datasource"] == "quality"
    assert r["nearest"]["kind"] == "llm_variant" and r["nearest"]["sample"] == TARGET
    info = router.describe()["mirror"]["llm_variants"]
    assert info["enabled"] and info["calls"] == len(_samples()) and info["reason"] is None
    assert info["entries"] == kinds["llm_variant"] and info["used"] >= info["entries"]
    cache = json.loads((root / "factory" / CACHE_FILE).read_text())["entries"]
    assert len(cache) == len(_samples()) and all(k.startswith("gpt-4o-mini:") for k in cache)
    target = next(v for v in cache.values() if v["sample"] == TARGET)
    assert target["paraphrases"] == [SLANG, "inspections that did not pass today"]  # the repeat dropped


def test_a_rebuild_with_the_cache_makes_no_call_and_a_new_model_does(tmp_path):
    root = _root(tmp_path)
    with FakeOpenAI("text") as fake:
        fake.reply = _reply
        first = load_router("factory", root, environ={}, llm_client=_client(fake.url))
        calls = len(fake.requests)
        second = load_router("factory", root, environ={}, llm_client=_client(fake.url))
        assert len(fake.requests) == calls
        other = load_router("factory", root, environ={}, llm_client=_client(fake.url, model_overrides={"cheap": "other-model"}))
        assert len(fake.requests) == 2 * calls and {r["model"] for r in fake.requests[calls:]} == {"other-model"}
    assert [e["text"] for e in second.entries] == [e["text"] for e in first.entries]
    info = second.describe()["mirror"]["llm_variants"]
    assert info["calls"] == 0 and info["cached"] == len(_samples()) and info["entries"] > 0
    assert second.route(SLANG, today=TODAY).to_dict()["datasource"] == "quality"
    assert other.describe()["mirror"]["llm_variants"]["cached"] == 0


@pytest.mark.parametrize("behaviour", ["status_500", "refused"])
def test_a_failing_endpoint_leaves_the_deterministic_index_and_says_why(tmp_path, behaviour):
    root = _root(tmp_path)
    plain = load_router("factory", _root(tmp_path / "off", on=False), environ={})
    with FakeOpenAI("status_500") as fake:
        url = fake.url if behaviour == "status_500" else refused_url()
        router = load_router("factory", root, environ={}, llm_client=_client(url))
        assert len(fake.requests) == (1 if behaviour == "status_500" else 0)  # no further calls after an error
    assert [e["text"] for e in router.entries] == [e["text"] for e in plain.entries]
    info = router.describe()["mirror"]["llm_variants"]
    assert info["entries"] == 0 and info["used"] == 0 and info["reason"].startswith("upstream error")
    assert ("HTTP 500" if behaviour == "status_500" else "connect") in info["reason"]
    assert not (root / "factory" / CACHE_FILE).exists()
    assert router.route("how many guys are working on the floor", today=TODAY).to_dict()["datasource"] == "hr"


def test_junk_replies_are_dropped_and_reported_and_not_cached(tmp_path):
    root = _root(tmp_path)
    with FakeOpenAI("text") as fake:
        fake.text = "Sure! Happy to help with that question."
        router = load_router("factory", root, environ={}, llm_client=_client(fake.url))
        assert len(fake.requests) == len(_samples())
    info = router.describe()["mirror"]["llm_variants"]
    assert info["entries"] == 0 and "bad reply" in info["reason"] and str(len(_samples())) in info["reason"]
    assert "llm_variant" not in _kinds(router) and not (root / "factory" / CACHE_FILE).exists()


def test_no_endpoint_is_reported_and_a_broken_cache_is_not_fatal(tmp_path):
    root = _root(tmp_path)
    (root / "factory" / CACHE_FILE).write_text("{not json")
    router = load_router("factory", root, environ={})
    info = router.describe()["mirror"]["llm_variants"]
    assert info["enabled"] and info["entries"] == 0 and "no LLM endpoint" in info["reason"]
    with FakeOpenAI("text") as fake:
        fake.reply = _reply
        again = load_router("factory", root, environ={"OPENAI_BASE_URL": fake.url, "ROUTING_LLM_RETRIES": "0"})
        assert len(fake.requests) == len(_samples())  # the client came from `environ`
    assert again.describe()["mirror"]["llm_variants"]["entries"] > 0
    assert len(json.loads((root / "factory" / CACHE_FILE).read_text())["entries"]) == len(_samples())


def test_with_the_setting_off_nothing_is_called(tmp_path, monkeypatch):
    with FakeOpenAI("text") as fake:
        fake.reply = _reply
        monkeypatch.setenv("OPENAI_BASE_URL", fake.url)
        router = load_router("factory", _root(tmp_path, on=False), llm_client=_client(fake.url))
        assert fake.requests == []
    info = router.describe()["mirror"]["llm_variants"]
    assert info["enabled"] is False and info["entries"] == 0 and "off" in info["reason"]
    assert "llm_variant" not in _kinds(router)


def test_replies_are_parsed_leniently_and_capped():
    sample = "scrap quantity this month"
    assert parse_paraphrases('["a b", "a b", "", "  ", "c d", "Scrap quantity this month!"]', 5, sample) == ["a b", "c d"]
    assert parse_paraphrases('```json\n["one", "two", "three"]\n```', 2) == ["one", "two"]
    assert parse_paraphrases('Sure:\n1. one\n2) two\n- three\nnot a list line', 5) == ["one", "two", "three"]
    assert parse_paraphrases('{"paraphrases": ["one", 7, "two"]}', 5) == ["one", "two"]
    assert parse_paraphrases('Here: ["one", "two"] hope that helps', 5) == ["one", "two"]
    assert parse_paraphrases(json.dumps(["x" * (MAX_CHARS + 1), "short"]), 5) == ["short"]
    for junk in ("Sure! Happy to help.", "{not json", "[1, 2]", "", None):
        assert parse_paraphrases(junk, 5) == []


@pytest.mark.parametrize("line, message", [("llm_varients: true", "did you mean 'llm_variants'"),
                                            ("llm_variants: yes", "llm_variants must be true or false")])
def test_a_misspelt_or_wrong_setting_is_refused(tmp_path, line, message):
    root = _root(tmp_path, on=False)
    p = root / "factory" / "mirror.yaml"
    p.write_text(p.read_text().replace("llm_variants: false", line))
    with pytest.raises(LexiconError) as exc:
        load_router("factory", root, environ={})
    assert message in str(exc.value) and "mirror.yaml" in str(exc.value) and "line" in str(exc.value)
