"""Threshold sweeps and coverage gaps: behaviour a person sees on the tuner and coverage pages."""
from __future__ import annotations

from dataclasses import replace

import pytest

from routing import Status, Thresholds
from routing.quality.evaluate import GoldenCase, golden_path, load_golden, run_cases
from routing.quality.gaps import confusion, editor_prefill, find_gaps, run_coverage
from routing.quality.tuning import evaluate, ordered_thresholds, score_cases, sweep, tune

TODAY = "2026-01-22"
CASES = [
    GoldenCase("outstanding invoices", tool="invoice_list", status="activated"),
    GoldenCase("show invoices", status="multiple_matches"),
    GoldenCase("show me data", status="needs_clarification"),
    GoldenCase("asdfasdf", status="not_found"),
]


@pytest.fixture(scope="module")
def scored(accounting):
    return score_cases(accounting, CASES, default_today=TODAY)


def test_classifying_stored_scores_matches_routing(accounting, scored):
    """Re-classifying the stored scores gives the tier routing gives, for any thresholds."""
    for th in (accounting.thresholds, Thresholds(high=0.6, medium=0.4, low=0.2, margin=0.0), Thresholds(high=0.99, medium=0.9, low=0.8, margin=0.5)):
        for sc in scored:
            assert sc.status(th) is accounting.route(sc.case.query, today=TODAY, thresholds=th).status, (sc.case.query, th)


def test_moving_a_threshold_changes_the_tiers(accounting, scored):
    at_file = evaluate(scored, accounting.thresholds)
    assert at_file.counts["activated"] == 1 and at_file.tier_accuracy == 1.0
    # A margin wider than the top tool's lead over the runner-up empties the fast path.
    top = scored[0].scored
    lead = top[0].confidence - (top[1].confidence if len(top) > 1 else 0.0)
    assert lead < 0.99, "the activated case must have a runner-up for this test to mean anything"
    strict = evaluate(scored, replace(accounting.thresholds, margin=round(lead + 0.01, 2)))
    assert strict.counts["activated"] == 0 and strict.counts["multiple_matches"] == 2 and strict.tier_accuracy == 0.75
    # "low" at 1.0: only a perfect score still shows a match; the rest fall to not_found
    # (the vague one still asks its question).
    none_found = evaluate(scored, Thresholds(high=1.0, medium=1.0, low=1.0, margin=0.0))
    perfect = sum(1 for sc in scored if sc.scored and sc.scored[0].confidence >= 1.0)
    assert none_found.counts["not_found"] == 3 - perfect
    assert none_found.counts["needs_clarification"] == 1


def test_sweep_marks_current_and_best(accounting, scored):
    sw = sweep(scored, accounting.thresholds, "high")
    assert sw.current == accounting.thresholds.high
    assert sw.at(sw.best).tier_accuracy == max(p.tier_accuracy for p in sw.points if p.valid)
    # Values below "medium" would break low <= medium <= high: shown as invalid, never best.
    assert not sw.at(0.2).valid and sw.best >= accounting.thresholds.medium
    report = tune(scored, accounting.thresholds)
    assert set(report.sweeps) == {"high", "medium", "low", "margin"}
    best = report.best
    assert best.low <= best.medium <= best.high


def test_ordered_thresholds_repairs_order():
    th = ordered_thresholds({"low": 0.7, "medium": 0.4}, Thresholds())
    assert th.low <= th.medium <= th.high


def test_tool_only_labels_count_fast_path_when_right(accounting):
    cases = [GoldenCase("outstanding invoices", tool="invoice_list"), GoldenCase("outstanding invoices", tool="bill_list")]
    ev = evaluate(score_cases(accounting, cases, default_today=TODAY), accounting.thresholds)
    # Right tool activated: right tier. Wrong tool activated: the fast path was the wrong call.
    assert ev.top1 == 0.5 and ev.tier_accuracy == 0.5


def test_gap_names_the_unknown_word_and_a_canonical_term(accounting):
    res = accounting.route("invoise", today=TODAY).to_dict()  # a typo the corrector fixes: no gap
    assert find_gaps(accounting, res) == []
    res = accounting.route("kwitansi tagihan", today=TODAY).to_dict()
    gaps = find_gaps(accounting, res)
    assert [g.word for g in gaps] == ["kwitansi"]
    res = accounting.route("show invoicez from the smurfs", today=TODAY).to_dict()
    words = [g.word for g in find_gaps(accounting, res)]
    assert "smurfs" in words and "invoicez" not in words
    prefill = editor_prefill("accounting", "kwitansi tagihan", gaps[0], "invoice")
    assert prefill == {"domain": "accounting", "kind": "synonym", "canonical": "invoice", "variant": "kwitansi", "query": "kwitansi tagihan"}


def test_coverage_run_agrees_with_evaluation(accounting):
    cases = load_golden(golden_path(accounting))
    run = run_coverage(accounting, cases, default_today=TODAY)
    assert run.metrics == {**run_cases(accounting, cases, default_today=TODAY).metrics(), "p50_ms": run.metrics["p50_ms"], "p99_ms": run.metrics["p99_ms"]}
    negatives = [r for r in run.rows if r.expected is None and r.status == Status.NOT_FOUND.value]
    assert negatives and all(r.fell_through for r in negatives)
    y, x, z = confusion(run.rows)
    assert "invoice_list" in y and sum(map(sum, z)) == run.metrics["n_labelled"]
