"""The football golden corpus is the test suite: every phrasing (English and Indonesian) must reach
its expected tier, status, error code and design fields; negatives must find nothing."""
from __future__ import annotations

from pathlib import Path

import pytest

from routing import load_router
from routing.quality.evaluate import judge, load_golden, run_cases

GOLDEN = load_golden(Path(__file__).resolve().parent.parent / "lexicons" / "football" / "golden.yaml")


@pytest.fixture(scope="module")
def football():
    return load_router("football")


def test_corpus_covers_every_tier_error_and_constraint():
    assert len(GOLDEN) >= 120
    expect = {(c.tool, c.status, c.error) for c in GOLDEN}
    for tier in ("surface", "deep", "compare"):
        assert any(t == tier for t, _, _ in expect)
    codes = {c.error for c in GOLDEN if c.error}
    assert {"INSUFFICIENT_CONTEXT", "PLAYER_NOT_FOUND", "AMBIGUOUS_ENTITY", "INSUFFICIENT_DATA"} <= codes
    assert any((c.context or {}).get("max_depth") == "L1" for c in GOLDEN)
    assert any((c.context or {}).get("player_ids") for c in GOLDEN)  # pronoun carry-over
    assert sum(c.group == "negative" for c in GOLDEN) >= 10
    own = set(load_router("football").route("how is Okafor doing", today="2026-01-22").design_fields.to_dict())
    assert {k for c in GOLDEN for k, _ in c.fields} <= own  # no expected field is silently skipped


@pytest.mark.parametrize("case", GOLDEN, ids=[c.id for c in GOLDEN])
def test_golden(football, case):
    result = football.route(case.query, today=case.today, context=case.context)
    verdict, detail = judge(case, result)
    assert verdict == "ok", f"{verdict}: {case.query!r}: {detail}"


def test_eval_figures(football):
    m = run_cases(football, GOLDEN).metrics()
    assert m["n"] == len(GOLDEN) and m["passed"] == 1.0 and m["top1"] == 1.0 and m["answered_right"] == 1.0


def test_the_judge_catches_a_wrong_error_and_a_wrong_field(football):
    case = next(c for c in GOLDEN if c.error == "AMBIGUOUS_ENTITY")
    wrong = type(case)(**{**case.__dict__, "error": "PLAYER_NOT_FOUND"})
    assert judge(wrong, football.route(wrong.query, today=wrong.today))[0] == "wrong_error"
    case = next(c for c in GOLDEN if c.tool == "deep" and not c.context)
    wrong = type(case)(**{**case.__dict__, "fields": (("intent", "compare"),)})
    assert judge(wrong, football.route(wrong.query, today=wrong.today))[0] == "wrong_field"
