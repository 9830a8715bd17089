"""`python -m routing coverage`: a large file routed on a process pool gives the answers routing
one question at a time gives; every input format reads the same; an interrupted job continues."""
from __future__ import annotations

import csv
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import ROOT
from routing.cli.main import main
from routing.quality.coverage_input import Columns
from routing.quality.coverage_run import JobInterrupted, JobSpec, MANIFEST, part_path, run_job
from routing.quality.evaluate import load_golden

TODAY = "2026-01-22"
COMPARED = ("status", "top", "confidence", "top3", "path", "error")


def golden_rows(n: int | None = None) -> list[dict]:
    """Accounting's golden questions (and its negatives), each asked on a day of January."""
    cases = load_golden(ROOT / "lexicons" / "accounting" / "golden.yaml")
    rows = [{"text": c.query, "tool": c.tool or "", "asked": f"2026-01-{1 + i % 20:02d}T09:30:00"} for i, c in enumerate(cases)]
    return rows[:n] if n else rows


def write_csv(path, rows):
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return path


def results(out) -> list[dict]:
    return pq.read_table(out / "results.parquet").to_pylist()


def spec(tmp_path, path, out="out", **kw) -> JobSpec:
    base = dict(input=str(path), domain="accounting", root=str(ROOT / "lexicons"), out=str(tmp_path / out), today=TODAY,
                columns=Columns(text="text", label="tool", time="asked"), workers=1, chunk_rows=16)
    base.update(kw)
    return JobSpec(**base)


def test_pool_of_two_gives_the_answers_of_routing_one_by_one(tmp_path, accounting):
    rows = golden_rows()
    path = write_csv(tmp_path / "log.csv", rows)
    summary = run_job(spec(tmp_path, path, workers=2, chunk_rows=11))
    got = results(tmp_path / "out")
    assert [r["text"] for r in got] == [r["text"] for r in rows] and [r["row"] for r in got] == list(range(len(rows)))
    for row, r in zip(rows, got):
        res = accounting.route(row["text"], today=row["asked"][:10])  # asked on that day, not on --today
        want = {
            "status": res.status.value,
            "top": res.top.name if res.top else None,
            "confidence": round(res.top.confidence if res.top else (res.ranked_candidates[0]["confidence"] if res.ranked_candidates else 0.0), 6),
            "top3": "|".join([c["name"] for c in res.ranked_candidates[:3]] or [m.name for m in res.matches[:3]]),
            "path": res.path.value,
            "error": res.error.code if res.error else None,
        }
        assert {k: r[k] for k in COMPARED} == want, row["text"]
        assert r["correct"] == ((want["top"] == row["tool"]) if row["tool"] else None)
    # The summary counts what the rows say; the CSV holds the same rows.
    assert summary["rows"] == len(rows) and summary["workers"] == 2
    assert summary["tiers"] == {s: sum(r["status"] == s for r in got) for s in summary["tiers"]}
    assert summary["uncovered"] == sum(r["status"] in ("not_found", "weak_matches") for r in got) > 0
    with (tmp_path / "out" / "results.csv").open(encoding="utf-8") as f:
        assert [r["text"] for r in csv.DictReader(f)] == [r["text"] for r in rows]
    days = summary["over_time"]
    assert days["period"] == "day" and days["tiers"][0]["period"] == "2026-01-01"
    assert sum(sum(v for k, v in p.items() if k != "period") for p in days["tiers"]) == len(rows)


def test_every_format_reads_the_same_questions(tmp_path):
    rows = golden_rows(40)
    write_csv(tmp_path / "q.csv", rows)
    with (tmp_path / "q.jsonl").open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "q.parquet")
    (tmp_path / "q.txt").write_text("\n".join(r["text"] for r in rows) + "\n\n", encoding="utf-8")
    seen = {}
    for name in ("q.csv", "q.jsonl", "q.parquet", "q.txt"):
        cols = Columns() if name.endswith(".txt") else Columns(text="text", label="tool")
        run_job(spec(tmp_path, tmp_path / name, out="out-" + name, columns=cols, topics=False))
        seen[name] = [(r["text"], r["status"], r["top"]) for r in results(tmp_path / ("out-" + name))]
    assert seen["q.csv"] == seen["q.jsonl"] == seen["q.parquet"] == seen["q.txt"]
    assert len(seen["q.csv"]) == 40


def test_interrupted_job_keeps_its_chunks_and_a_rerun_continues(tmp_path):
    rows = golden_rows(60)
    path = write_csv(tmp_path / "log.csv", rows)
    calls = []

    def stop_after_two(done, total, elapsed):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(JobInterrupted) as stopped:
        run_job(spec(tmp_path, path, chunk_rows=10, topics=False), progress=stop_after_two)
    assert stopped.value.kept_rows == 20
    manifest = json.loads((tmp_path / "out" / MANIFEST).read_text())
    assert sorted(manifest["parts"]) == ["0", "1"] and not manifest["finished"]
    assert not (tmp_path / "out" / "results.parquet").exists()
    first = part_path(tmp_path / "out", 0).stat().st_mtime_ns
    resumed = []
    summary = run_job(spec(tmp_path, path, chunk_rows=10, topics=False), progress=lambda d, t, e: resumed.append(d))
    assert resumed[0] == 30  # it went on from the third chunk
    assert part_path(tmp_path / "out", 0).stat().st_mtime_ns == first  # chunk 0 was not routed again
    assert [r["text"] for r in results(tmp_path / "out")] == [r["text"] for r in rows]
    assert summary["rows"] == 60
    # A fresh run of the whole file gives the same rows as the interrupted + continued one.
    run_job(spec(tmp_path, path, out="fresh", chunk_rows=10, topics=False))
    strip = lambda rs: [{k: v for k, v in r.items() if k != "ms"} for r in rs]  # noqa: E731
    assert strip(results(tmp_path / "fresh")) == strip(results(tmp_path / "out"))


def test_changed_input_starts_afresh(tmp_path):
    path = write_csv(tmp_path / "log.csv", golden_rows(30))
    run_job(spec(tmp_path, path, topics=False))
    write_csv(path, golden_rows(12))
    summary = run_job(spec(tmp_path, path, topics=False))
    assert summary["rows"] == 12 and len(results(tmp_path / "out")) == 12


def test_cli_runs_and_names_a_missing_column(tmp_path, capsys):
    path = write_csv(tmp_path / "log.csv", golden_rows(25))
    code = main(["coverage", str(path), "--domain", "accounting", "--out", str(tmp_path / "cli"), "--today", TODAY,
                 "--workers", "1", "--label-col", "tool", "--time-col", "asked", "--quiet"])
    assert code == 0
    brief = json.loads(capsys.readouterr().out)
    assert brief["rows"] == 25 and brief["labelled"]["n"] == sum(1 for r in golden_rows(25) if r["tool"])
    assert json.loads((tmp_path / "cli" / "summary.json").read_text())["kind"] == "routing-coverage-summary"
    code = main(["coverage", str(path), "--domain", "accounting", "--out", str(tmp_path / "cli2"), "--text-col", "question", "--quiet"])
    err = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert code == 2 and err["error"]["code"] == "BAD_ARGUMENTS"
    assert "no question column 'question'" in err["error"]["message"] and "text" in err["error"]["message"]
    assert main(["coverage", str(path), "--domain", "nope", "--quiet"]) == 2


def test_route_cache_answers_repeats_across_chunks_as_routing_would(tmp_path):
    """--route-cache: a question asked again on the same day in a later chunk is answered from the
    worker's memory with the same answer; one asked on another day (its dates mean something else)
    is routed again; the summary says how many rows were repeats."""
    base = golden_rows(40)
    again = [dict(r) for r in base]  # the same questions, same days, in later chunks
    other_day = [dict(r, asked="2026-03-05T10:00:00") for r in base]
    rows = base + again + other_day
    path = write_csv(tmp_path / "log.csv", rows)
    plain = run_job(spec(tmp_path, path, out="plain", workers=2, chunk_rows=10))
    cached = run_job(spec(tmp_path, path, out="cached", workers=1, chunk_rows=10, route_cache=True))
    a, b = results(tmp_path / "plain"), results(tmp_path / "cached")
    assert [{k: r[k] for k in COMPARED + ("correct", "unknown_words")} for r in a] == [{k: r[k] for k in COMPARED + ("correct", "unknown_words")} for r in b]
    assert plain["route_cache"] is False and plain["routed_questions"] == len(rows)  # chunks of 10 hold no repeat here
    assert cached["route_cache"] is True
    # One worker: every distinct (question, day) is routed once, whichever chunk it is in.
    assert cached["routed_questions"] == len({(r["text"], r["asked"][:10]) for r in rows}) < len(rows)
    assert cached["repeat_share"] == round(1 - cached["routed_questions"] / len(rows), 4) > 0
