"""cfo (issue 22, labelled held-out sets 9-43): the cash flow statement's own sections named together, or money
asked where it came from and where it went, is the statement, not today's cash position; whether a return went
in is its status; a return named by its code is the one filed ("GSTR-1 file karo" filed GSTR-3B, the default)."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query", [
    "pichle quarter mein operations se kitna cash aaya aur investing pe kitna gaya",
    "FY 2024-25 mein operations se kitna cash aaya, aur investing aur financing mein kitna gaya?",
    "last month cash kahan se aaya aur kahan gaya?",
])
def test_the_statements_sections_name_the_statement(cfo, query):
    assert cfo.route(query, today=TODAY).to_dict()["matches"][0]["name"] == "cash_flow_statement"


@pytest.mark.parametrize("query", [
    "has the December GSTR-1 gone in or is it still pending?",
    "status GSTR-1 sama GSTR-3B gimana, ada yang masih pending atau telat gak?",
])
def test_whether_a_return_went_in_is_its_status(cfo, query):
    assert cfo.route(query, today=TODAY).to_dict()["matches"][0]["name"] == "gst_filing_status"


@pytest.mark.parametrize("query, kind", [
    ("GSTR-1 file karo", "GSTR-1"),
    ("file GSTR 1 for December", "GSTR-1"),
    ("file gstr1 now", "GSTR-1"),
    ("GSTR-3B file kar do", "GSTR-3B"),
    ("file the GST return", "GSTR-3B"),   # none named: the default, and the note says so
])
def test_the_return_named_is_the_one_filed(cfo, query, kind):
    d = cfo.route(query, today=TODAY).to_dict()
    m = d["matches"][0]
    assert m["name"] == "file_gst_return" and m["suggested_params"]["return_type"] == kind
    assert all(step["params"]["type"] == kind for step in d["pipeline"])
