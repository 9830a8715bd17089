"""The football analyst (design intent_tiers) in a real browser at 1366x768: max depth L1 lowers a
Deep question to Surface, strikes out the L2 tools and draws no form chart; at L2 the same question
gets the Deep tier and the Plotly form chart from the replayed fixtures."""
from __future__ import annotations

import pytest

from .conftest import SHOTS, shot, wait_idle

QUERY = "why is Marco Diaz declining"


@pytest.fixture()
def small_page(browser, app_url):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    yield pg
    context.close()


def _open(page, app_url: str) -> None:
    page.goto(f"{app_url}/?domain=football&today=2026-01-22")
    wait_idle(page)


def _ask(page, query: str):
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(query)
    box.press("Enter")
    card = page.locator('[class*="st-key-card-"]').first
    card.get_by_text(query).first.wait_for()
    wait_idle(page)
    return card


def test_max_depth_l1_lowers_deep_to_surface(small_page, app_url):
    page = small_page
    _open(page, app_url)
    page.get_by_test_id("stSidebar").get_by_text("L1", exact=True).click()
    wait_idle(page)
    card = _ask(page, QUERY)
    card.get_by_text("Surface tier", exact=True).wait_for()
    text = card.inner_text()
    assert "lowered from Deep by max depth L1" in text
    struck = [s.inner_text() for s in card.locator("s").all()]
    assert {"get_detailed_stats", "calculate_derived", "show_form_chart"} <= set(struck)
    assert "removed by max depth L1" in text
    assert "Answer from the bundled data" in text and "Marco Diaz · FW, Harbor City · 5 games" in text  # the Surface plan ran on the fixtures
    assert card.locator('[data-testid="stPlotlyChart"]').filter(has=page.locator(".main-svg")).count() <= 1  # the Why chart only
    assert "Form of Marco Diaz" not in text
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "football_l1")
    card.screenshot(path=str(SHOTS / "football_l1_card.png"))


def test_max_depth_l2_deep_with_form_chart_and_pronoun(small_page, app_url):
    page = small_page
    _open(page, app_url)
    _ask(page, "how is Marco Diaz doing")
    card = _ask(page, "why is he declining")
    card.get_by_text("Deep tier", exact=True).wait_for()
    text = card.inner_text()
    assert "Marco Diaz" in text and "pronoun" in text
    page.wait_for_selector("text=Form of Marco Diaz")
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "football_l2")
    card.screenshot(path=str(SHOTS / "football_l2_card.png"))
