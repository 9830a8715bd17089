"""One evaluation (issue 24, items 1 and 2): `eval`, the Coverage page, the threshold tuner and the
bench give the same figures for every design, on every golden format (the mirror's slang:/plain:)."""
from __future__ import annotations

import json

import pytest

from routing import Thresholds, load_router
from routing.quality.bench import golden_accuracy
from routing.quality.evaluate import golden_path, load_golden, run_cases
from routing.quality.gaps import run_coverage
from routing.quality.tuning import evaluate, score_cases, untunable_reason

DOMAINS = ("accounting", "cfo", "football", "powers", "factory")


@pytest.fixture(scope="module", params=DOMAINS)
def domain_run(request):
    router = load_router(request.param)
    cases = load_golden(golden_path(router))
    return request.param, router, cases, run_cases(router, cases).metrics()


def test_every_golden_format_loads(domain_run):
    name, _, cases, metrics = domain_run
    assert metrics["n"] == len(cases) > 0
    if name == "factory":  # 20 slang + 20 plain questions, each expecting a datasource
        assert len(cases) == 40 and {c.group for c in cases} == {"slang", "plain"}
        assert metrics["top1"] is not None and metrics["n_labelled"] == 40


def test_coverage_and_eval_agree(domain_run):
    _, router, cases, metrics = domain_run
    run = run_coverage(router, cases)
    for key in ("n", "top1", "top3", "tier_accuracy", "balanced", "status_counts"):
        assert run.metrics[key] == metrics[key], key


def test_tuner_at_the_file_thresholds_agrees_with_eval(domain_run):
    name, router, cases, metrics = domain_run
    if untunable_reason(router):
        assert name == "factory"
        return
    ev = evaluate(score_cases(router, cases), router.thresholds)
    assert ev.n == metrics["n"]
    for key in ("top1", "top3", "tier_accuracy", "balanced"):
        got = getattr(ev, key)
        assert (None if got is None else round(got, 4)) == metrics[key], key


@pytest.mark.parametrize("th", [Thresholds(high=0.6, medium=0.4, low=0.2, margin=0.0), Thresholds(high=0.95, medium=0.7, low=0.5, margin=0.2)])
def test_reclassified_scores_are_the_tiers_routing_gives(domain_run, th):
    """The tuner re-classifies stored scores by the design's own rule (the gateway's four tiers too)."""
    name, router, cases, _ = domain_run
    if untunable_reason(router):
        return
    for sc in score_cases(router, cases):
        routed = router.route(sc.case.query, today=sc.case.today, thresholds=th, context=sc.case.context)
        assert sc.status(th) is routed.status, (name, sc.case.query)


def test_a_design_that_cannot_be_tuned_says_why():
    router = load_router("factory")
    reason = untunable_reason(router)
    assert reason and "l1" in reason and "l2" in reason
    with pytest.raises(ValueError, match="distance"):
        score_cases(router, load_golden(golden_path(router)))


def test_bench_figures_are_evals(domain_run):
    _, router, _, metrics = domain_run
    got = golden_accuracy(router, golden_path(router))
    assert got == {"golden_top1": metrics["top1"], "golden_tier_accuracy": metrics["tier_accuracy"]}


def test_cli_eval_factory_counts_its_questions(capsys):
    from routing.cli.main import main

    assert main(["eval", "--domain", "factory"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 40 and out["top1"] is not None


# ------------------------------------------------------------ one name, one meaning: top-1 and answered right

def test_top1_is_the_best_candidate_whatever_the_tier_answered_right_is_not_rejected_and_right():
    from routing.quality.evaluate import GoldenCase, accuracy

    rows = [
        (GoldenCase("a", tool="invoice_list"), "activated", "invoice_list", ("invoice_list", "bill_list")),
        (GoldenCase("b", tool="invoice_list"), "not_found", None, ("invoice_list", "bill_list")),  # rejected, best right
        (GoldenCase("c", tool="bill_list"), "multiple_matches", "invoice_list", ("invoice_list", "bill_list")),
        (GoldenCase("d", status="not_found"), "not_found", None, ("contact_list",)),
    ]
    acc = accuracy(rows)
    assert acc.top1 == 2 / 3 and acc.answered_right == 1 / 3 and acc.top3 == 1.0
    assert acc.balanced == (1 / 3 + 1.0) / 2  # in-scope answered right against negatives rejected


def test_eval_prints_both_figures(domain_run):
    _, _, _, metrics = domain_run
    assert metrics["answered_right"] is not None and metrics["answered_right"] <= metrics["top1"]


def test_a_large_run_summary_says_top1_and_answered_right_apart():
    from routing.quality.coverage_summary import chunk_stats

    columns = {"status": ["activated", "not_found", "weak_matches"], "top": ["a", None, "b"], "day": [None] * 3,
               "path": ["fast", "llm", "llm"], "error": [None] * 3, "label": ["a", "a", "a"],
               "top3": ["a|b", "a|c", "b|a"], "correct": [True, False, False], "ms": [1.0, 1.0, 1.0]}
    s = chunk_stats(columns)
    assert s["labelled"] == 3 and s["correct"] == 1 and s["best_correct"] == 2
