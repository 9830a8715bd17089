"""The cfo card in a real browser with replay data: the thinking panel, the trend chart and the alert
banner computed on the recorded responses."""
from __future__ import annotations


from playwright.sync_api import expect

from .conftest import shot, wait_idle


def test_replay_card_shows_thinking_trend_and_alert(page, app_url):
    page.goto(f"{app_url}/?domain=cfo&today=2026-01-22")
    wait_idle(page)
    page.get_by_text("Replay data").first.click()
    wait_idle(page)
    box = page.get_by_placeholder("Ask a question", exact=False)
    box.fill("pichle mahine ka P&L dikhao")
    box.press("Enter")
    card = page.locator('[class*="st-key-card-"]').first
    card.get_by_text("Enrichment results").wait_for()
    # The heading draws first and the results after it: wait for them (a loaded machine read the card
    # between the two), rather than reading the text once.
    for part in ("trend_analysis", "net profit up", "₹"):
        expect(card).to_contain_text(part, timeout=30_000)
    wait_idle(page)
    card.locator(".js-plotly-plot").first.wait_for()
    assert page.get_by_text("Routed in").count() >= 1  # the thinking panel's label
    assert page.locator('[data-testid="stException"]').count() == 0
    card.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    shot(page, "cfo_replay_pnl")
    box.fill("overdue customers")
    box.press("Enter")
    page.get_by_text("ALERT:").first.wait_for()
    wait_idle(page)
    page.get_by_text("ALERT:").first.scroll_into_view_if_needed()
    shot(page, "cfo_replay_alert")
