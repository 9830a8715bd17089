"""The command line of the contract: JSON out, exit 0 / 2 / 3."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args, stdin: str | None = None):
    return subprocess.run([sys.executable, "-m", "routing", *args], capture_output=True, text=True, input=stdin, cwd=ROOT)


def route(query: str) -> dict:
    proc = run("route", query, "--domain", "accounting", "--today", "2026-01-22")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_route_done_when():
    r = route("outstanding invoices")
    assert (r["status"], r["matches"][0]["name"], r["matches"][0]["suggested_params"]["status"]) == ("activated", "invoice_list", "unpaid")
    assert route("show invoices")["status"] == "multiple_matches"
    clar = route("show me data")
    assert clar["status"] == "needs_clarification" and clar["clarifying_question"].startswith("What type of data?")
    nf = route("asdfasdf")
    assert nf["status"] == "not_found" and len(nf["available"]) == 18


def test_route_result_has_the_contract_fields():
    r = route("invoise bulan ini yang belum dibayar")
    for key in ("query", "domain", "today", "normalized", "corrections", "status", "message", "clarifying_question",
                "path", "matches", "dates", "error", "events", "timing_ms", "category", "model", "pipeline",
                "enrichments", "tools_sent", "llm", "estimate"):
        assert key in r, key
    assert r["today"] == "2026-01-22"
    assert r["corrections"][0] == {"from": "invoise", "to": "invoice", "score": r["corrections"][0]["score"]}
    assert r["normalized"].startswith("invoice bulan ini")
    m = r["matches"][0]
    for key in ("name", "confidence", "match_type", "description", "key_params", "suggested_params", "score_breakdown"):
        assert key in m
    assert r["dates"][0]["start"] == "2026-01-01" and r["dates"][0]["end"] == "2026-01-22"


def test_batch_one_json_line_per_query():
    proc = run("batch", "--domain", "accounting", "--today", "2026-01-22", stdin="outstanding invoices\n\nneraca\nasdfasdf\n")
    assert proc.returncode == 0
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [line["status"] for line in lines] == ["activated", "not_found", "activated", "not_found"]
    assert lines[1]["error"]["code"] == "INVALID_QUERY", "a blank line keeps its place, as an invalid query"


def test_dates_command_and_batch():
    proc = run("dates", "tujuh hari kebelakang", "--today", "2026-01-22")
    d = json.loads(proc.stdout)[0]
    assert (d["start"], d["end"], d["kind"]) == ("2026-01-16", "2026-01-22", "rolling")
    proc = run("dates", "--batch", stdin="2026-01-22\tlast week\n2026-01-22\tbulan lalu\n")
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert (out[0][0]["start"], out[0][0]["end"]) == ("2026-01-12", "2026-01-18")
    assert (out[1][0]["start"], out[1][0]["end"]) == ("2025-12-01", "2025-12-31")


def test_domains_lists_accounting():
    out = json.loads(run("domains").stdout)
    acc = next(d for d in out if d["name"] == "accounting")
    assert acc["tool_count"] == 18 and "invoice_list" in acc["tools"] and set(acc["languages"]) == {"en", "id"}


def test_eval_prints_the_documented_metrics():
    proc = run("eval", "--domain", "accounting")
    m = json.loads(proc.stdout)
    for key in ("n", "top1", "top3", "tier_accuracy", "status_counts", "p50_ms", "p99_ms"):
        assert key in m
    assert m["n"] >= 100


def test_bad_arguments_exit_2():
    assert run("route", "x", "--today", "yesterday").returncode == 2
    assert run("route").returncode == 2
    assert run("nonsense").returncode == 2


def test_unknown_domain_is_a_bad_argument_naming_the_known_ones():
    proc = run("route", "x", "--domain", "nope")
    assert proc.returncode == 2 and "accounting" in proc.stderr


def test_eval_with_an_unreadable_file_is_a_bad_argument(tmp_path):
    assert run("eval", "--data", str(tmp_path / "missing.csv")).returncode == 2
    (tmp_path / "latin.csv").write_bytes("text\nfaktur \xe9\n".encode("latin-1"))
    assert run("eval", "--data", str(tmp_path / "latin.csv")).returncode == 2
    assert run("eval", "--today", "garbage").returncode == 2


def test_eval_csv_keeps_quoted_multiline_fields(tmp_path):
    (tmp_path / "q.csv").write_text('text,tool\n"outstanding\ninvoices",invoice_list\n', encoding="utf-8")
    m = json.loads(run("eval", "--data", str(tmp_path / "q.csv")).stdout)
    assert m["n"] == 1 and m["top1"] == 1.0 and m["answered_right"] == 1.0


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    """One quick bench run for the tests below, with a small labelled CSV to import (and a test.csv beside it)."""
    folder = tmp_path_factory.mktemp("bench") / "shop"  # the row is named after the folder of a train.csv
    folder.mkdir()
    rows = {"refund": ["i want my money back", "refund my order please", "how do i get a refund", "return this for a refund"],
            "delivery": ["where is my parcel", "when will my order arrive", "track my delivery", "my package is late"]}
    (folder / "train.csv").write_text("text,category\n" + "".join(f"{t},{c}\n" for c, ts in rows.items() for t in ts))
    (folder / "test.csv").write_text("text,category\nmoney back for my order,refund\nwhere is my order,delivery\n")
    proc = run("bench", "--quick", "--sizes", "200", "--domains", "accounting", "factory", "--import-csv", str(folder / "train.csv"))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_bench_reports_p50_and_p99(bench):
    acc = bench["domains"]["accounting"]
    assert acc["p50_ms"] > 0 and acc["p99_ms"] >= acc["p50_ms"]
    assert bench["synthetic"]["200_tools"]["routed"] > 0


def test_bench_has_the_factory_mirror_and_rows_with_the_semantic_signal_on(bench):
    rows = bench["domains"]
    factory = rows["factory"]  # its golden file keeps slang:/plain: lists, not cases:
    assert factory["design"] == "datasource_mirror" and factory["queries"] == 40 and factory["encoder"]
    assert rows["accounting"]["semantic"] is False and rows["accounting"]["encoder"] is None
    sem = rows["accounting+semantic"]
    assert sem["design"] == "tools" and sem["semantic"] is True and sem["semantic_weight"] > 0 and sem["encoder"]
    assert sem["routed"] > 0 and "accounting+semantic" in bench["sequential"]
    shop = rows["imported:shop"]  # the sibling test.csv's two questions, routed with the signal on
    assert shop["semantic"] is True and shop["encoder"] and shop["queries"] == 2 and shop["queries_from"].endswith("test.csv")
    assert rows["imported:shop-semantic"]["semantic"] is False  # the same import with the signal off, for its cost


def test_bench_runs_only_the_domains_asked_and_names_an_unknown_one(bench):
    assert {k.split("+")[0] for k in bench["domains"] if not k.startswith("imported:")} == {"accounting", "factory"}
    proc = run("bench", "--quick", "--sizes", "--domains", "acounting")
    assert proc.returncode == 2 and "acounting" in proc.stderr and "accounting" in proc.stderr
    proc = run("bench", "--zero-shot", "--domains", "accounting")
    assert proc.returncode == 2 and "--domains" in proc.stderr


def test_a_request_option_the_design_does_not_read_is_a_bad_argument():
    """No flag without behaviour: --max-depth means something to intent_tiers only."""
    import subprocess
    import sys

    bad = subprocess.run([sys.executable, "-m", "routing", "route", "outstanding invoices", "--domain", "accounting", "--max-depth", "L1"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "--max-depth does nothing" in bad.stderr
    ok = subprocess.run([sys.executable, "-m", "routing", "route", "how is Marco Diaz doing", "--domain", "football", "--max-depth", "L1"],
                        cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0 and json.loads(ok.stdout)["depth"] == "L1"


def test_dates_batch_answers_every_line_and_exits_2_when_one_was_bad():
    """It stopped at the first bad line and lost the rest (issue 23); now like `batch`, in place."""
    proc = subprocess.run([sys.executable, "-m", "routing", "dates", "--batch"], capture_output=True, cwd=ROOT,
                          input=b"2026-01-22\tlast week\nno tab here\n2026-01-22\tQ1 Fr\xc4\xb1\n\xff\xfe\tx\n2026-01-22\tyesterday\n")
    lines = [json.loads(x) for x in proc.stdout.decode("utf-8").splitlines()]
    assert proc.returncode == 2 and "Traceback" not in proc.stderr.decode()
    assert len(lines) == 5
    assert lines[0][0]["start"] == "2026-01-12" and lines[4][0]["rule"] == "yesterday"
    assert lines[1]["error"]["code"] == "BAD_ARGUMENTS" and lines[1]["line"] == 2
    assert [r["rule"] for r in lines[2]] == ["quarter", "weekday"]  # 'Frı' read as Friday
    assert lines[3]["line"] == 4 and "UTF-8" in lines[3]["error"]["message"]


def test_route_with_a_folded_letter_date_word_answers_in_every_domain():
    for domain in ("accounting", "cfo", "football", "factory", "powers"):
        proc = run("route", "Q1 Frı İnvoices", "--domain", domain, "--today", "2026-01-22")
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, (domain, proc.stderr[-500:])
        assert json.loads(proc.stdout)["status"]
