"""The power gateway in real Chromium: ask -> candidates -> Activate -> a live child server's tools
listed, the reply as the agent receives it, the token meter; then the Catalog's token table.
Screenshots at 1366x768 go to test-output/screenshots/ for a person to look at."""
from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

from tests.browser.conftest import shot, wait_idle

expect.set_options(timeout=30_000)


def app_children(app_url: str) -> list[int]:
    """Live sqlite child servers started by this app's Streamlit process."""
    port = str(urlparse(app_url).port)
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if b"routing.mcp.children.sqlite_server" not in (entry / "cmdline").read_bytes():
                continue
            stat = (entry / "stat").read_text().split(") ", 1)[1].split()
            parent = Path(f"/proc/{stat[1]}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if stat[0] != "Z" and port.encode() in parent and any(b"streamlit" in p for p in parent):
            out.append(int(entry.name))
    return out


def test_ask_activate_a_live_power_and_see_its_tools(browser, app_url):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        # tables: the SQL databases (mongodb keeps collections), the three shown as equals (004 Medium)
        page.goto(app_url + "/?domain=powers&q=list+the+tables+in+our+databases&today=2026-01-22")
        wait_idle(page)
        card = page.locator('[class*="st-key-card-"]').first
        expect(card).to_contain_text("Multiple matches")
        expect(card).to_contain_text("Token meter")
        expect(card).to_contain_text("into the agent's context")
        expect(card).to_contain_text("Use activate_power(name) to select one.")
        expect(card.get_by_text('"status": "multiple_matches"')).to_be_visible()  # the agent's reply, as JSON
        for name in ("postgres", "mysql", "sqlite"):
            expect(card.get_by_role("button", name=f"Activate {name}")).to_be_visible()
        shot(page, "powers-candidates-1366x768")

        card.get_by_role("button", name="Activate sqlite").click()
        wait_idle(page, timeout_ms=40_000)
        expect(card).to_contain_text("sqlite is active: a live MCP server is running and lists 3 tools")
        for tool in ("sqlite__list_tables", "sqlite__describe_table", "sqlite__query_database"):
            expect(card.get_by_text(tool, exact=True)).to_be_visible()
        assert len(app_children(app_url)) == 1
        shot(page, "powers-activated-1366x768")
        page.mouse.move(800, 500)
        page.mouse.wheel(0, 900)
        page.wait_for_timeout(400)
        shot(page, "powers-card-lower-1366x768")

        card.get_by_role("button", name="Activate mysql").click()  # postgres is a real server now (issue 26)
        wait_idle(page)
        expect(card).to_contain_text("mysql is active, described only")
        expect(card.get_by_text("mysql__mysql_query", exact=True)).to_be_visible()
        expect(card).to_contain_text("the activate_power reply for mysql")  # what the agent receives now

        page.get_by_role("button", name="Stop live servers").click()
        wait_idle(page)
        deadline = time.monotonic() + 20
        while app_children(app_url) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert app_children(app_url) == []
        expect(card).to_contain_text("its live server was stopped")

        page.get_by_test_id("stSidebarNav").get_by_text("Catalog", exact=True).click()
        wait_idle(page)
        page.get_by_role("tab", name="Token cost").click()
        wait_idle(page)
        expect(page.get_by_text("Every tool at start-up")).to_be_visible()
        expect(page.get_by_text("Saved per request")).to_be_visible()
        shot(page, "powers-catalog-cost-1366x768")
    finally:
        context.close()
