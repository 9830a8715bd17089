"""Every page with the powers domain under Streamlit's AppTest: nothing breaks, the playground card
shows the agent's reply and the Activate buttons, the catalog shows the gateway's token table."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGES = ("playground", "dates", "catalog", "coverage", "tuner", "editor")


def run(query_params: dict, page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    for k, v in query_params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, at.exception
    if page:
        at.switch_page(f"app_pages/{page}.py")
        at.run()
        assert not at.exception, (page, at.exception)
    return at


def test_playground_card_for_a_power_query():
    at = run({"domain": "powers", "q": "query the database", "today": "2026-01-22"})
    result = at.session_state["conversation"][0]["result"]
    assert result["design"] == "power_gateway" and result["status"] == "multiple_matches"
    labels = [b.label for b in at.button]
    assert "Activate postgres" in labels and "Activate mysql" in labels
    assert any('"status": "multiple_matches"' in c.value for c in at.code)
    assert any("Token meter" in m.value for m in at.markdown)


def test_not_found_offers_every_power():
    at = run({"domain": "powers", "q": "tell me a joke", "today": "2026-01-22"})
    assert at.session_state["conversation"][0]["result"]["status"] == "not_found"
    entry = at.session_state["conversation"][0]
    assert len(at.selectbox(key=f"pick-{entry['id']}").options) == 17


@pytest.mark.parametrize("page", [p for p in PAGES if p != "playground"])
def test_every_page_works_with_the_powers_domain(page):
    at = run({"domain": "powers"}, page)
    if page == "catalog":
        assert any("Every tool at start-up" in m.label for m in at.metric)


def test_catalog_says_which_powers_cannot_start_here(monkeypatch, tmp_path):
    """A power whose program is not on this machine is named on the Catalog page, with how to install it."""
    monkeypatch.setenv("PATH", str(tmp_path))  # no mcp-server-git / mcp-server-time on this PATH
    at = run({"domain": "powers"}, "catalog")
    warnings = " ".join(w.value for w in at.warning).replace("\\", "")  # markdown escapes
    assert "**git**" in warnings and "'mcp-server-git' is not installed" in warnings and "pip install mcp-server-git" in warnings
    assert "**time**" in warnings and "**sqlite**" not in warnings
    table = next(d.value for d in at.dataframe if "State" in d.value.columns)
    states = dict(zip(table["Power"], table["State"]))
    assert states["git"] == "program missing" and states["sqlite"] == "ready" and states["stripe"] == "described only"
