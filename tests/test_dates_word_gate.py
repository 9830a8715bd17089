"""The date finder's word gate (routing.dates.finder.WordGate): on an ASCII text each family of
patterns runs only when the words it needs are there, read once from the text's words. It may only
skip work: every text must give the same dates as the regex gates alone (word_gate=False)."""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
import yaml

from routing.dates import DateSettings, load_date_lexicon

TODAY = date(2026, 1, 22)
GOLDEN = Path(__file__).with_name("dates_golden.yaml")

# Forms where a date word is glued to digits or letters, or a span's words stand apart: where a
# gate read from whole words could wrongly skip a family.
GLUED = [
    "Q3", "q3 2016", "Q 4 of last year", "2019Q1", "2019-Q1", "FY2025", "fy'25 costs", "FY 2025-26",
    "quarterIII", "quarter3 sales", "kuartalke-2", "third quarter of 2016", "Mar5", "mar5th invoices",
    "March5, 2025", "5-March", "5.March", "15.03.2025", "2025/01", "03/2025", "1/3/2025", "2025-01-15",
    "from 3 to 5 March", "3 to 5 March", "1 - 15 jan", "1 ~ 15 jan", "jan - mar", "Jan-Mar 2025",
    "between 1 and 15 January", "1 s/d 5 Maret", "dari 1 Januari sampai 15 Februari", "tgl. 5 Maret",
    "tanggal 15 Maret", "bulan Desember", "in 2025", "during 2017 Q1", "sales for 2024", "mid-January",
    "7 days ago", "last 7 days", "next 3 weeks", "the past 2 months", "on Friday", "next friday",
    "Jum'at lalu", "hari Selasa", "since March", "since 15 March 2025", "first week of January",
    "March last year", "last year Q4", "this may take a while", "last May", "6,107.31 on 5 May",
    "order 66 units to 3 customers", "version 1.2.3", "rows 10-20", "to 2025",
]


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def _texts() -> list[str]:
    base = [t for t in _strings(yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))) if t.strip()] + GLUED
    out = []
    for t in base:
        out += [t, t.upper(), f"Please show the report {t} for the team.",
                re.sub(r"(\w) (\d)", r"\1\2", t), re.sub(r"(\d) (\w)", r"\1\2", t)]
    return out


@pytest.fixture(scope="module")
def lexicon():
    return load_date_lexicon()


def test_same_dates_with_and_without_the_word_gate(lexicon):
    texts = _texts()
    assert len(texts) > 1000
    differ = [t for t in texts
              if repr(lexicon.find(t, TODAY, DateSettings())) != repr(lexicon.find(t, TODAY, DateSettings(), word_gate=False))]
    assert differ == []


@pytest.mark.parametrize("text", GLUED)
def test_glued_forms_found_alike(lexicon, text):
    gated = lexicon.find(text, TODAY, DateSettings())
    assert repr(gated) == repr(lexicon.find(text, TODAY, DateSettings(), word_gate=False))


def test_the_gate_skips_families_a_text_cannot_match(lexicon):
    """A long question with numbers but no date word: most families are not run."""
    gate = lexicon._word_gate
    text = "Create 3 invoices of 250 units each for customer 4411 and email them to accounting."
    present = gate.present(text)
    runs = [f for f in lexicon._families if all(any(k in present for k in keys) for keys in f.needs)]
    assert len(runs) < len(lexicon._families) // 4
    assert lexicon.find(text, TODAY, DateSettings()) == []
    # ...and a span's words switch the span family on.
    assert "span_b" in gate.present("from 3 to 5 March")
    assert "span_b" not in present
