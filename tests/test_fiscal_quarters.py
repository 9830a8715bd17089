"""A quarter said alone in a domain whose quarters are its financial year's (cfo: `dates.quarters:
fiscal`, an April year): "Q3" on 22 January 2026 is October-December 2025, not a calendar quarter still
ahead. What a user sees: the route's date range, the `dates` command's, and a bad value refused with
file and line. A domain without the setting (accounting) keeps calendar quarters (CONTRACT)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from routing import load_router
from routing.core.errors import LexiconError
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, load_domain

TODAY = "2026-01-22"


def ranges(domain: str, query: str) -> list[tuple[str, str]]:
    return [(d["start"], d["end"]) for d in load_router(domain).route(query, today=TODAY).dates]


@pytest.mark.parametrize("query,expected", [
    ("GST summary for Q3", ("2025-10-01", "2025-12-31")),
    ("Q1 ka profit and loss dikhao", ("2025-04-01", "2025-06-30")),
    ("TDS deducted in Q4", ("2026-01-01", "2026-03-31")),      # the current quarter, whole
    ("sales summary for Q3 2025", ("2025-07-01", "2025-09-30")),  # its own year: the calendar's
    ("GST for Q3 last year", ("2024-10-01", "2024-12-31")),        # review: was the calendar's, beside a fiscal Q3
])
def test_cfo_reads_a_quarter_said_alone_in_its_financial_year(query, expected):
    assert ranges("cfo", query) == [expected]


def test_after_the_year_turns_q4_is_the_quarter_just_ended():
    # review: on 2026-05-10 "Q4 ka GST" was 2027-01-01..2027-03-31, a year ahead
    r = load_router("cfo").route("Q4 ka GST working", today="2026-05-10")
    assert [(d["start"], d["end"]) for d in r.dates] == [("2026-01-01", "2026-03-31")]


def test_accounting_keeps_calendar_quarters():
    assert ranges("accounting", "profit and loss for Q3") == [("2026-07-01", "2026-09-30")]


def test_the_dates_command_reads_the_domain_setting():
    out = subprocess.run([sys.executable, "-m", "routing", "dates", "Q3", "--domain", "cfo", "--today", TODAY],
                         capture_output=True, text=True, check=True).stdout
    assert [(d["start"], d["end"]) for d in json.loads(out)] == [("2025-10-01", "2025-12-31")]


@pytest.mark.parametrize("value", ["financial", "1", "true"])
def test_a_bad_quarters_value_names_the_file_and_line(tmp_path, value):
    shutil.copytree(DEFAULT_LEXICON_ROOT / "cfo", tmp_path / "cfo")
    shutil.copytree(DEFAULT_LEXICON_ROOT / "_shared", tmp_path / "_shared")
    settings = tmp_path / "cfo" / "settings.yaml"
    text = settings.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.strip().startswith("quarters:"))
    new = f"  quarters: {value}"
    settings.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(LexiconError) as err:
        load_domain("cfo", tmp_path)
    problem = next(p for p in err.value.problems if "dates.quarters" in p.message)
    assert problem.line == text.replace(old, new).splitlines().index(new) + 1
