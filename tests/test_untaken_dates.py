"""A date said but not asked is named where the parameters are (QueryAnalysis.untaken): a date of the story
told before the question, a date taken back, a date in words that frame the question. The user sees why
the period asked is not the one said first."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

TODAY = "2026-01-22"
APP = str(Path(__file__).resolve().parent.parent / "app.py")


@pytest.mark.parametrize("query, said, why, period", [
    ("He paid us by transfer in November. Can you show me the payments we received last week?",
     "november", "told before the question", ("2026-01-12", "2026-01-18")),
    ("invoices from October - no, November 2025", "october", "taken back", ("2025-11-01", "2025-11-30")),
    ("not last month - the expenses of this month", "last month", "frames the question", ("2026-01-01", "2026-01-22")),
])
def test_a_date_said_and_set_aside_is_named(shipped, query, said, why, period):
    m = shipped("accounting").route(query, today=TODAY).matches[0]
    assert (m.suggested_params["date_from"], m.suggested_params["date_to"]) == period
    assert any(f'"{said}"' in n and why in n and "set aside" in n for n in m.param_notes), m.param_notes


def test_nothing_set_aside_names_nothing(shipped):
    m = shipped("accounting").route("payments we received last week", today=TODAY).matches[0]
    assert not any("set aside" in n for n in m.param_notes)


def test_the_playground_shows_the_story_date_set_aside():
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in {"q": "He paid us by transfer in November. Can you show me the payments we received last week?",
                 "domain": "accounting", "today": TODAY}.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    assert any('"november" is told before the question' in c for c in captions), captions
    assert any(">date_from=2026-01-12</code>" in m.value for m in at.markdown)


def test_a_range_said_again_in_the_ask_is_not_named_as_set_aside(shipped):
    m = shipped("accounting").route("We closed December late. Can you show me the expenses of December 2025?", today=TODAY).matches[0]
    assert (m.suggested_params["date_from"], m.suggested_params["date_to"]) == ("2025-12-01", "2025-12-31")
    assert not any("set aside" in n for n in m.param_notes), m.param_notes
