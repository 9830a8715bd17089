"""Issue 14 in Chromium: the tuner page draws the reliability diagram with its ECE."""
from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

from .conftest import shot, wait_idle  # noqa: E402


def test_tuner_shows_the_reliability_diagram(page, app_url):
    page.goto(f"{app_url}/tuner")
    wait_idle(page, 60_000)
    heading = page.get_by_text("Does the confidence mean what it says?")
    heading.wait_for(timeout=60_000)
    heading.scroll_into_view_if_needed()
    title = page.locator("text=/Reliability · expected calibration error 0\\.\\d{3}/")
    title.first.wait_for(timeout=30_000)
    # The bars are drawn (plotly renders one path per bar) and the explanation is in plain words.
    assert page.locator(".js-plotly-plot .barlayer .point").count() >= 3
    assert page.get_by_text("not calibrated", exact=False).count() >= 1
    shot(page, "tuner_reliability")
