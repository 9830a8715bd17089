"""Calibrated confidence (issue 14): an imported domain's confidence is the probability its top
tool is right; negatives teach it to say no; the breakdown still adds up; the tuner shows it."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import yaml
from conftest import shared_data, write_csv

from routing import Router, Status
from routing.core.calibration import (
    CACHE_FILE,
    ece,
    fit_calibrator,
    reliability_bins,
    reliability_report,
)
from routing.quality.evaluate import load_golden, run_cases
from routing.quality.importer import import_labelled_csv, read_queries

ROOT = Path(__file__).resolve().parent.parent
OOS = shared_data("banking77-oos")

# Two small intents plus out-of-scope rows (label oos / none / empty): enough held-out rows to fit.
CARD = ["I lost my card", "my card was stolen", "cannot find my card", "card missing from my wallet", "report a lost card",
        "someone took my card", "my debit card is gone", "lost credit card help", "I think my card was stolen yesterday",
        "where do I report a stolen card", "card lost abroad", "my card disappeared", "stolen card what now",
        "I misplaced my bank card", "lost my visa card", "my wallet with the card was stolen", "card is lost please block it",
        "block my lost card", "freeze my stolen card", "card got stolen on the train"]
TOPUP = ["how do I top up my account", "add money to my account", "top up with bank transfer", "top up failed",
         "can I top up by card", "adding funds to my balance", "my top up did not arrive", "top up limit",
         "how long does a top up take", "top up with apple pay", "top up is pending", "why did my top up fail",
         "put money in my account", "load money onto my balance", "top up by cash", "top up from another bank",
         "I want to top up", "is there a fee to top up", "top up not showing", "how to add funds"]
NEGATIVE = ["what is the weather tomorrow", "play some jazz music", "set an alarm for seven", "tell me a joke",
            "how tall is mount everest", "order a pizza", "what time is it in tokyo", "turn off the lights",
            "who won the football game", "book a table for two", "translate hello into french", "remind me to call mom",
            "what is the capital of peru", "recommend a good movie", "how do I bake bread", "find a recipe for soup",
            "is it going to rain", "call my sister", "read my new emails", "how far is the moon"]


@pytest.fixture()
def small_domain(lexicon_root, tmp_path) -> Path:
    rows = [(t, "card_lost") for t in CARD] + [(t, "top_up") for t in TOPUP]
    rows += [(t, ["oos", "none", ""][i % 3]) for i, t in enumerate(NEGATIVE)]
    import_labelled_csv(write_csv(tmp_path / "train.csv", rows), "mini", root=lexicon_root, holdout=0.5)
    return lexicon_root


def test_import_keeps_negatives_apart_and_asks_for_calibration(small_domain):
    folder = small_domain / "mini"
    settings = yaml.safe_load((folder / "settings.yaml").read_text())
    assert settings["calibration"] == "fit"
    assert settings["thresholds"] == {"high": 0.85, "medium": 0.5, "low": 0.3, "margin": 0.1}
    tools = [t["name"] for t in yaml.safe_load((folder / "tools.yaml").read_text())["tools"]]
    assert tools == ["card_lost", "top_up"]  # no tool called "oos" or ""
    negatives = yaml.safe_load((folder / "negatives.yaml").read_text())["negatives"]
    golden = yaml.safe_load((folder / "golden.yaml").read_text())
    assert len(negatives) + len(golden["negative"]) == len(NEGATIVE)
    assert not set(negatives) & set(golden["negative"])  # held-out negatives are never training negatives


def test_router_build_fits_and_caches_the_calibration(small_domain):
    router = Router.load("mini", small_domain)
    assert router.calibrator is not None and router.calibrator.n >= 30
    cache = json.loads((small_domain / "mini" / CACHE_FILE).read_text())
    assert cache["model"]["n"] == router.calibrator.n
    # A second build reads the cache (same fingerprint): the same model.
    assert Router.load("mini", small_domain).calibrator == router.calibrator
    # A changed lexicon makes the cache stale: refitted, not reused.
    cache["model"]["bias"] = 99.0
    (small_domain / "mini" / CACHE_FILE).write_text(json.dumps(cache))
    assert Router.load("mini", small_domain).calibrator.bias == 99.0  # proves the cache is read...
    with (small_domain / "mini" / "negatives.yaml").open("a") as f:
        f.write("  - what is the meaning of life\n")
    assert Router.load("mini", small_domain).calibrator.bias != 99.0  # ...and refitted when stale


def test_breakdown_adds_up_to_the_calibrated_confidence(small_domain):
    router = Router.load("mini", small_domain)
    r = router.route("my card was stolen at the station", today="2026-01-22")
    assert r.top is not None and r.top.name == "card_lost"
    for m in r.matches:
        assert "calibration" in m.score_breakdown
        assert abs(sum(m.score_breakdown.values()) - m.confidence) < 1e-3
    for c in r.ranked_candidates:
        assert abs(sum(c["score_breakdown"].values()) - c["confidence"]) < 1e-3


def test_an_unrelated_question_is_not_found_in_a_calibrated_domain(small_domain):
    router = Router.load("mini", small_domain)
    assert router.route("what is the weather in paris this weekend", today="2026-01-22").status is Status.NOT_FOUND
    assert router.route("my card was stolen", today="2026-01-22").top.name == "card_lost"


def test_hand_built_domains_are_not_calibrated(accounting):
    assert accounting.calibrator is None
    r = accounting.route("outstanding invoices", today="2026-01-22")
    assert "calibration" not in r.top.score_breakdown


def test_fit_needs_enough_cases_and_both_classes():
    assert fit_calibrator([[0.5]] * 10, [1] * 5 + [0] * 5, [0.5] * 10) is None
    assert fit_calibrator([[0.5]] * 40, [1] * 40, [0.5] * 40) is None
    xs = [[i / 40] for i in range(40)]
    ys = [int(i >= 20) for i in range(40)]
    model = fit_calibrator(xs, ys, [x[0] for x in xs])
    assert model is not None and model.probability([0.95]) > 0.9 > 0.1 > model.probability([0.05])


def test_ece_and_bins():
    assert ece([0.9] * 10, [1] * 9 + [0]) == 0.0
    assert ece([1.0] * 4, [0] * 4) == 1.0
    bins = reliability_bins([0.05, 0.15, 0.95, 1.0], [0, 0, 1, 1])
    assert [b["n"] for b in bins] == [1, 1, 2] and bins[-1]["accuracy"] == 1.0
    rep = reliability_report([(0.9, "a", "a"), (0.8, "b", None)])
    assert rep["n"] == 2 and rep["accuracy"] == 0.5 and rep["calibrated"] is False


def test_csv_with_negative_labels_evaluates_them_as_not_found(tmp_path):
    cases = read_queries(b"text,category\nlost card,card_lost\nweather today,oos\nplay music,\n", is_csv=True, text_col="text", label_col="category")
    assert [(c.tool, c.status) for c in cases] == [("card_lost", None), (None, "not_found"), (None, "not_found")]


@pytest.mark.skipif(not (OOS / "train.csv").exists(), reason="BANKING77-OOS data not available")
def test_banking77_oos_floors(lexicon_root, tmp_path):
    """Import BANKING77-OOS train (+ its oos rows as negatives), route the test sets: the floors sit a
    little under what `python scripts/measure.py banking77-oos` measured, so a regression fails."""
    rows = []
    for name in ("train.csv", "id_oos_train.csv"):
        with (OOS / name).open(encoding="utf-8-sig", newline="") as f:
            rows += [(r["text"], r["category"]) for r in csv.DictReader(f)]
    import_labelled_csv(write_csv(tmp_path / "train.csv", rows), "b77oos", root=lexicon_root, holdout=0.1)
    router = Router.load("b77oos", lexicon_root)
    ins = run_cases(router, read_queries((OOS / "test.csv").read_bytes(), is_csv=True, label_col="category"))
    oos = run_cases(router, read_queries((OOS / "id_oos_test.csv").read_bytes(), is_csv=True, label_col="category"))
    shown = {"activated", "multiple_matches", "weak_matches"}
    accuracy = sum(o.status in shown and o.top == o.case.tool for o in ins.outcomes) / len(ins.outcomes)
    recall = sum(o.status not in shown for o in oos.outcomes) / len(oos.outcomes)
    activated = [o for o in ins.outcomes + oos.outcomes if o.status == "activated"]
    precision = sum(o.top == o.case.tool for o in activated) / len(activated)
    # With the semantic signal imported domains now get (issue 13): measure.py gives 0.812 / 0.720 / 0.900.
    assert accuracy >= 0.79, accuracy  # measured 0.81 here (issue 14 started at 0.81 top-1, any tier)
    assert recall >= 0.67, recall  # measured 0.72 (was 0.010)
    assert precision >= 0.86, precision  # measured 0.88 here (was 0.75); lexical signals only: 0.915


def test_tuner_picks_low_for_balanced_accuracy_with_negatives(small_domain):
    from routing.quality.tuning import evaluate, score_cases, sweep

    router = Router.load("mini", small_domain)
    scored = score_cases(router, load_golden(small_domain / "mini" / "golden.yaml"))
    assert any(sc.case.status == "not_found" for sc in scored) and any(sc.case.tool for sc in scored)
    sw = sweep(scored, router.thresholds, "low")
    best = sw.at(sw.best)
    assert best.balanced == max(p.balanced for p in sw.points if p.valid)
    # Rejecting nothing (low 0) or everything (low = medium) is never better than the best.
    assert best.balanced >= evaluate(scored, router.thresholds.__class__(high=0.85, medium=0.5, low=0.0, margin=0.1)).balanced
    assert best.balanced > 0.5


def test_off_topic_questions_keep_the_shape_and_drop_the_domain_words(small_domain):
    from routing.core.calibration import calibration_cases, off_topic_questions

    router = Router.load("mini", small_domain)
    cases = [c for c in calibration_cases(small_domain / "mini") if c.tool]
    made = off_topic_questions(router, cases)
    assert made and len(made) == len(cases[::4])
    assert made == off_topic_questions(router, cases)  # deterministic
    for q, case in zip(made, cases[::4]):
        assert router.analyze(q).keys, q  # still a question with content words
        swapped = [w for w in q.split() if w not in case.query.casefold().split()]
        # every swapped word is one the domain never lists (it may read one of ours by its stem)
        assert swapped and not any(w in router.index.known or w in router.index.example_vocab for w in swapped), q
