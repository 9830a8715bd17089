"""The formal register (words.yaml): thanks in advance ("I would be most grateful if you could ...", "It would be
appreciated if ...", "Sadar nivedan hai ki ...") is framing, no ask ("most" there is no superlative of the domain),
and formal Hindi's own words ask as the everyday ones do ("saaransh" a summary, "vivaran" the details, "pradaan
karein" provide). Phrasings written before the change, none from a labelled set."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query, tool, params", [
    ("I would be most grateful if you could show the GST payable for November 2025.", "gst_summary",
     {"date_from": "2025-11-01", "date_to": "2025-11-30"}),
    ("It would be appreciated if you could show the sales for last month.", "sales_summary",
     {"date_from": "2025-12-01", "date_to": "2025-12-31"}),
    ("Saadar anurodh hai ki Sharma Traders ka ledger vivaran pradaan karein.", "customer_ledger", {"customer": "Sharma Traders"}),
])
def test_formal_thanks_in_advance_is_no_part_of_the_ask(cfo, query, tool, params):
    out = cfo.route(query, today=TODAY).to_dict()
    assert out["status"] == "activated"
    top = out["matches"][0]
    assert top["name"] == tool
    assert {k: top["suggested_params"].get(k) for k in params} == params


def test_most_still_ranks_where_it_asks_for_the_largest(cfo):
    out = cfo.route("which expense heads took the most money last month?", today=TODAY).to_dict()
    assert out["matches"][0]["name"] == "top_expenses"
