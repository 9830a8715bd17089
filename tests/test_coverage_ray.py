"""The ray engine (Ray Data map_batches over router actors, on a local Ray) gives the local
engine's answers, question for question. Ray is an optional extra: without it this is skipped."""
from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from conftest import ROOT
from routing.quality.coverage_input import Columns
from routing.quality.coverage_run import JobInterrupted, JobSpec, part_path, run_job
from test_coverage_run import golden_rows, write_csv

pytest.importorskip("ray", reason="ray is an optional extra (pip install -r requirements-extras.txt); .ci/run installs it")


def test_ray_engine_gives_the_local_engines_answers(tmp_path):
    rows = golden_rows()
    path = write_csv(tmp_path / "log.csv", rows)

    def job(engine: str, progress=None) -> dict:
        return run_job(JobSpec(input=str(path), domain="accounting", root=str(ROOT / "lexicons"), out=str(tmp_path / engine), today="2026-01-22",
                               columns=Columns(text="text", label="tool", time="asked"), engine=engine, workers=2, chunk_rows=40, topics=False),
                       progress=progress)

    def stop_after_two(done, total, elapsed):
        if done >= 80:
            raise KeyboardInterrupt

    # Interrupted after two chunks, then run again: the rerun routes only the chunks still missing.
    with pytest.raises(JobInterrupted) as stopped:
        job("ray", progress=stop_after_two)
    assert stopped.value.kept_rows == 80
    first = part_path(tmp_path / "ray", 0).stat().st_mtime_ns
    ray_summary = job("ray")
    assert ray_summary["rows_routed_this_run"] == len(rows) - 80
    assert part_path(tmp_path / "ray", 0).stat().st_mtime_ns == first
    local_summary = job("local")
    got = {e: pq.read_table(tmp_path / e / "results.parquet").to_pylist() for e in ("ray", "local")}
    assert len(got["ray"]) == len(rows)
    for r, l in zip(got["ray"], got["local"]):
        assert {k: v for k, v in r.items() if k != "ms"} == {k: v for k, v in l.items() if k != "ms"}
    assert ray_summary["engine"] == "ray" and ray_summary["tiers"] == local_summary["tiers"]
    assert ray_summary["over_time"] == local_summary["over_time"]
