"""The golden corpus is the test suite (Duckling-style): every phrasing must route as expected.

A failure names what went wrong the way a person would: empty (no match), wrong tool, wrong tier,
wrong params or wrong dates, so a lexicon change that breaks a case is obvious.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from routing import Router
from routing.quality.evaluate import judge, load_golden, run_cases

LEXICONS = Path(__file__).resolve().parent.parent / "lexicons"
GOLDEN = load_golden(LEXICONS / "accounting" / "golden.yaml")
HELDOUT = LEXICONS / "accounting" / "heldout.yaml"


def test_corpus_is_big_and_bilingual():
    queries = [c.query for c in GOLDEN]
    assert len(queries) >= 100
    assert len(set(queries)) == len(queries), "a phrasing is listed twice"
    negatives = [c for c in GOLDEN if c.group == "negative"]
    assert len(negatives) >= 5
    statuses = {c.status for c in GOLDEN}
    assert {"activated", "multiple_matches", "needs_clarification", "not_found"} <= statuses


@pytest.mark.parametrize("case", GOLDEN, ids=[c.id for c in GOLDEN])
def test_golden(accounting: Router, case):
    result = accounting.route(case.query, today=case.today)
    verdict, detail = judge(case, result)
    assert verdict == "ok", f"{verdict}: {case.query!r}: {detail}"


def test_negatives_list_every_tool(accounting: Router):
    for case in (c for c in GOLDEN if c.group == "negative"):
        result = accounting.route(case.query, today=case.today)
        assert result.matches == []
        assert {a["name"] for a in result.available} == {t.name for t in accounting.domain.tools}


def test_heldout_phrasings_stay_above_floor(accounting: Router):
    """Phrasings written from the tool descriptions only, never tuned against one by one.
    The floors sit a little under what was measured, so a regression fails."""
    metrics = run_cases(accounting, load_golden(HELDOUT)).metrics()
    assert metrics["n"] >= 100
    assert metrics["answered_right"] >= 0.82, metrics["failures"][:10]  # shown and right (top1 was that figure until issue 22's stop 34)
    assert metrics["top1"] >= metrics["answered_right"]
    assert metrics["top3"] >= 0.92, metrics["failures"][:10]
