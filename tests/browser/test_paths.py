"""The playground's path indicator in a real browser: the fast path for a known question, the LLM
path with its mode, tool count and model for an open one (cfo domain)."""
from __future__ import annotations

from urllib.parse import quote

from .conftest import shot, wait_idle

FAST = "show me the profit and loss statement for this month"
OPEN = "mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao"


def _ask(page, app_url: str, query: str) -> None:
    page.goto(f"{app_url}/?domain=cfo&today=2026-01-22&q={quote(query)}")
    page.get_by_text(query).first.wait_for()
    wait_idle(page)


def test_fast_path_indicator(page, app_url):
    _ask(page, app_url, FAST)
    card = page.locator('[class*="st-key-card-"]').first
    card.get_by_text("Fast path").wait_for()
    text = card.inner_text()
    assert "profit_and_loss" in text and "get_profit_and_loss" in text and "no tools are sent" in text
    assert "LLM path" not in text
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "paths_fast")


def test_llm_path_indicator_shows_mode_tools_and_model(page, app_url):
    _ask(page, app_url, OPEN)
    card = page.locator('[class*="st-key-card-"]').first
    card.get_by_text("LLM path").wait_for()
    text = card.inner_text()
    assert "CFO" in text and "18 tools" in text and "gpt-4o" in text and "capable" in text
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "paths_llm")
