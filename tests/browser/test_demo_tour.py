"""Issue 24, what a tour of the merged app still found, in real Chromium at 1366x768 (the issue's laptop
screen): the tuner's marker labels are readable, and a first load of any page's address logs no
console error and fetches nothing from outside the machine."""
from __future__ import annotations

import re

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

from tests.browser.conftest import shot, wait_idle, wait_settled

expect.set_options(timeout=30_000)


@pytest.fixture()
def laptop(browser, app_url):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    context.close()


# The marker labels of one sweep chart, the box of its plot area, and the lines drawn in it.
CHART_BOXES = """(el) => {
    const box = (n) => { const r = n.getBoundingClientRect(); return {l: r.left, r: r.right, t: r.top, b: r.bottom}; };
    const svg = el.querySelector('svg.main-svg');
    return {
        title: (el.querySelector('.gtitle') || {}).textContent || '',
        svg: box(svg),
        plot: box(el.querySelector('.draglayer .nsewdrag')),
        labels: [...el.querySelectorAll('g.annotation')].map(a => ({text: a.textContent, ...box(a.querySelector('text'))})),
    };
}"""


def _overlap(a: dict, b: dict) -> bool:
    return a["l"] < b["r"] and b["l"] < a["r"] and a["t"] < b["b"] and b["t"] < a["b"]


@pytest.mark.parametrize("domain", ["accounting", "cfo"])
def test_tuner_marker_labels_are_readable_in_all_four_charts(laptop, app_url, domain):
    """Each of "in file" / "best" / "in file = best" sits above its chart's plot area, where no accuracy
    line (often at 100 %) strikes it through; inside the chart; never on another label."""
    laptop.goto(f"{app_url}/tuner?domain={domain}")
    wait_idle(laptop)
    charts = laptop.locator('[class*="st-key-tuner_chart_"]')
    expect(charts).to_have_count(4)
    for i in range(4):
        chart = charts.nth(i)
        chart.scroll_into_view_if_needed()
        chart.locator("g.annotation").first.wait_for()
        seen = chart.evaluate(CHART_BOXES)
        texts = [lab["text"] for lab in seen["labels"]]
        assert texts and set(texts) <= {"in file", "best", "in file = best", "slider"}, (seen["title"], texts)
        for lab in seen["labels"]:
            assert lab["b"] <= seen["plot"]["t"] + 1, (seen["title"], lab)  # above the plot: no line crosses it
            assert lab["l"] >= seen["svg"]["l"] and lab["r"] <= seen["svg"]["r"], (seen["title"], lab)
        for a in seen["labels"]:
            for b in seen["labels"]:
                assert a is b or not _overlap(a, b), (seen["title"], a, b)
    shot(laptop, f"tuner-labels-{domain}")


# ------------------------------------------------------------------ item 14: first loads, console and network

PAGES = ("/", "/dates", "/catalog", "/coverage", "/tuner", "/editor")
# Streamlit's front end (1.67, index.*.js: PD() lists the address's path, then its parent, as the base to
# probe) asks a sub-page's own path for the server first; the server answers those two with 404 on purpose
# (web/server/starlette/starlette_static_routes.py, _RESERVED_STATIC_PATH_SUFFIXES), then the root answers.
# No server option changes the order (only an embedding host's window.__streamlit.BACKEND_BASE_URL does).
PROBES = ("_stcore/health", "_stcore/host-config")


def test_first_load_of_every_page_address_logs_only_streamlits_sub_path_probes(browser, app_url):
    """A first load (a fresh browser profile) of each page's address: no request leaves 127.0.0.1, the
    playground's root address logs no console error, and a sub-page's only console errors are the two
    404 probes of its own sub-path."""
    for path in PAGES:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        page = context.new_page()
        page.set_default_timeout(30_000)
        errors, outside, failed = [], [], []
        page.on("console", lambda m: errors.append((m.text, (m.location or {}).get("url", ""))) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append((str(e), "pageerror")))
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith((app_url, "ws://127.0.0.1", "data:", "blob:", "about:")) else None)
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        page.goto(f"{app_url}{path}?domain=accounting&today=2026-01-22")
        wait_idle(page)
        expect(page.locator('[data-testid="stMainBlockContainer"] h1').first).to_be_visible()
        page.wait_for_timeout(500)
        context.close()
        assert outside == [], (path, outside)
        expected = set() if path == "/" else {f"{app_url}{path}/{probe}" for probe in PROBES}
        assert set(failed) <= expected, (path, failed)
        for text, url in errors:  # each console error is one of those 404s, nothing else
            assert "404" in text and url in expected, (path, text, url)


# ------------------------------------------------------------------ item 10: Activate greys only its part

# Greyed elements outside the card. An empty slot (st.empty with nothing in it yet) is flagged stale by
# Streamlit's front end during every run, by design (Xf in its bundle): it has nothing to grey.
OUTSIDE_CARD = """(el) => !el.closest('[class*="st-key-card-"]') && !el.querySelector(':scope > [data-testid="stEmpty"]')"""
STALE_OUTSIDE_CARD = f"""() => [...document.querySelectorAll('[data-testid="stElementContainer"][data-stale="true"]')]
    .filter({OUTSIDE_CARD}).length"""
# Every element that turns grey outside the card from now on, however briefly: a MutationObserver sees
# each change of data-stale, where sampling the page every 50 ms can miss a quick full rerun.
WATCH_GREY = f"""() => {{
    window.__greyed = [];
    const outside = {OUTSIDE_CARD};
    new MutationObserver((records) => {{
        for (const r of records) {{
            const el = r.target;
            if (el.getAttribute && el.getAttribute('data-stale') === 'true' && el.matches('[data-testid="stElementContainer"]') && outside(el))
                window.__greyed.push((el.innerText || el.className).slice(0, 80));
        }}
    }}).observe(document.body, {{attributes: true, attributeFilter: ['data-stale'], subtree: true}});
}}"""


def test_activate_greys_only_the_card_and_shows_the_activate_power_reply(laptop, app_url):
    """Activate reruns only the card's fragment; what it changes outside the card (the context panel,
    the address bar) is redrawn from that fragment. It used to be a full rerun after the fragment's
    own, which raced it (Streamlit drops a fragment's queued messages when a full run starts): now
    and then the whole page greyed and redrew before the card showed the activation (ui/redraw.py)."""
    laptop.goto(f"{app_url}/?domain=powers&today=2026-01-22&q=list+the+tables+in+the+sqlite+database")
    wait_idle(laptop)
    card = laptop.locator('[class*="st-key-card-"]').first
    expect(card).to_contain_text("the resolve_intent reply, exactly")
    wait_settled(laptop)  # the page's own runs have finished: what greys after the click is the click's
    button = card.get_by_role("button", name="Activate sqlite")
    button.scroll_into_view_if_needed()
    laptop.evaluate(WATCH_GREY)
    button.click()
    expect(card).to_contain_text("is active:", timeout=20_000)  # a cold server start takes seconds
    laptop.wait_for_timeout(1_500)  # and on after it: no full rerun follows to grey the page
    greyed = laptop.evaluate("() => window.__greyed")
    assert greyed == []  # the question box, the examples, the context panel and the sidebar never grey
    wait_settled(laptop)
    assert laptop.evaluate(STALE_OUTSIDE_CARD) == 0
    expect(laptop.get_by_role("textbox").first).to_be_editable()
    expect(card).to_contain_text("the activate_power reply for sqlite")  # what the agent receives now
    expect(card.get_by_text('"power": "sqlite"')).to_be_visible()
    # What the activation changes outside its part, without a full rerun: the panel, the link, the address.
    expect(laptop.get_by_text("The next question carries:")).to_contain_text("sqlite")
    expect(card.get_by_role("link", name="share link")).to_have_attribute("href", re.compile(r"power=sqlite"))
    laptop.wait_for_function("() => new URLSearchParams(location.search).get('power') === 'sqlite'")
