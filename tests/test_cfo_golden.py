"""The cfo golden corpus (lexicons/cfo/golden.yaml): the tool, tier, parameters and dates, and the
hybrid path (fast / llm, category, model tier) for every query in English and romanised Hindi."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from routing import Router
from routing.quality.evaluate import judge, load_golden, run_cases

GOLDEN = Path(__file__).resolve().parent.parent / "lexicons" / "cfo" / "golden.yaml"
DATA = yaml.safe_load(GOLDEN.read_text())
TODAY = str(DATA["today"])


CASES = load_golden(GOLDEN)


@pytest.fixture(scope="module")
def cfo() -> Router:
    return Router.load("cfo")


@pytest.mark.parametrize("case", CASES, ids=[c.query[:60] for c in CASES])
def test_golden_query(cfo, case):
    """Judged by routing.quality.evaluate.judge (the one judge: tool, tier, params, dates, path,
    category, model), plus what each path must send."""
    r = cfo.route(case.query, today=case.today or TODAY)
    verdict, detail = judge(case, r)
    assert verdict == "ok", f"{verdict}: {case.query!r}: {detail}"
    if r.path.value == "fast":
        assert r.tools_sent == [] and r.pipeline
    elif r.category == "general_chat":
        assert r.tools_sent == []
    else:
        assert 15 <= len(r.tools_sent) <= 20


def test_the_judge_checks_the_path_fields(cfo):
    """The path fields are judged, not skipped: a case expecting the other path fails."""
    case = next(c for c in CASES if c.path == "fast")
    r = cfo.route(case.query, today=case.today or TODAY)
    assert judge(replace(case, path="llm"), r)[0] == "wrong_path"
    assert judge(replace(case, category="nope"), r)[0] == "wrong_category"


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
    assert metrics["failures"] == [] and metrics["top1"] == 1.0 and metrics["answered_right"] == 1.0
