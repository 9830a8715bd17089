"""The playground in real Chromium: the shared link, typing + Enter, an example click, page switches.

Screenshots (light and dark, laptop sizes) go to test-output/screenshots/ for a person to look at.
"""
from __future__ import annotations

import re

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

from tests.browser.conftest import shot, wait_idle

SHARED = "/?q=outstanding+invoices&domain=accounting&today=2026-01-22"
expect.set_options(timeout=20_000)  # a loaded CI machine needs more than playwright's 5 s default


def cards(page):
    return page.locator('[class*="st-key-card-"]')


def test_shared_link_typing_examples_and_page_switches(page, app_url):
    page.goto(app_url + SHARED)
    wait_idle(page)
    first = cards(page).first
    expect(first).to_contain_text("invoice_list")
    expect(first).to_contain_text("Fast path")
    expect(first).to_contain_text("Activated")
    expect(page.get_by_role("button", name="show me data", exact=True)).to_be_visible()
    shot(page, "playground-shared-link")

    box = page.get_by_test_id("stChatInputTextArea")
    box.fill("piutang belum dibayar")
    box.press("Enter")
    page.wait_for_url(re.compile(r"q=piutang"))
    wait_idle(page)
    expect(cards(page)).to_have_count(2)
    expect(cards(page).first).to_contain_text("piutang belum dibayar")

    page.get_by_role("button", name="show me data", exact=True).click()
    wait_idle(page)
    expect(cards(page)).to_have_count(3)
    expect(cards(page).first).to_contain_text("Needs clarification")
    shot(page, "playground-conversation")

    page.get_by_test_id("stSidebarNav").get_by_text("Dates", exact=True).click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="Dates")).to_be_visible()
    expect(page.get_by_text("Worked examples: calendar versus rolling")).to_be_visible()
    shot(page, "dates")

    page.get_by_test_id("stSidebarNav").get_by_text("Catalog", exact=True).click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="Catalog")).to_be_visible()
    expect(page.get_by_text("invoice_list", exact=False).first).to_be_visible()
    shot(page, "catalog")


def test_dark_theme_on_a_laptop_screen(browser, app_url):
    """The same shared link in the dark theme (the browser asks for it) at 1366x768."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, color_scheme="dark")
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(app_url + "/?q=invoise+bulan+ini&domain=accounting&today=2026-01-22")
        wait_idle(page)
        expect(cards(page).first).to_contain_text("Fast path")
        expect(page.get_by_test_id("stChatInputTextArea")).to_be_visible()
        expect(page.get_by_role("button", name="show me data", exact=True)).to_be_visible()
        background = page.evaluate(
            "() => getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor"
        )
        red, green, blue = (int(x) for x in re.findall(r"\d+", background)[:3])
        assert red + green + blue < 200, f"expected a dark background, got {background}"
        shot(page, "playground-dark-1366x768")
    finally:
        context.close()
