"""A question whether a thing was done asks no write (words.yaml `done`, issue 22, labelled held-out sets 21 and
30): "so did we uh file the GSTR three B for December or is it still pending" activated file_gst_return on the
fast path, a filing nobody asked for; "how many invoices did we raise?" read "raise" as a request for a new
invoice. The write verb after "did we" keeps no kind of its own; a plain request to write is unchanged."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query, tool", [
    ("so did we uh file the GSTR three B for December or is it still pending", "gst_filing_status"),
    ("what were our total sales last month and how many invoices did we raise? my co-founder keeps asking lol",
     "sales_summary"),
    ("did we already file the GSTR-1 for November?", "gst_filing_status"),        # an adverb between (development set 107)
    ("did we actually raise an invoice for Mehta Steel last week?", "invoice_lookup"),
])
def test_did_we_asks_about_it(cfo, query, tool):
    d = cfo.route(query, today=TODAY).to_dict()
    assert d["matches"][0]["name"] == tool
    assert not any(step["tool"] in ("file_gst_return", "create_invoice") for step in d["pipeline"] or [])


@pytest.mark.parametrize("query, tool", [("file GSTR-3B for December", "file_gst_return"),
                                         ("raise an invoice for Sharma Traders, 50,000", "create_invoice")])
def test_a_request_to_write_is_unchanged(cfo, query, tool):
    d = cfo.route(query, today=TODAY).to_dict()
    assert (d["status"], d["matches"][0]["name"]) == ("activated", tool)


@pytest.mark.parametrize("query, tool", [
    ("faktur yang kita terbitkan minggu lalu apa saja?", "invoice_list"),
    ("Tolong tampilkan semua invoice yang diterbitkan pada bulan November 2025.", "invoice_list"),
    ("terbitkan faktur untuk PT Maju 5 juta", "invoice_create"),          # no relative clause: a write
    ("buatkan invoice yang baru untuk CV Berkah 2 juta", "invoice_create"),  # "yang baru" after the verb: still one
])
def test_a_relative_clause_says_what_was_done(query, tool):
    # Indonesian "yang (kita) terbitkan": the invoices we issued, no request to issue one (words.yaml `done`)
    d = load_router("accounting").route(query, today=TODAY).to_dict()
    assert (d["status"], d["matches"][0]["name"]) == ("activated", tool)


@pytest.mark.parametrize("query", ["invoice yang mau saya buat untuk PT Maju 5 juta", "faktur yang akan kita terbitkan untuk PT Maju 3 juta",
                                   "siapa yang bisa buatkan invoice untuk PT Maju 5 juta?"])
def test_a_wanted_or_future_write_is_still_asked(query):
    # "yang" alone governs only the word right after it: a modal between ("mau", "akan", "bisa") leaves the write asked
    d = load_router("accounting").route(query, today=TODAY).to_dict()
    assert d["matches"][0]["name"] == "invoice_create"


@pytest.mark.parametrize("query", ["faktur terbaru", "invoice terbaru", "invoice yg diterbitkan bulan desember"])
def test_the_latest_is_no_new_one(query):
    # "terbaru" (the latest) reads as a listing, not as "baru" (new) under a stemmer: no invoice is created
    d = load_router("accounting").route(query, today=TODAY).to_dict()
    assert d["matches"][0]["name"] == "invoice_list"


@pytest.mark.parametrize("query, write", [("pichli baar GST kab file kiya?", "file_gst_return"),
                                          ("invoice bana diya kya Sharma ke liye?", "create_invoice")])
def test_a_hindi_perfective_asks_no_write(cfo, query, write):
    # words.yaml `done_after`: "file kiya", "bana diya" say it was done; the imperative ("file karo") asks it
    d = cfo.route(query, today=TODAY).to_dict()
    assert d["matches"][0]["name"] != write
    assert not any(step["tool"] == write for step in d["pipeline"] or [])


@pytest.mark.parametrize("query, tool", [("GST file karo", "file_gst_return"), ("Sharma ke liye invoice bana do 5000", "create_invoice")])
def test_a_hindi_imperative_still_asks_it(cfo, query, tool):
    d = cfo.route(query, today=TODAY).to_dict()
    assert (d["status"], d["matches"][0]["name"]) == ("activated", tool)
