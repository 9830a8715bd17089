"""A message pasted from email or chat (words.yaml courtesy and preface; routing.core.framing.signed): a last clause
of one to three capitalised words after a sign-off ("Thanks, Budi", "Salam, Rina") is who wrote, no name asked
about; "FW:" / "RE:" alone before the message is where it comes from. A name after a comma that is no sign-off
("invoices for Uber, Good Day") is still the search. Phrasings written before the mechanism, none from a set."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def accounting():
    return load_router("accounting")


@pytest.mark.parametrize("query, tool", [
    ("FW: overdue stuff - Hi team, can you pull the list of unpaid invoices for November?? Thanks, Wulan", "invoice_list"),
    ("RE: hi all, expenses by category for Q3 2025 pls. Cheers, Tono", "expense_list"),
    ("tolong tampilkan pembayaran yang masuk minggu ini ya. Salam, Dewi Lestari", "payment_list"),
    ("Please list all supplier bills from last month. Kind regards, Ana", "bill_list"),
])
def test_the_signature_is_no_name(accounting, query, tool):
    m = accounting.route(query, today=TODAY).to_dict()["matches"][0]
    assert m["name"] == tool
    assert not any(v in str(m["suggested_params"]) for v in ("Wulan", "Tono", "Dewi", "Ana", "FW", "RE"))


def test_a_name_after_a_comma_is_still_searched(accounting):
    m = accounting.route("invoices for Uber, Good Day", today=TODAY).to_dict()["matches"][0]
    assert "Good Day" in m["suggested_params"].get("query", "")
