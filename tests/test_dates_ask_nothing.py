"""A date's words ask nothing (issue 22, labelled held-out sets 34-48): Indonesian "lalu" is both "then" (a
multi-step marker in paths.yaml) and the "last" of "bulan lalu". Inside a date it made a plain question "ask
several things": accounting's clear lead never lifted "Mohon rincian beban operasional per kategori untuk
bulan lalu." (expense_list 0.84 against 0.28) and the LLM path chose the capable model for "multi-step (lalu)".
"lalu" outside a date still asks for a second step."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def accounting():
    return load_router("accounting")


@pytest.mark.parametrize("query, tool", [
    ("Mohon rincian beban operasional per kategori untuk bulan lalu.", "expense_list"),
    ("arus kas bulan lalu, masuk keluar brp", "financial_cash_flow"),
    ("pembayaran apa saja yang sudah kita transfer ke supplier minggu lalu?", "payment_list"),
])
def test_a_date_with_lalu_leaves_a_clear_lead_activated(accounting, query, tool):
    d = accounting.route(query, today=TODAY).to_dict()
    assert (d["status"], d["matches"][0]["name"]) == ("activated", tool)
    assert d["dates"], "the date is still read"


def test_the_llm_path_model_reads_no_step_in_a_date(accounting):
    d = accounting.route("apa yang terjadi dengan bisnis kita bulan lalu?", today=TODAY).to_dict()
    assert d["path"] == "llm"
    assert "multi-step" not in d["model_reason"]
    assert d["model_tier"] == "cheap"


def test_lalu_outside_a_date_is_still_a_second_step(accounting):
    d = accounting.route("cek bisnis kita lalu jelaskan apa yang terjadi bulan lalu", today=TODAY).to_dict()
    assert d["path"] == "llm"
    assert "multi-step (lalu)" in d["model_reason"]
    assert d["model_tier"] == "capable"
