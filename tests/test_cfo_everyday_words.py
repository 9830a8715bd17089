"""cfo reads the everyday words for a trend and a margin (synonyms.yaml): "mahine dar mahine", "GP%"; "month-wise X"
asks for X by month, no trend ("month-wise P&L" is the P&L)."""
from __future__ import annotations

import pytest

from routing import load_router


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query, tool", [
    ("kharche mahine dar mahine kaise badh rahe hain", "expense_trend"),
    ("GP% by product line for this quarter", "gross_margin"),
])
def test_everyday_words_name_the_tool(cfo, query, tool):
    r = cfo.route(query, today="2026-01-22").to_dict()
    assert r["candidates"][0]["name"] == tool


@pytest.mark.parametrize("query, tool", [("month-wise P&L for FY 2025", "profit_and_loss"), ("monthwise GST liability", "gst_summary")])
def test_month_wise_asks_for_its_subject(cfo, query, tool):
    r = cfo.route(query, today="2026-01-22").to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool
