"""A screenshot tour of every page x domain at 1366x768, as a first-time user sees them.

    python scripts/tour.py [--out tour-output] [--url http://127.0.0.1:8501] [--screens 2] [--domains football]

Starts its own Streamlit server on a free port over a scratch copy of lexicons/ (unless --url names
a running one), opens each page by its link (the playground with the domain's first example asked,
Coverage with its golden corpus run), and saves <out>/<page>-<domain>.png (with --screens N, also the next N-1 screens scrolled down:
<page>-<domain>-2.png, ...; Streamlit scrolls inside the page, so a "full page" shot would show one screen). Needs Debian's Chromium
(/usr/bin/chromium, or CHROMIUM_PATH) and the playwright package; nothing is downloaded.
The output folder is not committed (.gitignore).
"""
from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TODAY = "2026-01-22"
PAGES = ("playground", "dates", "catalog", "coverage", "tuner", "editor")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(lexicons: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = dict(os.environ, ROUTING_LEXICONS=str(lexicons), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
         "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise SystemExit("streamlit did not start within 90 s")


def wait_idle(page) -> None:
    page.wait_for_selector('[data-testid="stApp"]', timeout=60_000)
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')
                 || !document.querySelector('[data-testid="stStatusWidget"]').innerText.match(/Running|Connecting/i)""",
        timeout=60_000,
    )
    # The first run after a link draws placeholders (skeletons) before the widgets: wait them out.
    page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=60_000)
    calm = 0
    for _ in range(120):  # settled: no placeholder (skeleton) and nothing running, twice in a row
        busy = page.evaluate("""() => !!document.querySelector('[data-testid="stSkeleton"]')
            || /Running|Connecting/i.test((document.querySelector('[data-testid="stStatusWidget"]') || {}).innerText || '')""")
        calm = 0 if busy else calm + 1
        if calm >= 3:
            break
        page.wait_for_timeout(500)


def link(url: str, page: str, domain: str) -> str:
    from routing import RouterRegistry
    from ui.examples import playground_examples

    params = {"domain": domain, "today": TODAY}
    if page == "playground":
        router = RouterRegistry(os.environ.get("ROUTING_LEXICONS") or ROOT / "lexicons").router(domain)
        examples = playground_examples(router.domain)
        if examples:
            params["q"] = examples[0]
    path = "" if page == "playground" else page
    return f"{url}/{path}?{urllib.parse.urlencode(params)}"


def tour(url: str, out: Path, domains: list[str], *, screens: int = 1) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for domain in domains:
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            page = context.new_page()
            page.set_default_timeout(60_000)
            for name in PAGES:
                page.goto(link(url, name, domain))
                wait_idle(page)
                if name == "coverage":
                    run = page.get_by_role("button", name="Run", exact=True)
                    if run.is_enabled():
                        run.click()
                        wait_idle(page)
                for n in range(1, screens + 1):
                    if n > 1:  # the next screen down, as a person scrolls the main area
                        page.mouse.move(800, 450)
                        page.mouse.wheel(0, 680)
                        page.wait_for_timeout(500)
                    path = out / (f"{name}-{domain}.png" if n == 1 else f"{name}-{domain}-{n}.png")
                    page.screenshot(path=str(path))
                    shots.append(path)
                    print(path, flush=True)
            context.close()
        browser.close()
    return shots


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "tour-output"), help="folder for the screenshots (not committed)")
    ap.add_argument("--url", help="a running app to tour instead of starting one")
    ap.add_argument("--domains", nargs="*", help="domains to tour (default: every domain)")
    ap.add_argument("--screens", type=int, default=1, help="screens per page: the first and N-1 more scrolled down")
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")
    scratch = Path(tempfile.mkdtemp(prefix="tour-")) / "lexicons"
    shutil.copytree(ROOT / "lexicons", scratch, ignore=shutil.ignore_patterns(".history"))
    os.environ["ROUTING_LEXICONS"] = str(scratch)
    from routing import RouterRegistry

    domains = args.domains or RouterRegistry(scratch).domains()
    proc = None
    url = args.url
    try:
        if url is None:
            proc, url = start_server(scratch)
        shots = tour(url.rstrip("/"), Path(args.out), domains, screens=max(1, args.screens))
        print(f"{len(shots)} screenshots in {args.out}")
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(scratch.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
