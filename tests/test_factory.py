"""Design datasource_mirror on the factory domain: each layer, each threshold (YAML and
environment), the golden set, the result fields, bad input and a broken mirror.yaml."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from routing import load_router
from routing.core.errors import LexiconError
from tests.fake_openai import FakeOpenAI

ROOT = Path(__file__).resolve().parents[1]
TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def factory():
    return load_router("factory")


def _copy(tmp_path) -> Path:
    dest = tmp_path / "lx"
    shutil.copytree(ROOT / "lexicons" / "_shared", dest / "_shared")
    shutil.copytree(ROOT / "lexicons" / "factory", dest / "factory")
    return dest


def test_slang_is_canonicalised_and_hits_l1(factory):
    r = factory.route("how many guys are working on the floor", today=TODAY).to_dict()
    assert r["design"] == "datasource_mirror" and r["layer"] == "L1"
    assert r["canonical"] == "count operators on active shift"
    assert r["datasource"] == "hr" and "shift_roster" in r["tables"]
    assert r["status"] == "activated" and r["path"] == "fast" and r["matches"][0]["name"] == "hr"
    assert r["nearest"]["distance"] < 0.4 and r["votes"] == []
    assert [f["layer"] for f in r["funnel"]] == ["L1"]


def test_l2_votes_when_l1_is_not_close_enough(factory):
    r = factory.route("are we hitting target this shift or nah", today=TODAY).to_dict()
    assert r["layer"] == "L2" and r["datasource"] == "production"
    l1, l2 = r["funnel"]
    assert l1["accepted"] is False and l1["distance"] >= 0.4
    assert l2["accepted"] is True and l2["votes"]["production"] >= 2
    assert len(r["votes"]) >= 2 and r["votes"][0]["text"] == "are we hitting target this shift or nah"  # the original first


def test_unrelated_question_goes_to_l3_then_weak_or_not_found_without_llm(factory, monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    r = factory.route("what is the capital of peru", today=TODAY).to_dict()
    assert r["layer"] is None and r["datasource"] is None
    assert r["status"] in ("weak_matches", "not_found") and r["path"] == "llm"
    l3 = r["funnel"][-1]
    assert l3["layer"] == "L3" and l3["llm"] is False and l3["reason"] == "L3 not run: the request did not ask for the LLM"
    if r["status"] == "not_found":
        assert {a["name"] for a in r["available"]} == {"production", "maintenance", "inventory", "quality", "hr"}


def test_l3_decomposes_with_an_llm_endpoint(tmp_path):
    from routing.paths.llm import LLMClient, LLMConfig

    with FakeOpenAI("text") as fake:
        fake.text = json.dumps(["count operators on active shift", "items below reorder point"])
        router = load_router("factory", llm_client=LLMClient(LLMConfig(api_key="k", base_url=fake.url)))
        plain = router.route("what is the capital of peru", today=TODAY)
        assert fake.requests == [] and plain.to_dict()["layer"] is None  # nobody asked for the LLM
        r = router.run_llm(plain).to_dict()
        # The model's reading (canonical form) is asked first; its reply here is not JSON, so the table's stands.
        assert len(fake.requests) == 2 and "capital of peru" in json.dumps(fake.requests[-1])
        assert r["canonical_by"] == "table" and r["error"] is None and "no canonical form" in r["llm"]["reason"]
    assert r["layer"] == "L3" and r["datasource"] == "hr"
    assert [s["datasource"] for s in r["subqueries"]] == ["hr", "inventory"]
    assert r["status"] == "multiple_matches" and [m["name"] for m in r["matches"]] == ["hr", "inventory"]


def test_thresholds_from_yaml_and_environment(tmp_path):
    root = _copy(tmp_path)
    strict = load_router("factory", root, environ={"ROUTER_L1_THRESHOLD": "0.0001"})
    r = strict.route("how many folks clocked in rn", today=TODAY).to_dict()
    assert r["layer"] != "L1" and r["funnel"][0]["threshold"] == 0.0001
    assert strict.describe()["mirror"]["thresholds_from"]["l1"] == "environment ROUTER_L1_THRESHOLD"
    p = root / "factory" / "mirror.yaml"
    p.write_text(p.read_text().replace("l2: 0.6", "l2: 0.0002").replace("l1: 0.4", "l1: 0.0001"))
    none = load_router("factory", root, environ={})
    r = none.route("are we hitting our numbers this shift or nah", today=TODAY).to_dict()  # no phrase of one datasource (L0)
    assert r["layer"] is None and r["funnel"][1]["accepted"] is False and r["funnel"][1]["threshold"] == 0.0002


def test_env_override_is_validated(tmp_path):
    with pytest.raises(LexiconError, match="ROUTER_L2_THRESHOLD"):
        load_router("factory", _copy(tmp_path), environ={"ROUTER_L2_THRESHOLD": "lots"})


def test_broken_mirror_yaml_names_file_and_line(tmp_path):
    root = _copy(tmp_path)
    p = root / "factory" / "mirror.yaml"
    p.write_text(p.read_text().replace("l1: 0.4", "l1: 7"))
    with pytest.raises(LexiconError) as exc:
        load_router("factory", root)
    assert "mirror.yaml" in str(exc.value) and "line" in str(exc.value) and "thresholds.l1" in str(exc.value)


def test_sample_for_unknown_datasource_is_refused(tmp_path):
    root = _copy(tmp_path)
    p = root / "factory" / "sample_questions.yaml"
    p.write_text(p.read_text() + "finance:\n  - cash at bank\n")
    with pytest.raises(LexiconError, match="finance"):
        load_router("factory", root)


def test_samples_have_at_least_eight_per_datasource_and_variants():
    data = yaml.safe_load((ROOT / "lexicons/factory/sample_questions.yaml").read_text())
    assert set(data) == {"production", "maintenance", "inventory", "quality", "hr"}
    assert all(len(v) >= 8 for v in data.values())
    router = load_router("factory")
    variants = [e for e in router.entries if e["kind"] == "variant"]
    per = {}
    for e in variants:
        per[e["sample"]] = per.get(e["sample"], 0) + 1
    assert max(per.values()) == 5 and len(per) >= 30


def test_bad_input_is_invalid_query(factory):
    for q in ("", "   ", "x" * 1001, "?!"):
        r = factory.route(q, today=TODAY).to_dict()
        assert r["error"]["code"] == "INVALID_QUERY" and r["layer"] is None


def test_dates_still_resolve(factory):
    r = factory.route("scrap quantity last month", today=TODAY).to_dict()
    assert r["datasource"] == "quality"
    assert r["dates"][0]["start"] == "2025-12-01" and r["dates"][0]["end"] == "2025-12-31"


def test_golden_set_mirrored_beats_raw(factory):
    g = yaml.safe_load((ROOT / "lexicons/factory/golden.yaml").read_text())
    assert len(g["slang"]) == 20 and len(g["plain"]) == 20
    raw_l1 = mirrored_l1 = correct = 0
    for case in g["slang"]:
        r = factory.route(case["q"], today=TODAY).to_dict()
        correct += r["datasource"] == case["expect"]
        near = factory.nearest(case["q"].lower(), raw=True)
        raw_l1 += near["distance"] < factory.config.l1 and near["datasource"] == case["expect"]
        mirrored_l1 += r["layer"] == "L1" and r["datasource"] == case["expect"]
    assert mirrored_l1 > raw_l1 + 5
    assert correct >= 18
    plain = sum(factory.route(c["q"], today=TODAY).to_dict()["datasource"] == c["expect"] for c in g["plain"])
    assert plain >= 19


def test_weak_matches_keep_the_contract_order():
    """Higher confidence first, equal confidence A-Z (found by scripts/reliability.py's fuzzing)."""
    from routing import load_router

    router = load_router("factory")
    for query in ("2026, tertunggak, \u202e", "\x1b[31m  taxes  99999999  vasuli", "today, \x00, client"):
        ranked = [(-m.confidence, m.name) for m in router.route(query, today="2026-01-22").matches]
        assert ranked == sorted(ranked), query


def _config(rewrites, filler=()):
    from routing.designs.datasource_mirror.config import MirrorConfig

    return MirrorConfig(rewrites={c: tuple(v) for c, v in rewrites.items()}, filler=frozenset(filler), languages=("en",))


def test_rewrites_cover_the_word_forms_of_their_phrases():
    """A variant written "pumped out" also reads "pump out" and "pumps out" (Snowball stems of the
    domain's languages); words the table does not know stay as they are."""
    from routing.designs.datasource_mirror.canonical import canonicalise

    cfg = _config({"units produced": ["pumped out"], "operators": ["crew"]}, filler=["the", "did"])
    assert canonicalise("how many did the night crew pump out", cfg) == "how many night operators units produced"
    assert canonicalise("the crews pumps out", cfg) == "operators units produced"
    assert canonicalise("the pumpkin crewman", cfg) == "pumpkin crewman"


def test_a_canonical_phrase_is_never_rewritten_from_inside_and_is_said_once():
    from routing.designs.datasource_mirror.canonical import canonicalise, expand

    cfg = _config({"work orders": ["orders", "jobs"], "units produced": ["pieces", "cranked out"]}, filler=["we"])
    assert canonicalise("open work orders", cfg) == "open work orders"  # was "open work work orders"
    assert canonicalise("open jobs", cfg) == "open work orders"
    assert canonicalise("pieces we cranked out today", cfg) == "units produced today"
    assert expand("open work orders", cfg, 5) == ["open orders", "open jobs"]


def test_the_index_holds_no_doubled_canonical_phrase(factory):
    """Index time uses the same canonicaliser: no entry says a word twice in a row (it held
    "work work orders", "units units produced" and "production production lines")."""
    for e in factory.entries:
        words = e["text"].split()
        assert all(a != b for a, b in zip(words, words[1:])), e["text"]


def test_a_filler_word_is_never_rewritten_through_its_stem():
    """Indonesian "dibuat" (made) stems to "buat", which is also "for" (a filler word): "laporan buat pak direktur"
    asks for no units produced, and "ada NCR baru buat batch kemarin?" is a quality question."""
    from routing.designs.datasource_mirror.canonical import canonicalise
    from routing.designs.datasource_mirror.config import MirrorConfig

    cfg = MirrorConfig(rewrites={"units produced": ("dibuat", "made")}, filler=frozenset({"buat"}), languages=("en", "id"))
    assert canonicalise("barang dibuat hari ini", cfg) == "barang units produced hari ini"
    assert "units produced" not in canonicalise("laporan buat pak direktur", cfg)
    assert load_router("factory").route("ada NCR baru buat batch kemarin?", today=TODAY).to_dict()["datasource"] == "quality"
