"""The mirror card (design datasource_mirror, factory) in a real browser: a slang question shows
its canonical form, the L1 funnel row accepted with its distance, and the datasource's tables."""
from __future__ import annotations

from urllib.parse import quote

from .conftest import shot, wait_idle

SLANG = "how many guys are working on the floor"


def test_mirror_card_shows_funnel_and_canonical(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/?domain=factory&today=2026-01-22&q={quote(SLANG)}")
    page.get_by_text(SLANG).first.wait_for()
    wait_idle(page)
    card = page.locator('[class*="st-key-card-"]').first
    card.get_by_text("Read as:").wait_for()  # the canonical form, in a demo's words (issue 24 item 9)
    text = card.inner_text()
    assert "count operators on active shift" in text
    assert "hr" in text and "answered at" in text and "L1" in text
    assert "accepted" in text and "distance" in text
    assert "shift_roster" in text  # the hr datasource's tables
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "factory_mirror_1366")


def test_mirror_card_l2_votes(page, app_url):
    query = "are we hitting target this shift or nah"
    page.goto(f"{app_url}/?domain=factory&today=2026-01-22&q={quote(query)}")
    page.get_by_text(query).first.wait_for()
    wait_idle(page)
    card = page.locator('[class*="st-key-card-"]').first
    card.get_by_text("L2 votes").wait_for()
    text = card.inner_text()
    assert "production" in text and "passed on" in text and "accepted" in text
    assert page.locator('[data-testid="stException"]').count() == 0
