"""import-csv: labelled utterances -> a new domain that routes, evaluates, and round-trips through the CLI."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest
import yaml
from conftest import shared_data, write_csv

from routing import Router, Status
from routing.cli.main import main
from routing.quality.evaluate import load_golden, load_labelled_csv, run_cases
from routing.quality.importer import ImportProblem, import_labelled_csv, split_holdout

ROOT = Path(__file__).resolve().parent.parent
BANKING = shared_data("banking77")
METRIC_FIELDS = {"n", "top1", "top3", "tier_accuracy", "status_counts", "p50_ms", "p99_ms"}

# A tiny intent set in two languages; each label has enough phrasings to hold some out.
INTENTS = {
    "card_lost": ["I lost my card", "my card was stolen", "kartu saya hilang", "someone stole my debit card",
                  "cannot find my card anywhere", "card missing from wallet", "report a lost card", "kartu dicuri"],
    "exchange_rate": ["what is the exchange rate", "how much is one euro in dollars", "kurs dollar hari ini",
                      "currency conversion rate", "rate for pounds to euros", "berapa kurs euro", "exchange rate for yen",
                      "today's rate for dollars"],
    "top_up": ["how do I top up my account", "add money to my account", "isi saldo", "top up with bank transfer",
               "top up failed", "can I top up by card", "cara top up saldo", "adding funds to my balance"],
}


@pytest.fixture()
def small_csv(tmp_path) -> Path:
    return write_csv(tmp_path / "intents.csv", [(t, label) for label, texts in INTENTS.items() for t in texts])


def run_cli(*args: str) -> tuple[int, dict]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(list(args))
    out = buf.getvalue()
    return code, (json.loads(out) if out.strip() else {})


def test_import_writes_a_domain_that_routes(lexicon_root, small_csv):
    result = import_labelled_csv(small_csv, "mybank", root=lexicon_root, holdout=0.25)
    folder = lexicon_root / "mybank"
    assert sorted(p.name for p in folder.iterdir()) == ["golden.yaml", "patterns.yaml", "settings.yaml", "synonyms.yaml", "tools.yaml"]
    tools = yaml.safe_load((folder / "tools.yaml").read_text())["tools"]
    assert [t["name"] for t in tools] == ["card_lost", "exchange_rate", "top_up"]
    assert tools[0]["description"] == "Card lost."
    assert result.examples + result.heldout == sum(len(v) for v in INTENTS.values())
    # Held-out phrasings are in golden.yaml and never among the examples.
    golden = load_golden(folder / "golden.yaml")
    examples = {e for t in tools for e in t["examples"]}
    assert golden and all(c.query not in examples for c in golden)
    assert {c.tool for c in golden} == set(INTENTS)  # stratified: every label held out some
    router = Router.load("mybank", lexicon_root)
    res = router.route("I think my card was stolen yesterday", today="2026-01-22")
    assert res.top is not None and res.top.name == "card_lost"
    assert router.route("berapa kurs dollar", today="2026-01-22").top.name == "exchange_rate"
    assert router.route("qwzx plorf", today="2026-01-22").status is Status.NOT_FOUND


def test_holdout_is_deterministic_and_keeps_an_example():
    texts = [f"utterance {i}" for i in range(20)]
    assert split_holdout(texts, 0.2) == split_holdout(list(texts), 0.2)
    kept, held = split_holdout(texts, 0.2)
    assert len(held) == 4 and len(kept) == 16
    assert split_holdout(["only one"], 0.5) == (["only one"], [])


def test_cli_round_trip_import_then_eval(lexicon_root, small_csv, tmp_path):
    code, out = run_cli("--lexicons", str(lexicon_root), "import-csv", str(small_csv), "--domain", "mybank", "--holdout", "0.25")
    assert code == 0 and out["tools"] == 3 and out["heldout"] > 0
    test_csv = write_csv(tmp_path / "test.csv", [("my card has been stolen", "card_lost"), ("exchange rate for dollars", "exchange_rate"), ("top up my balance", "top_up")])
    code, metrics = run_cli("--lexicons", str(lexicon_root), "eval", "--domain", "mybank", "--data", str(test_csv))
    assert code == 0
    assert METRIC_FIELDS <= set(metrics)
    assert metrics["n"] == 3 and metrics["top1"] == 1.0 and metrics["answered_right"] == 1.0
    code, golden_metrics = run_cli("--lexicons", str(lexicon_root), "eval", "--domain", "mybank")
    assert code == 0 and golden_metrics["n"] == out["heldout"] and golden_metrics["top1"] is not None


def test_cli_refuses_to_overwrite_and_names_bad_columns(lexicon_root, small_csv, capsys):
    assert run_cli("--lexicons", str(lexicon_root), "import-csv", str(small_csv), "--domain", "mybank")[0] == 0
    code, _ = run_cli("--lexicons", str(lexicon_root), "import-csv", str(small_csv), "--domain", "mybank")
    assert code == 2 and "already exists" in capsys.readouterr().err
    code, _ = run_cli("--lexicons", str(lexicon_root), "import-csv", str(small_csv), "--domain", "other", "--label-col", "intent")
    err = capsys.readouterr().err
    assert code == 2 and "'intent' not found" in err and "'category'" in err
    assert not (lexicon_root / "other").exists()
    assert run_cli("--lexicons", str(lexicon_root), "import-csv", str(small_csv), "--domain", "mybank", "--force")[0] == 0


def test_bad_files_lose_nothing(lexicon_root, tmp_path):
    with pytest.raises(ImportProblem, match="not UTF-8"):
        import_labelled_csv(b"text,category\n\xff\xfe,x\n", "bad", root=lexicon_root)
    with pytest.raises(ImportProblem, match="No labelled utterances"):
        import_labelled_csv("text,category\n,\n ,a\n", "bad", root=lexicon_root)
    with pytest.raises(ImportProblem, match="lower-case"):
        import_labelled_csv("text,category\nhi,a\n", "Bad Name", root=lexicon_root)
    assert sorted(p.name for p in lexicon_root.iterdir()) == ["_shared"]


def test_renamed_label_still_evaluates(lexicon_root, tmp_path):
    rows = [(t, "lost card?") for t in INTENTS["card_lost"]] + [(t, "top_up") for t in INTENTS["top_up"]]
    result = import_labelled_csv(write_csv(tmp_path / "q.csv", rows), "qbank", root=lexicon_root, holdout=0)
    assert result.renamed == {"lost card?": "lost_card"}
    test_csv = write_csv(tmp_path / "t.csv", [("my card was stolen", "lost card?")])
    code, metrics = run_cli("--lexicons", str(lexicon_root), "eval", "--domain", "qbank", "--data", str(test_csv))
    assert code == 0 and metrics["top1"] == 1.0 and metrics["answered_right"] == 1.0


@pytest.mark.skipif(not (BANKING / "train.csv").exists(), reason="Banking77 data not available")
def test_banking77_top1_floor(lexicon_root):
    """Import Banking77 train, evaluate on test: a regression in the example signal fails here."""
    import_labelled_csv(BANKING / "train.csv", "banking77", root=lexicon_root, holdout=0.1)
    router = Router.load("banking77", lexicon_root)
    cases = load_labelled_csv(BANKING / "test.csv", text_col="text", label_col="category")
    from routing.quality.importer import relabel_cases

    metrics = run_cases(router, relabel_cases(router.domain, cases)).metrics()
    assert metrics["n"] == 3080
    assert metrics["answered_right"] >= 0.91, metrics  # measured 0.920 with 90 % of train (0.891 before the learned signal)
    assert metrics["top1"] >= 0.92, metrics["top1"]  # the best candidate whatever the tier: measured 0.925
    assert metrics["top3"] >= 0.965, metrics["top3"]  # measured 0.978 (0.950 before)


def test_eval_data_without_a_text_column_names_the_columns(tmp_path, capsys):
    """`eval --data` on a CSV whose question column is not `text`: exit 2 and the columns it has,
    never a silent 0 % from routing the first column."""
    data = write_csv(tmp_path / "q.csv", [("outstanding invoices", "invoice_list")], header=("question", "tool"))
    code = main(["eval", "--domain", "accounting", "--data", str(data)])
    err = capsys.readouterr().err
    assert code == 2 and "'question'" in err and "'tool'" in err
    code, metrics = run_cli("eval", "--domain", "accounting", "--data", str(data), "--text-col", "question")
    assert code == 0 and metrics["n"] == 1 and metrics["top1"] == 1.0 and metrics["answered_right"] == 1.0


def test_import_infers_the_languages_so_the_real_word_guard_is_on(lexicon_root, tmp_path):
    """Issue 14: an imported domain got `languages: []`, so "writing" was "corrected" into "waiting"."""
    rows = [(t, label) for label, texts in INTENTS.items() for t in texts if not any(w in t for w in ("kartu", "saldo", "kurs", "dicuri"))]
    rows += [("I am still waiting for my card", "card_lost"), ("waiting for the top up", "top_up")]
    import_labelled_csv(write_csv(tmp_path / "en.csv", rows), "enbank", root=lexicon_root, holdout=0)
    settings = yaml.safe_load((lexicon_root / "enbank" / "settings.yaml").read_text())
    assert settings["languages"] == ["en"]
    router = Router.load("enbank", lexicon_root)
    assert router.route("writing a complaint", today="2026-01-22").corrections == []
