"""Topics of what is not covered: questions of one theme share a topic, themes do not mix, a topic
is named by its distinctive words (never a stop word of lexicons/_shared/words.yaml), and its fix is
the tool it is near or a new tool."""
from __future__ import annotations

import csv

import pyarrow.parquet as pq

from conftest import ROOT
from routing.quality.coverage_input import Columns
from routing.quality.coverage_run import JobSpec, run_job
from routing.quality.topics import build_topics, shared_stopwords

INVOICES = ["list all the invoices please", "show every invoice we have", "all invoices list", "list of all invoices from customers", "every invoice listed"]
WEATHER = ["weather tomorrow in jakarta", "will it rain tomorrow", "what's the weather forecast tomorrow", "weather for tomorrow morning", "is tomorrow going to be sunny"]
JOKES = ["tell me a joke", "tell me a funny joke", "know any good jokes", "a joke please", "say a joke"]


def rows_of(themes: dict[str, list[str]], repeat: int = 1) -> dict[str, list]:
    texts, labels = [], []
    for label, qs in themes.items():
        texts += qs * repeat
        labels += [label] * len(qs) * repeat
    n = len(texts)
    return {"text": texts, "label": labels, "status": ["not_found"] * n, "day": [f"2026-01-0{1 + i % 3}" for i in range(n)],
            "unknown_words": [""] * n, "top": [None] * n}


def test_themes_become_topics_named_by_their_words_with_a_fix(accounting):
    rows = rows_of({"invoices": INVOICES, "weather": WEATHER, "jokes": JOKES}, repeat=2)
    topics, row_topic = build_topics(accounting, rows, total_rows=200)
    assert len(topics) == 3
    for t in topics:  # each topic holds one theme, all of it
        assert list(t["labels"].values()) == [t["size"]] == [10]
        assert sum(p["n"] for p in t["trend"]) == t["size"]
        assert len(t["examples"]) == 5 and t["share"] == round(10 / 30, 4) and t["share_all"] == 0.05
    by_theme = {next(iter(t["labels"])): t for t in topics}
    assert "weather" in by_theme["weather"]["words"][:2] and "joke" in by_theme["jokes"]["words"][:2]
    stop = set(shared_stopwords(ROOT / "lexicons"))
    assert {"me", "a", "the", "is"} <= stop
    assert not stop & {w for t in topics for w in t["words"]}
    # Near a tool: add to it; far from every tool: a new tool.
    assert by_theme["invoices"]["fix"]["kind"] == "tool" and by_theme["invoices"]["fix"]["tool"] == "invoice_list"
    assert by_theme["weather"]["fix"]["kind"] == by_theme["jokes"]["fix"]["kind"] == "new_tool"
    assert by_theme["invoices"]["fix"]["prefill"]["canonical"] == "invoice"  # a term invoice_list is about
    prefill = by_theme["weather"]["fix"]["prefill"]
    assert prefill["domain"] == "accounting" and prefill["query"] in WEATHER
    assert [int(x) for x in row_topic[:10]] == [by_theme["invoices"]["id"]] * 10


def test_a_run_groups_its_uncovered_questions(tmp_path):
    path = tmp_path / "log.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["text", "asked"])
        for i, q in enumerate((WEATHER + JOKES) * 3 + ["outstanding invoices", "unpaid invoices this month"] * 10):
            w.writerow([q, f"2026-01-{1 + i % 9:02d}"])
    summary = run_job(JobSpec(input=str(path), domain="accounting", root=str(ROOT / "lexicons"), out=str(tmp_path / "out"),
                              today="2026-01-22", columns=Columns(time="asked"), workers=1))
    result = pq.read_table(tmp_path / "out" / "results.parquet").to_pylist()
    uncovered = [r for r in result if r["status"] in ("not_found", "weak_matches")]
    assert summary["uncovered"] == len(uncovered) >= 25
    names = [t["name"] for t in summary["topics"]]
    assert any("weather" in n for n in names) and any("joke" in n for n in names)
    assert sum(t["size"] for t in summary["topics"]) + summary["topics_other"] == len(uncovered)
    assignment = pq.read_table(tmp_path / "out" / "topics.parquet").to_pylist()
    assert {a["row"] for a in assignment} == {r["row"] for r in uncovered}
    weather = next(t for t in summary["topics"] if "weather" in t["name"])
    rows_in = {a["row"] for a in assignment if a["topic"] == weather["id"]}
    assert {result[i]["text"] for i in rows_in} == set(WEATHER)


def test_fixing_a_topic_and_running_again_shrinks_it(tmp_path):
    """The loop the page offers: a topic's word added as a synonym, the same command run again
    (the lexicon changed, so the run starts afresh) and the topic is gone."""
    import shutil

    from routing.cli.main import main

    root = tmp_path / "lexicons"
    for name in ("_shared", "accounting"):
        shutil.copytree(ROOT / "lexicons" / name, root / name)
    path = tmp_path / "log.csv"
    asked = ["kwitansi bulan ini", "kwitansi bulan lalu", "semua kwitansi", "daftar kwitansi minggu ini"] * 3 + WEATHER * 2 + ["outstanding invoices"] * 5
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["text"])
        w.writerows([q] for q in asked)

    def run() -> dict:
        return run_job(JobSpec(input=str(path), domain="accounting", root=str(root), out=str(tmp_path / "out"), today="2026-01-22", workers=1))

    before = run()
    topic = next(t for t in before["topics"] if "kwitansi" in t["words"])
    assert topic["size"] == 12 and topic["fix"]["prefill"]["variant"] == "kwitansi"
    assert main(["--lexicons", str(root), "lexicon", "add-synonym", "accounting", "invoice", "kwitansi"]) == 0
    after = run()
    assert after["fingerprint"] != before["fingerprint"] and after["rows"] == before["rows"]
    assert after["uncovered"] <= before["uncovered"] - 12
    assert not [t for t in after["topics"] if "kwitansi" in t["words"]]
