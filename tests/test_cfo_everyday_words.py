"""cfo reads the everyday words for a trend and a margin (synonyms.yaml): "mahine dar mahine", "month-wise",
"after direct costs", "GP%"."""
from __future__ import annotations

import pytest

from routing import load_router


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query, tool", [
    ("kharche mahine dar mahine kaise badh rahe hain", "expense_trend"),
    ("pichhle chhe mahino ka kharcha month-wise dikhao", "expense_trend"),
    ("after direct costs, how much do we keep on each product line this quarter?", "gross_margin"),
    ("GP% by product line for this quarter", "gross_margin"),
])
def test_everyday_words_name_the_tool(cfo, query, tool):
    r = cfo.route(query, today="2026-01-22").to_dict()
    assert r["candidates"][0]["name"] == tool
