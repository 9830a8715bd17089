"""The Explore pages under Streamlit's AppTest: what a user sees after typing, clicking and picking dates.

Every test runs app.py (the real navigation) and drives widgets by key. Expected tools, tiers and
date ranges are those of shared/CONTRACT.md; wording shown comes from the lexicon, not from here.
"""
from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from routing import Router, RouterRegistry
from ui.common import TIER_LABELS

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
TODAY = date(2026, 1, 22)


def run_app(**query_params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in query_params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, at.exception
    return at


def open_page(page: str) -> AppTest:
    at = run_app()
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def texts(at: AppTest) -> str:
    """Everything a user can read on the page, as one string."""
    parts = [e.value for e in at.markdown] + [e.value for e in at.caption] + [e.value for e in at.info]
    parts += [e.value for e in at.warning] + [e.value for e in at.error] + [e.value for e in at.title]
    return "\n".join(str(p) for p in parts)


def set_today(at: AppTest, day: date) -> None:
    at.date_input(key="_w_today").set_value(day).run()
    assert not at.exception, at.exception


def ask(at: AppTest, query: str) -> dict:
    at.chat_input(key="query").set_value(query).run()
    assert not at.exception, at.exception
    entry = at.session_state["conversation"][0]
    assert entry["query"] == query
    return entry["result"]


@pytest.fixture(scope="module")
def accounting_router() -> Router:
    return Router.load("accounting")


# ---------------------------------------------------------------- playground


def test_playground_renders_examples_and_an_empty_conversation():
    at = run_app()
    assert at.title[0].value == "Query-routing playground"
    labels = [b.label for b in at.button if (b.key or "").startswith("example-")]
    assert "outstanding invoices" in labels and "piutang belum dibayar" in labels
    assert at.session_state["conversation"] == []


def test_typing_outstanding_invoices_shows_invoice_list_on_the_fast_path():
    at = run_app()
    set_today(at, TODAY)
    result = ask(at, "outstanding invoices")
    shown = texts(at)
    assert result["status"] == "activated" and result["path"] == "fast"
    assert "invoice_list" in shown
    assert TIER_LABELS["activated"] in shown
    assert "Fast path" in shown
    assert ">status=unpaid</code>" in shown  # the suggested parameter is on the card, as a chip


def test_show_me_data_shows_the_clarifying_question(accounting_router):
    at = run_app()
    ask(at, "show me data")
    question = accounting_router.domain.settings.clarifying_question
    assert question in [i.value for i in at.info]
    assert TIER_LABELS["needs_clarification"] in texts(at)


def test_shared_link_shows_the_result_on_first_run():
    at = run_app(q="outstanding invoices", domain="accounting", today="2026-01-22")
    conversation = at.session_state["conversation"]
    assert len(conversation) == 1
    result = conversation[0]["result"]
    assert result["today"] == "2026-01-22" and result["domain"] == "accounting"
    assert result["matches"][0]["name"] == "invoice_list" and result["path"] == "fast"
    assert "invoice_list" in texts(at) and "today 2026-01-22" in texts(at)
    assert at.session_state["today"] == TODAY
    # A rerun does not route the link again.
    at.run()
    assert len(at.session_state["conversation"]) == 1


def test_routing_a_new_query_updates_the_shareable_url():
    at = run_app(q="outstanding invoices", domain="accounting", today="2026-01-22")
    ask(at, "show invoices")
    assert at.query_params["q"] == "show invoices"
    assert at.query_params["today"] == "2026-01-22"
    assert at.query_params["domain"] == "accounting"


def test_a_bad_date_in_the_link_is_explained_not_raised():
    at = run_app(q="outstanding invoices", today="22/01/2026")
    assert any("22/01/2026" in w.value for w in at.warning)
    assert at.session_state["conversation"][0]["result"]["status"] == "activated"


def test_conversation_keeps_cards_newest_first_and_clears():
    at = run_app()
    at.button(key="example-0").click().run()
    first_example = at.button(key="example-0").label
    ask(at, "show me data")
    queries = [e["query"] for e in at.session_state["conversation"]]
    assert queries == ["show me data", first_example]
    at.button(key="clear").click().run()
    assert at.session_state["conversation"] == []
    assert not at.exception


def test_changing_today_changes_the_resolved_range_of_last_week():
    at = run_app()
    set_today(at, TODAY)
    before = ask(at, "invoices last week")
    set_today(at, date(2026, 2, 5))
    after = ask(at, "invoices last week")
    assert (before["dates"][0]["start"], before["dates"][0]["end"]) == ("2026-01-12", "2026-01-18")
    assert (after["dates"][0]["start"], after["dates"][0]["end"]) == ("2026-01-26", "2026-02-01")
    assert "2026-01-26 .. 2026-02-01" in texts(at)
    # The older card keeps the date it was asked with.
    assert "2026-01-12 .. 2026-01-18" in texts(at)


def test_session_thresholds_change_the_tier_but_not_the_lexicon_file():
    settings_file = ROOT / "lexicons" / "accounting" / "settings.yaml"
    on_disk = settings_file.read_bytes()
    at = run_app()
    at.slider(key="_th_accounting_high").set_value(0.99)
    at.slider(key="_th_accounting_medium").set_value(0.95).run()
    at.switch_page("app_pages/dates.py")  # session thresholds survive a visit to another page
    at.run()
    at.switch_page("app_pages/playground.py")
    at.run()
    result = ask(at, "show invoices")
    assert result["status"] == "weak_matches"
    assert result["thresholds"]["medium"] == 0.95
    assert TIER_LABELS["weak_matches"] in texts(at)
    assert settings_file.read_bytes() == on_disk
    at.button(key=next(b.key for b in at.button if b.label.startswith("Reset to the domain"))).click().run()
    assert ask(at, "show invoices")["status"] == "multiple_matches"


def test_thresholds_out_of_order_are_refused_with_a_message():
    at = run_app()
    at.slider(key="_th_accounting_low").set_value(0.9).run()
    assert any("low ≤ medium ≤ high" in w.value for w in at.warning)
    assert ask(at, "show invoices")["thresholds"]["low"] != 0.9


def test_a_routing_failure_is_a_friendly_card_not_a_traceback(monkeypatch):
    def explode(self, *args, **kwargs):
        raise RuntimeError("index corrupted")

    monkeypatch.setattr(Router, "route", explode)
    at = run_app()
    at.chat_input(key="query").set_value("outstanding invoices").run()
    assert not at.exception
    assert any("could not be routed" in e.value for e in at.error)
    assert any("Technical details" in x.label for x in at.expander)


def test_a_broken_lexicon_is_reported_on_every_page(monkeypatch, tmp_path):
    root = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", root)
    (root / "accounting" / "tools.yaml").write_text("tools:\n  - name: [unclosed\n", encoding="utf-8")
    broken = RouterRegistry(root)
    monkeypatch.setattr("ui.common.get_registry", lambda: broken)
    for page in ("playground", "dates", "catalog"):
        at = open_page(page)
        assert any("lexicon files have a problem" in e.value for e in at.error), page


# ---------------------------------------------------------------- dates


def test_dates_page_resolves_an_expression_for_the_chosen_today():
    at = open_page("dates")
    set_today(at, TODAY)
    at.text_input(key="date_expression").input("minggu lalu").run()
    assert "2026-01-12 .. 2026-01-18" in texts(at)
    set_today(at, date(2026, 2, 5))
    assert "2026-01-26 .. 2026-02-01" in texts(at)
    assert len(at.get("plotly_chart")) >= 1


def test_dates_page_worked_examples_follow_today():
    at = open_page("dates")
    set_today(at, TODAY)
    table = at.dataframe[0].value
    rows = {r["expression"]: r for r in table.to_dict("records")}
    assert (rows["last week"]["start"], rows["last week"]["end"], rows["last week"]["kind"]) == ("2026-01-12", "2026-01-18", "calendar")
    assert (rows["last 7 days"]["start"], rows["last 7 days"]["end"], rows["last 7 days"]["kind"]) == ("2026-01-16", "2026-01-22", "rolling")
    set_today(at, date(2026, 2, 5))
    rows = {r["expression"]: r for r in at.dataframe[0].value.to_dict("records")}
    assert rows["last 7 days"]["end"] == "2026-02-05"


def test_dates_page_explains_words_without_a_date():
    at = open_page("dates")
    at.text_input(key="date_expression").input("invoices please").run()
    assert any("No date expression" in w.value for w in at.warning)


# ---------------------------------------------------------------- catalog


def test_catalog_lists_every_tool_and_searches(accounting_router):
    at = open_page("catalog")
    tool_expanders = [x for x in at.expander if x.label.startswith("**")]
    assert len(tool_expanders) == len(accounting_router.domain.tools)
    at.text_input(key="catalog_search").input("piutang").run()
    labels = [x.label for x in at.expander if x.label.startswith("**")]
    assert labels and all("receivables_aging" in label for label in labels)
    assert "piutang" in at.dataframe[1].value.to_string()  # domains, synonyms, patterns


def test_catalog_token_cost_compares_whole_catalog_with_routed_tools():
    at = open_page("catalog")
    at.text_input(key="cost_query").input("outstanding invoices").run()
    metrics = {m.label: m.value for m in at.metric}
    whole = int(metrics["Whole catalog"].split()[0].replace(",", ""))
    routed = int(metrics["Only the routed tools"].split()[0].replace(",", ""))
    assert 0 < routed < whole
    assert "invoice_list" in texts(at)


def test_every_domain_routes_its_first_example_on_the_playground():
    at = run_app()
    for name in RouterRegistry().domains():
        at.selectbox(key="_w_domain").set_value(name).run()
        assert not at.exception, name
        assert at.session_state["domain"] == name
        at.button(key="example-0").click().run()
        assert not at.exception, name
        entry = at.session_state["conversation"][0]
        assert entry["result"] is not None and entry["result"]["domain"] == name


def test_domain_and_today_chosen_on_the_playground_carry_over_to_the_dates_page():
    names = RouterRegistry().domains()
    other = next((n for n in names if n != "accounting"), "accounting")
    at = run_app()
    at.selectbox(key="_w_domain").set_value(other).run()
    set_today(at, TODAY)
    at.switch_page("app_pages/dates.py")
    at.run()
    assert not at.exception
    assert at.selectbox(key="_w_domain").value == other
    assert at.date_input(key="_w_today").value == TODAY
    assert f"Domain **{other}**" in texts(at) and "2026-01-22" in texts(at)
    at.switch_page("app_pages/playground.py")
    at.run()
    assert at.session_state["domain"] == other and at.session_state["today"] == TODAY


def test_a_name_is_shown_as_typed_and_markup_in_a_query_is_shown_not_run():
    at = run_app()
    set_today(at, TODAY)
    result = ask(at, "invoices for customer Budi Santoso")
    assert any("budi santoso" in str(m["suggested_params"].values()).lower() for m in result["matches"])
    shown = texts(at)
    assert ">query=Budi Santoso</code>" in shown
    ask(at, "<b>invoices</b> from <script>x</script>")
    shown = texts(at)
    assert "<script>" not in shown and "&lt;script&gt;" in shown


@pytest.mark.parametrize("domain", ["accounting", "cfo", "football", "factory", "powers"])
def test_every_page_opens_without_an_exception_in_every_domain(domain):
    """The Dates page raised AttributeError for factory (its router has no index); every page x
    domain opens now, as a first visit by link would."""
    for page in ("playground", "dates", "catalog", "coverage", "tuner", "editor"):
        at = AppTest.from_file(APP, default_timeout=90)
        at.query_params["domain"] = domain
        at.switch_page(f"app_pages/{page}.py")
        at.run()
        assert not at.exception, (page, domain, at.exception)
        if page == "dates":
            at.text_input(key="date_expression").input("last week").run()
            assert not at.exception, (domain, at.exception)
