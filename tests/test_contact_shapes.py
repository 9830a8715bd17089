"""A phone number or an e-mail address written out is a contact's (issue 22, development set 102: "ada nomor
0813-2222-9090 nelpon terus ngaku pelanggan kita, cek dia siapa" searched invoices, because "nomor" names a record's
number). The shapes live in lexicons/accounting/patterns.yaml; a record's own number stays the record's."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def accounting():
    return load_router("accounting")


@pytest.mark.parametrize("query, value", [
    ("ada nomor 0813-2222-9090 nelpon terus ngaku pelanggan kita, cek dia siapa", "0813-2222-9090"),
    ("someone from 0812-3344-5566 keeps calling about an order - who is that in our contacts?", "0812-3344-5566"),
    ("contact budi.santoso@gmail.com", "budi.santoso@gmail.com"),
])
def test_a_phone_number_or_email_written_out_asks_for_the_contact(accounting, query, value):
    d = accounting.route(query, today=TODAY).to_dict()
    top = d["matches"][0]
    assert top["name"] == "contact_search"
    assert value in top["suggested_params"]["query"]


@pytest.mark.parametrize("query, tool", [
    ("invoice 0812345", "invoice_detail"),          # seven digits: a record's number, no phone
    ("detail faktur INV-0788 lengkap", "invoice_detail"),
])
def test_a_records_number_stays_the_records(accounting, query, tool):
    assert accounting.route(query, today=TODAY).to_dict()["matches"][0]["name"] == tool
