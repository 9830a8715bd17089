"""Property: whatever text arrives, routing answers with a valid result and never raises."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from routing import Router, Status

router = Router.load("accounting")
VALID = {s.value for s in Status}
words = st.sampled_from(["invoice", "faktur", "belum", "dibayar", "minggu", "lalu", "show", "7", "hari", "Q1", "🚀", "ß", "İ", "\u200b", "-", "/", "32", "januari"])


def check(result):
    d = result.to_dict()
    assert d["status"] in VALID
    for m in result.matches:
        assert 0.0 <= m.confidence <= 1.0
        assert sum(m.score_breakdown.values()) == pytest.approx(m.confidence, abs=1e-3)
    if result.error is not None:
        assert result.error.code == "INVALID_QUERY" and result.matches == []
    if result.status is Status.ACTIVATED:
        assert len(result.matches) == 1 and result.path.value == "fast"
    for r in d["dates"]:
        assert r["kind"] in ("calendar", "rolling")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=1200))
def test_arbitrary_text_never_raises(text):
    check(router.route(text, today="2026-01-22"))


@settings(max_examples=300, deadline=None)
@given(st.lists(words, max_size=12).map(" ".join))
def test_domain_word_soup_never_raises(text):
    check(router.route(text, today="2026-01-22"))


@settings(max_examples=100, deadline=None)
@given(st.dates())
def test_any_reference_date(day):
    check(router.route("invoices from the last 3 months and Q1 and bulan lalu", today=day))
