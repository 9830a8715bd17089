"""The golden date corpus (tests/dates_golden.yaml), Duckling style: one expected range, many phrasings.

Failures say which of three things went wrong: no date found (empty), a different range (wrong),
or more than one date found (ambiguous).
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

import pytest
import yaml

from routing.dates import DateSettings, find_dates, load_date_lexicon

CORPUS_PATH = Path(__file__).with_name("dates_golden.yaml")
CORPUS = yaml.safe_load(CORPUS_PATH.read_text(encoding="utf-8"))
LANGUAGES = ("en", "id", "hi")


@pytest.fixture(scope="module")
def lexicon():
    return load_date_lexicon()


def _as_date(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def _examples():
    for group in CORPUS["groups"]:
        today = _as_date(group["today"])
        settings = DateSettings(**(group.get("settings") or {}))
        for example in group["examples"]:
            dates, kind, rule = example["expect"].split()
            start, end = (date.fromisoformat(part) for part in dates.split(".."))
            for language in LANGUAGES:
                for text in example.get(language, []):
                    yield pytest.param(
                        str(text), today, settings, (start, end, kind, rule),
                        id=f"{today}-{language}-{text}")


def test_corpus_size_and_balance():
    counts = Counter()
    for group in CORPUS["groups"]:
        for example in group["examples"]:
            for language in LANGUAGES:
                counts[language] += len(example.get(language, []))
    total = sum(counts.values())
    print(f"\ngolden date corpus: {total} phrasings "
          f"(en {counts['en']}, id {counts['id']}, hi {counts['hi']}), "
          f"{len(CORPUS['negative'])} negative, {len(CORPUS['unresolved'])} unresolved")
    assert total >= 200
    assert abs(counts["en"] - counts["id"]) <= 0.1 * max(counts["en"], counts["id"])
    assert counts["hi"] >= 10
    references = {_as_date(g["today"]) for g in CORPUS["groups"]}
    assert any(d.weekday() == 6 for d in references)                  # a Sunday
    assert any((d.month, d.day) == (12, 31) for d in references)
    assert date(2028, 2, 29) in references
    assert any(d.month == 1 and d.day <= 3 and d.isocalendar()[0] != d.year for d in references)


@pytest.mark.parametrize("text,today,settings,expected", list(_examples()))
def test_golden(lexicon, text, today, settings, expected):
    found = [r for r in find_dates(text, today=today, settings=settings, lexicon=lexicon) if r.resolved]
    if not found:
        pytest.fail(f"empty: no date found in {text!r} (today {today})")
    if len(found) > 1:
        pytest.fail(f"ambiguous: {len(found)} dates in {text!r}: {[r.to_dict() for r in found]}")
    got = found[0]
    assert (got.start, got.end, got.kind, got.rule) == expected, (
        f"wrong: {text!r} (today {today}) gave {got.to_dict()}, expected {expected}")


@pytest.mark.parametrize("text", [str(t) for t in CORPUS["negative"]])
def test_negative(lexicon, text):
    found = [r.to_dict() for r in find_dates(text, today=date(2026, 1, 22), lexicon=lexicon) if r.resolved]
    assert found == [], f"false positive in {text!r}: {found}"


@pytest.mark.parametrize("case", CORPUS["unresolved"], ids=lambda c: str(c["text"]))
def test_unresolved(lexicon, case):
    found = find_dates(str(case["text"]), today=_as_date(case["today"]), lexicon=lexicon)
    assert len(found) == 1, [r.to_dict() for r in found]
    got = found[0]
    assert not got.resolved and got.start is None and got.end is None
    assert case["reason"] in (got.reason or ""), got.to_dict()
    assert "reason" in got.to_dict()


