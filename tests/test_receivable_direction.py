"""Who owes whom (issue 22, labelled held-out set 43): a debt "ke" (to) the asker in any first person, formal or
not ("ke kita", "ke gue", "ke kami"), is a receivable; the asker's own debt is a payable, and a debt "ke toko" may
be to any shop (a review: "gue ngutang ke toko Sinar berapa" is the asker's own)."""
from __future__ import annotations

import pytest

from routing import load_router


@pytest.fixture(scope="module")
def accounting():
    return load_router("accounting")


@pytest.mark.parametrize("query, tool", [
    ("siapa aja yang masih ngutang ke gue?", "receivables_aging"),
    ("gue ngutang ke toko Sinar berapa", "payables_aging"),
    ("pelanggan mana yang masih hutang ke kami?", "receivables_aging"),
    ("kita masih utang ke siapa aja?", "payables_aging"),
])
def test_the_direction_of_a_debt(accounting, query, tool):
    d = accounting.route(query, today="2026-01-22").to_dict()
    assert d["matches"][0]["name"] == tool
