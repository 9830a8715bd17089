"""The cfo golden corpus (lexicons/cfo/golden.yaml): the tool, tier, parameters and dates, and the
hybrid path (fast / llm, category, model tier) for every query in English and romanised Hindi."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from routing import Router
from routing.quality.evaluate import load_golden, run_cases

GOLDEN = Path(__file__).resolve().parent.parent / "lexicons" / "cfo" / "golden.yaml"
DATA = yaml.safe_load(GOLDEN.read_text())
TODAY = str(DATA["today"])


def _cases():
    for block in DATA["cases"]:
        for query in block["queries"]:
            yield pytest.param(query, block["expect"], id=query[:60])
    for query in DATA.get("negative") or []:
        yield pytest.param(query, {"status": "not_found"}, id="negative:" + query[:50])


@pytest.fixture(scope="module")
def cfo() -> Router:
    return Router.load("cfo")


@pytest.mark.parametrize("query, expect", list(_cases()))
def test_golden_query(cfo, query, expect):
    r = cfo.route(query, today=TODAY)
    names = [m.name for m in r.matches]
    if "tool" in expect:
        assert names and names[0] == expect["tool"], f"top {names[:3]} ({r.status.value})"
    for name in expect.get("tools") or []:
        assert name in [c["name"] for c in r.candidates[:3]], f"{name} not in the top three"
    if "status" in expect:
        assert r.status.value == expect["status"]
    for key, value in (expect.get("params") or {}).items():
        assert str(r.top.suggested_params.get(key)) == str(value), f"{key}: {r.top.suggested_params}"
    for want in expect.get("dates") or []:
        assert any(d["start"] == str(want["start"]) and d["end"] == str(want["end"]) for d in r.dates), r.dates
    if "path" in expect:
        assert r.path.value == expect["path"]
    if "category" in expect:
        assert r.category == expect["category"]
    if "model" in expect:
        assert r.path_fields.model_tier == expect["model"]
    if r.path.value == "fast":
        assert r.tools_sent == [] and r.pipeline
    elif r.category == "general_chat":
        assert r.tools_sent == []
    else:
        assert 15 <= len(r.tools_sent) <= 20


def test_the_corpus_is_big_enough_and_bilingual():
    queries = [q for b in DATA["cases"] for q in b["queries"]]
    assert len(queries) + len(DATA["negative"]) >= 60
    hindi_markers = ("batao", "dikhao", "kitna", "kitni", "hai", "karo", "mahine")
    assert sum(any(m in q.split() for m in hindi_markers) for q in queries) >= 15


def test_the_intent_store_has_25_intents_with_both_languages(cfo):
    tools = cfo.domain.tools
    assert len(tools) >= 25
    for t in tools:
        langs = {lang for lang, _ in t.examples}
        assert {"en", "hi"} <= langs, t.name
        assert t.extra.get("pipeline") and t.category in ("cfo", "bookkeeper"), t.name


def test_routing_eval_agrees(cfo):
    """The same corpus through routing.quality.evaluate (what `python -m routing eval --domain cfo` prints)."""
    metrics = run_cases(cfo, load_golden(GOLDEN), default_today=TODAY).metrics()
    assert metrics["failures"] == [] and metrics["top1"] == 1.0
