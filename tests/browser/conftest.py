"""Real-browser fixtures: one Streamlit server per test session, Debian's Chromium via playwright.

The server routes over a scratch copy of lexicons/ (ROUTING_LEXICONS), so tests that save
through the editor never touch the repository's files. Screenshots go to test-output/.
Without Chromium or playwright every browser test is skipped, with the reason.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = ROOT / "test-output" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"Chromium not found at {CHROMIUM} (apt-get install -y chromium chromium-driver)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -r requirements.txt)"
    return None


@pytest.fixture(scope="session")
def lexicon_copy(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("lexicons") / "lexicons"
    shutil.copytree(ROOT / "lexicons", dest, ignore=shutil.ignore_patterns(".history"))
    return dest


@pytest.fixture(scope="session")
def app_url(lexicon_copy) -> str:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    port = _free_port()
    env = dict(os.environ, ROUTING_LEXICONS=str(lexicon_copy), PYTHONUNBUFFERED="1")
    (ROOT / "test-output").mkdir(exist_ok=True)
    log = open(ROOT / "test-output" / "streamlit.log", "w")
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
            "--server.headless", "true", "--server.address", "127.0.0.1", "--server.port", str(port),
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
        ],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"streamlit exited with {proc.returncode}; see test-output/streamlit.log")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        proc.terminate()
        pytest.fail("streamlit did not become healthy within 60 s")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="package")  # playwright's sync API keeps an event loop running until it stops:
def browser():                     # end it with the browser tests, so later asyncio tests (MCP) can run
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    yield pg
    context.close()


def wait_idle(page, timeout_ms: int = 20_000) -> None:
    """Wait until Streamlit has finished the current run (its 'running' indicator is gone)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout_ms)
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')
                 || !document.querySelector('[data-testid="stStatusWidget"]').innerText.match(/Running|Connecting/i)""",
        timeout=timeout_ms,
    )
    page.wait_for_timeout(300)


def wait_settled(page, quiet_ms: int = 1_000, timeout_ms: int = 20_000) -> None:
    """Wait until the page has been idle for `quiet_ms` on end: no run under way and nothing greyed.
    A page's first run can be followed by its own rerun (the address synced) a few hundred ms later;
    a click made in between is counted with that rerun's grey."""
    idle = """() => !(document.querySelector('[data-testid="stStatusWidget"]')?.innerText || '').match(/Running|Connecting/i)
                 && !document.querySelector('[data-testid="stElementContainer"][data-stale="true"]')"""
    waited, quiet = 0, 0
    while quiet < quiet_ms:
        if waited > timeout_ms:
            raise AssertionError(f"the page did not settle for {quiet_ms} ms within {timeout_ms} ms")
        quiet = quiet + 100 if page.evaluate(idle) else 0
        page.wait_for_timeout(100)
        waited += 100


def shot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
