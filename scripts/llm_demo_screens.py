"""One playground session per design against the local stand-in model, as screenshots (a demo, not a test).

    python -m routing fake-llm --port 8651 &
    python tests/fake_football_source.py --port 8652 &
    OPENAI_BASE_URL=http://127.0.0.1:8651/v1 ROUTING_LIVE_DATA_URL=http://127.0.0.1:8652 \
        python -m streamlit run app.py --server.headless true --server.port 8653 &
    python scripts/llm_demo_screens.py [cfo accounting factory football powers]   # -> /tmp/llm_demo_shots/*.png
"""
import os
import sys
from urllib.parse import quote
from playwright.sync_api import sync_playwright

APP = os.environ.get("DEMO_APP", "http://127.0.0.1:8653")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUT = os.environ.get("DEMO_SHOTS", "/tmp/llm_demo_shots")

def idle(page):
    page.wait_for_selector('[data-testid="stApp"]', timeout=30000)
    page.wait_for_function("""() => !document.querySelector('[data-testid="stStatusWidget"]') || !document.querySelector('[data-testid="stStatusWidget"]').innerText.match(/Running|Connecting/i)""", timeout=30000)
    page.wait_for_timeout(600)

def ask(page, q):
    box = page.get_by_placeholder("Ask a question", exact=False)
    box.fill(q); box.press("Enter"); idle(page)

def run_llm(page, text):
    card = page.locator('[class*="st-key-card-"]').first
    btn = card.get_by_role("button", name=text).first
    btn.scroll_into_view_if_needed(); btn.click(); idle(page)
    return card

def shot(page, card, name):
    card.scroll_into_view_if_needed()
    card.screenshot(path=f"{OUT}/{name}.png")
    print(name, "exceptions:", page.locator('[data-testid="stException"]').count())

os.makedirs(OUT, exist_ok=True)
which = sys.argv[1:] or ["cfo", "accounting", "factory", "football", "powers"]
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
    ctx = b.new_context(viewport={"width": 1400, "height": 1100})
    page = ctx.new_page(); page.set_default_timeout(30000)
    if "cfo" in which:
        page.goto(f"{APP}/?domain=cfo&today=2026-01-22"); idle(page)
        page.get_by_text("Replay data").first.click(); idle(page)
        ask(page, "which customers owe us the most money")
        card = run_llm(page, "Run on the LLM")
        page.get_by_text("local stand-in").first.wait_for()
        shot(page, card, "cfo_llm_first")
        ask(page, "which suppliers do we owe the most")
        card = run_llm(page, "Run on the LLM")
        shot(page, card, "cfo_llm_cached")
    if "accounting" in which:
        page.goto(f"{APP}/?domain=accounting&today=2026-01-22"); idle(page)
        ask(page, "unpaid invoices this month")
        card = run_llm(page, "Format with the LLM")
        shot(page, card, "accounting_format")
    if "factory" in which:
        page.goto(f"{APP}/?domain=factory&today=2026-01-22"); idle(page)
        ask(page, "when does the next steel delivery land")
        card = page.locator('[class*="st-key-card-"]').first
        shot(page, card, "factory_plain")
        card = run_llm(page, "Run on the LLM (model canonical form")
        page.get_by_text("With the LLM").first.wait_for()
        shot(page, card, "factory_llm")
        page.get_by_role("button", name="Clear").first.click(); idle(page)
        ask(page, "what is the capital of peru")
        page.wait_for_timeout(1500); idle(page)
        card = page.locator('[class*="st-key-card-"]').first
        shot(page, card, "factory_l3_not_asked")
    if "football" in which:
        page.goto(f"{APP}/?domain=football&today=2026-01-22"); idle(page)
        page.get_by_text("live", exact=True).first.click(); idle(page)
        ask(page, "how is Okafor doing in his recent games")
        card = page.locator('[class*="st-key-card-"]').first
        card.get_by_text("Answer from the live source").first.wait_for()
        card = run_llm(page, "Run on the LLM (the tier")
        shot(page, card, "football_live_llm")
    if "powers" in which:
        page.goto(f"{APP}/?domain=powers&today=2026-01-22"); idle(page)
        ask(page, "deploy my app to the cloud")
        card = page.locator('[class*="st-key-card-"]').first
        shot(page, card, "powers_plain")
    b.close()
