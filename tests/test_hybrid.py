"""The hybrid path: fast path pipelines, the LLM path's category, tools, model and estimate, events,
mode switches, tool groups, money formatting and the monthly cost simulator."""
from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from routing import LexiconError, Router
from routing.paths.enrichments import apply_enrichments
from routing.paths.monthly import cost_profile, monthly_cost
from routing.paths.config import load_path_config, path_config
from routing.paths.plan import next_context
from routing.paths.money import format_inr, format_money

ROOT = Path(__file__).resolve().parent.parent
CFO = ROOT / "lexicons" / "cfo"
EVENT_ORDER = ["route_started", "route_classified", "tools_filtered", "pipeline_executing", "enrichments_applying"]


@pytest.fixture(scope="module")
def cfo() -> Router:
    return Router.load("cfo")


def cfo_copy(tmp_path) -> Path:
    """A scratch lexicon root with only what the cfo domain reads (fast to copy)."""
    root = tmp_path / "lexicons"
    for name in ("cfo", "_shared"):
        shutil.copytree(ROOT / "lexicons" / name, root / name, ignore=shutil.ignore_patterns(".*"))
    return root


def groups() -> dict:
    return yaml.safe_load((CFO / "groups.yaml").read_text())


def meta_tools_of(*group_names: str) -> list[str]:
    """The meta-tools of the groups, then match_intent when groups.yaml offers it (the router's own
    matcher) and the 20-tool bound leaves room for it."""
    names = [m["name"] for m in groups()["meta_tools"] if m["group"] in group_names]
    return names + (["match_intent"] if groups().get("match_intent") and len(names) < 20 else [])


# ---------------------------------------------------------------- Done when


def test_profit_and_loss_this_month_takes_the_fast_path_with_a_pipeline(cfo, today):
    r = cfo.route("show me the profit and loss statement for this month", today=today)
    assert r.path.value == "fast" and r.top.name == "profit_and_loss"
    assert r.tools_sent == []
    assert r.pipeline[0] == {"tool": "get_profit_and_loss", "params": {"from": "2026-01-01", "to": "2026-01-22"}}
    assert r.model == "gpt-4o-mini" and r.path_fields.model_tier == "cheap"
    assert "currency_format" in r.enrichments


def test_hindi_drilldown_takes_the_llm_path_as_cfo_with_the_capable_model(cfo, today):
    r = cfo.route("mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao", today=today)
    assert r.path.value == "llm" and r.category == "cfo"
    assert 15 <= len(r.tools_sent) <= 20
    assert r.tools_sent == meta_tools_of("cfo", "general")
    assert r.model == "gpt-4o" and r.path_fields.model_tier == "capable"
    assert r.pipeline == []
    assert "trend_analysis" in r.enrichments  # the likely intents return a time series


def test_new_invoice_in_hindi_is_bookkeeper(cfo, today):
    r = cfo.route("naya invoice banao for Sharma Traders", today=today)
    assert r.category == "bookkeeper"
    assert r.pipeline and r.pipeline[0]["tool"] == "create_invoice"
    assert r.pipeline[0]["params"]["customer"] == "Sharma Traders"  # as the user wrote it


def test_greeting_is_general_chat_with_no_tools(cfo, today):
    r = cfo.route("hi there, thanks!", today=today)
    assert r.path.value == "llm" and r.category == "general_chat"
    assert r.tools_sent == [] and r.path_fields.model_tier == "cheap"


# ---------------------------------------------------------------- LLM path


def test_an_unrouted_action_is_bookkeeper_with_its_group_of_tools(cfo, today):
    r = cfo.route("please delete that entry and update the party address", today=today)
    assert r.path.value == "llm" and r.category == "bookkeeper"
    assert r.tools_sent == meta_tools_of("bookkeeper", "general")
    assert 15 <= len(r.tools_sent) <= 20


def test_no_mode_words_default_to_cfo(cfo, today):
    r = cfo.route("asdfasdf", today=today)
    assert r.category == "cfo" and r.path_fields.model_tier == "cheap"


def test_a_long_question_gets_the_capable_model(cfo, today):
    words = "please " + " ".join(["kindly"] * 28) + " asdf"
    r = cfo.route(words, today=today)
    assert r.path.value == "llm" and r.path_fields.model_tier == "capable" and "long" in r.path_fields.model_reason


def test_events_come_in_order_timed_and_only_for_what_happens(cfo, today):
    seen = []
    replayed = cfo.route("show me the profit and loss statement for this month", today=today, context={"data_mode": "replay"}, on_event=seen.append)
    assert [e["type"] for e in replayed.events] == EVENT_ORDER
    assert seen == replayed.events  # the listener got each event as it happened, the same ones
    stamps = [e["t_ms"] for e in replayed.events]
    assert stamps == sorted(stamps) and stamps[-1] <= replayed.timing_ms
    # Planned only (no data mode): no step runs, so no pipeline_executing.
    planned = [e["type"] for e in cfo.route("show me the profit and loss statement for this month", today=today).events]
    assert planned == [t for t in EVENT_ORDER if t != "pipeline_executing"]
    # Chat: nothing to enrich.
    chat = [e["type"] for e in cfo.route("hi there, thanks!", today=today).events]
    assert chat == ["route_started", "route_classified", "tools_filtered"]


def test_an_action_in_a_cfo_conversation_switches_to_bookkeeper_for_that_turn(cfo, today):
    r = cfo.route("send reminders to overdue customers", today=today, context={"mode": "cfo"})
    assert r.category == "bookkeeper"
    switch = [e for e in r.events if e["type"] == "mode_switch"]
    assert switch == [dict(switch[0], **{"from": "cfo", "to": "bookkeeper"})]
    assert [e["type"] for e in r.events][-1] == "mode_switch"
    # The next turn continues in cfo mode: no switch back.
    ctx = next_context(r)
    assert ctx == {"mode": "cfo"}
    follow = cfo.route("top expenses last month", today=today, context=ctx)
    assert not any(e["type"] == "mode_switch" for e in follow.events)


def test_no_switch_without_a_conversation_or_within_the_same_mode(cfo, today):
    alone = cfo.route("send reminders to overdue customers", today=today)
    same = cfo.route("send reminders to overdue customers", today=today, context={"mode": "bookkeeper"})
    chat = cfo.route("thanks!", today=today, context={"mode": "cfo"})
    for r in (alone, same, chat):
        assert not any(e["type"] == "mode_switch" for e in r.events)
    assert chat.path_fields.conversation_mode == "cfo"  # a thank-you does not leave the conversation's mode


def test_a_neutral_follow_up_stays_in_the_conversations_mode(cfo, today):
    r = cfo.route("asdfasdf qwerty", today=today, context={"mode": "bookkeeper"})
    assert r.category == "bookkeeper" and "continues" in r.path_fields.classifier["reason"]


# ---------------------------------------------------------------- fast path details


def test_a_question_without_dates_uses_the_fiscal_year_april_to_march(cfo, today):
    r = cfo.route("mera profit batao", today=today)
    assert r.path.value == "fast"
    assert r.pipeline[0]["params"] == {"from": "2025-04-01", "to": "2026-01-22"}


def test_an_open_parameter_is_marked_not_invented(cfo, today):
    r = cfo.route("send reminders to overdue customers", today=today)
    step = r.pipeline[1]
    assert step["tool"] == "send_payment_reminder" and step["params"] == {"channel": "email"}
    assert step["open"] == ["customer"]
    assert r.enrichments == []  # the intent declares none


def test_estimates_the_llm_path_costs_more_than_the_fast_path(cfo, today):
    fast = cfo.route("show me the profit and loss statement for this month", today=today).estimate
    slow = cfo.route("mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao", today=today).estimate
    assert slow["tokens"] > fast["tokens"] and slow["cost_usd"] > fast["cost_usd"] * 10
    assert set(fast) >= {"tokens", "cost_usd", "latency_ms"}


def test_prices_come_from_the_domain_yaml(tmp_path, today):
    root = cfo_copy(tmp_path)
    query = "mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao"
    before = Router.load("cfo", root).route(query, today=today).estimate
    settings = root / "cfo" / "settings.yaml"
    text = settings.read_text().replace("input_usd_per_1m: 2.50, cached_input_usd_per_1m: 1.25, output_usd_per_1m: 10.00", "input_usd_per_1m: 5.00, cached_input_usd_per_1m: 2.50, output_usd_per_1m: 20.00")
    settings.write_text(text)
    after = Router.load("cfo", root).route(query, today=today).estimate
    assert after["tokens"] == before["tokens"]
    assert after["cost_usd"] == pytest.approx(before["cost_usd"] * 2, rel=1e-3)


# ---------------------------------------------------------------- every domain


def test_the_accounting_domain_has_paths_too(today):
    acc = Router.load("accounting")
    fast = acc.route("outstanding invoices", today=today)
    assert fast.path.value == "fast" and fast.pipeline == [{"tool": "invoice_list", "params": fast.top.suggested_params}]
    assert fast.pipeline[0]["params"]["status"] == "unpaid"
    vague = acc.route("show me data", today=today)
    assert vague.path.value == "llm" and vague.category == "cfo" and "invoice_create" not in vague.tools_sent
    create = acc.route("tolong hapus kontak ini lalu kirim pesan", today=today)
    assert create.category == "bookkeeper" and create.tools_sent == ["invoice_create"]
    assert acc.route("halo, terima kasih", today=today).category == "general_chat"


# ---------------------------------------------------------------- tool groups


def test_tool_groups_are_35_meta_tools_with_an_explicit_mapping():
    data = groups()
    by_group = {}
    for m in data["meta_tools"]:
        by_group.setdefault(m["group"], []).append(m["name"])
    assert len(data["meta_tools"]) == 35
    assert len(by_group["bookkeeper"]) == 18 and len(by_group["cfo"]) == 15
    underlying = [t for m in data["meta_tools"] for t in m["tools"]]
    assert len(underlying) >= 120 and len(set(underlying)) == len(underlying)
    assert {"manage_invoices", "manage_bills", "gst_actions", "record_payment"} <= set(by_group["bookkeeper"])
    assert {"financial_statements", "receivables_report", "business_kpis"} <= set(by_group["cfo"])


def test_each_meta_tool_schema_offers_its_api_tools_as_operations(cfo):
    cfg = path_config(cfo)
    schema = cfg.schemas["gst_actions"]["function"]
    assert schema["parameters"]["properties"]["operation"]["enum"] == [m for m in groups()["meta_tools"] if m["name"] == "gst_actions"][0]["tools"]
    assert schema["parameters"]["required"] == ["operation"]


def _broken_copy(tmp_path, file: str, old: str, new: str) -> Path:
    root = cfo_copy(tmp_path)
    path = root / "cfo" / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return root


def test_a_pipeline_naming_an_unknown_api_tool_is_reported_with_file_and_line(tmp_path, today):
    root = _broken_copy(tmp_path, "tools.yaml", "{tool: get_balance_sheet,", "{tool: get_balanse_sheet,")
    # The path settings are part of the lexicon: building the router fails with file and line...
    with pytest.raises(LexiconError) as err:
        Router.load("cfo", root)
    problem = err.value.problems[0]
    assert problem.file.endswith("cfo/tools.yaml") and problem.line and "get_balanse_sheet" in problem.message
    # ...so a registry that had a good version keeps serving it.
    from routing import RouterRegistry

    good_root = _broken_copy(tmp_path / "good", "tools.yaml", "{tool: get_balance_sheet,", "{tool: get_balance_sheet,")
    registry = RouterRegistry(good_root)
    good = registry.state("cfo").router
    path = good_root / "cfo" / "tools.yaml"
    path.write_text(path.read_text().replace("{tool: get_balance_sheet,", "{tool: get_balanse_sheet,", 1))
    state = registry.state("cfo")
    assert state.router is good and "get_balanse_sheet" in str(state.error)
    assert state.router.route("balance sheet", today=today).status.value == "activated"


def test_an_api_tool_listed_under_two_meta_tools_is_refused(tmp_path):
    root = _broken_copy(tmp_path, "groups.yaml", "tools: [create_bill, update_bill,", "tools: [create_invoice, create_bill, update_bill,")
    with pytest.raises(LexiconError) as err:
        load_path_config(Router.load("cfo", root).domain)
    assert any("create_invoice" in p.message and p.file.endswith("groups.yaml") for p in err.value.problems)


# ---------------------------------------------------------------- money and enrichments


@pytest.mark.parametrize(
    "amount, text",
    [
        (12345678, "Rs 1,23,45,678.00"),
        (100000, "Rs 1,00,000.00"),
        (999, "Rs 999.00"),
        (1000, "Rs 1,000.00"),
        (-2500.5, "-Rs 2,500.50"),
        (0.005, "Rs 0.01"),
        (1234567890123, "Rs 12,34,56,78,90,123.00"),
    ],
)
def test_inr_is_grouped_the_indian_way(amount, text):
    assert format_inr(amount) == text


def test_rupee_symbol_and_other_currencies():
    assert format_inr(12345678, symbol="₹") == "₹1,23,45,678.00"
    assert format_money(1234567.5, "USD") == "$1,234,567.50"
    assert format_money(12345678, "INR") == "Rs 1,23,45,678.00"


@given(st.decimals(min_value=-10**12, max_value=10**12, places=2, allow_nan=False, allow_infinity=False))
def test_inr_grouping_keeps_the_number(amount):
    text = format_inr(amount)
    digits = text.replace("Rs ", "").replace(",", "")
    assert Decimal(digits) == amount
    whole = text.split(" ")[-1].split(".")[0].split(",")
    assert len(whole[-1]) == 3 or len(whole) == 1
    assert all(len(g) == 2 for g in whole[1:-1])


def test_enrichments_rank_format_trend_and_alert():
    rows = [{"month": "Oct", "amount": 120000}, {"month": "Nov", "amount": 90000}, {"month": "Dec", "amount": 150000}]
    out = apply_enrichments(rows, ["trend_analysis", "ranking", "currency_format", "alert_evaluation"], currency="INR", threshold=100000)
    assert [r["month"] for r in out["rows"]] == ["Dec", "Oct", "Nov"] and out["rows"][0]["rank"] == 1
    assert out["rows"][0]["amount_display"] == "Rs 1,50,000.00"
    assert out["summary"]["trend"]["direction"] == "up" and out["summary"]["trend"]["change_pct"] == 25.0
    assert out["summary"]["alerts"] == 2


# ---------------------------------------------------------------- monthly cost


def test_monthly_cost_is_cheaper_than_every_tool_to_a_capable_model(cfo):
    profile = cost_profile(cfo)
    assert profile.all_tools_count >= 120
    assert profile.known["cost_usd"] < profile.novel["cost_usd"] < profile.all_tools["cost_usd"]
    month = monthly_cost(profile, volume=30000, mix={"known": 0.6, "novel": 0.3, "chat": 0.1})
    assert sum(r["messages"] for r in month.rows) == 30000
    assert month.total_usd < month.baseline_usd and 0 < month.saved_share < 1
    more_known = monthly_cost(profile, volume=30000, mix={"known": 0.9, "novel": 0.05, "chat": 0.05})
    assert more_known.total_usd < month.total_usd


def test_monthly_cost_rejects_an_empty_mix(cfo):
    with pytest.raises(ValueError):
        monthly_cost(cost_profile(cfo), volume=100, mix={"known": 0, "novel": 0, "chat": 0})
