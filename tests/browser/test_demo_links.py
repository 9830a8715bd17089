"""Issue 24 in real Chromium: nothing is fetched from outside the machine, a link opens every page on
its domain, and Back / Forward move through the states the address bar held."""
from __future__ import annotations

import re

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

from tests.browser.conftest import wait_idle

expect.set_options(timeout=20_000)


def test_no_request_leaves_the_machine(page, app_url):
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith((app_url, "data:", "blob:", "about:")) else None)
    for path in ("/?q=outstanding+invoices&domain=accounting&today=2026-01-22", "/dates?domain=cfo", "/catalog?domain=powers"):
        page.goto(app_url + path)
        wait_idle(page)
    assert outside == []


def test_a_link_opens_coverage_on_its_domain(page, app_url):
    page.goto(app_url + "/coverage?domain=cfo")
    wait_idle(page)
    expect(page.get_by_role("combobox", name="Domain")).to_have_value("cfo")
    expect(page).to_have_url(re.compile(r"domain=cfo"))


def test_back_undoes_a_domain_switch(page, app_url):
    page.goto(app_url + "/?q=outstanding+invoices&domain=accounting&today=2026-01-22")
    wait_idle(page)
    page.get_by_role("combobox", name="Domain").click()
    page.get_by_role("option", name="cfo", exact=True).click()
    page.wait_for_url(re.compile(r"domain=cfo"))
    wait_idle(page)
    expect(page.locator('[class*="st-key-card-"]')).to_have_count(0)  # nothing asked in cfo, no card
    page.go_back()
    page.wait_for_url(re.compile(r"domain=accounting"))
    wait_idle(page)
    expect(page.get_by_role("combobox", name="Domain")).to_have_value("accounting")
    expect(page.locator('[class*="st-key-card-"]').first).to_contain_text("invoice_list")


def cards(page):
    return page.locator('[class*="st-key-card-"]')


def test_factory_coverage_runs_its_forty_questions(page, app_url):
    page.goto(app_url + "/coverage?domain=factory")
    wait_idle(page)
    expect(page.get_by_text("40 questions from")).to_be_visible()
    page.get_by_role("button", name="Run", exact=True).click()
    wait_idle(page)
    expect(page.get_by_test_id("stMetric").filter(has_text="Questions")).to_contain_text("40")


def test_two_unknown_players_read_as_a_plain_notice(page, app_url):
    page.goto(app_url + "/?q=compare+Saka+vs+Foden&domain=football&today=2026-01-22")
    wait_idle(page)
    card = cards(page).first
    expect(card).to_contain_text("No player called 'saka' or 'foden'")
    expect(card).to_contain_text("Code PLAYER_NOT_FOUND")
    expect(card.get_by_test_id("stAlertContentError")).to_have_count(0)  # not a red failure box
    expect(card).to_contain_text("players on record")


def test_moving_a_threshold_slider_adds_one_reask_card_not_copies(page, app_url):
    page.goto(app_url + "/?q=show+invoices&domain=accounting&today=2026-01-22")
    wait_idle(page)
    expect(cards(page)).to_have_count(1)
    page.get_by_text("Thresholds (this session only)").click()
    handle = page.get_by_role("slider").nth(1)  # medium
    handle.focus()
    for _ in range(4):  # four steps, four reruns
        handle.press("ArrowRight")
        page.wait_for_timeout(400)
    wait_idle(page)
    expect(cards(page)).to_have_count(2)  # the original and one re-ask, never a copy per step
    expect(cards(page).first).to_contain_text("asked again after a sidebar change")
