"""What a user sees from the router: the tool, the tier, the corrections, the parameters, the path."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from routing import ErrorCode, Router, Status, Thresholds
from routing.core.lexicon import domain_from_data, load_shared_words

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"


def top(result):
    return result.matches[0].name if result.matches else None


# ------------------------------------------------------------------ the "done when"


def test_outstanding_invoices_activates_invoice_list_with_unpaid(accounting):
    r = accounting.route("outstanding invoices", today=TODAY)
    assert r.status is Status.ACTIVATED and top(r) == "invoice_list"
    assert r.matches[0].suggested_params["status"] == "unpaid"
    assert r.path.value == "fast" and len(r.matches) == 1


def test_show_invoices_is_ambiguous_and_lists_the_alternatives(accounting):
    r = accounting.route("show invoices", today=TODAY)
    assert r.status is Status.MULTIPLE_MATCHES
    names = [m.name for m in r.matches]
    assert 2 <= len(names) <= 3
    assert {"invoice_list", "financial_sales_summary"} <= set(names)
    assert r.path.value == "llm"


@pytest.mark.parametrize("query", ["show me data", "tampilkan data"])
def test_vague_input_gets_the_clarifying_question(accounting, query):
    r = accounting.route(query, today=TODAY)
    assert r.status is Status.NEEDS_CLARIFICATION
    assert r.clarifying_question == "What type of data? Invoices, contacts, products, or something else?"
    assert r.matches == []


@pytest.mark.parametrize("query", ["asdfasdf", "launch my rocket to Mars", "siapa presiden indonesia"])
def test_out_of_domain_is_not_found_with_every_tool_available(accounting, query):
    r = accounting.route(query, today=TODAY)
    assert r.status is Status.NOT_FOUND and r.matches == []
    assert len(r.available) == len(accounting.domain.tools)


# ------------------------------------------------------------------ signals and corrections


@pytest.mark.parametrize(
    "query, original, corrected",
    [("invoise bulan ini", "invoise", "invoice"), ("custmer list", "custmer", "customer"),
     ("daftar pelangan", "pelangan", "pelanggan"), ("pendapatn bulan ini", "pendapatn", "pendapatan")],
)
def test_typos_are_corrected_and_listed(accounting, query, original, corrected):
    r = accounting.route(query, today=TODAY)
    assert (original, corrected) in [(c.original, c.corrected) for c in r.corrections]
    assert r.matches and r.matches[0].score_breakdown.get("fuzzy_penalty", 0) < 0


@pytest.mark.parametrize("query", ["tax 2025", "tell me a joke", "inv 77", "good morning"])
def test_short_words_and_numbers_are_not_corrected(accounting, query):
    assert accounting.route(query, today=TODAY).corrections == []


@pytest.mark.parametrize("query", ["outstanding invoices", "piutang belum dibayar", "invoise bulan ini", "show invoices", "daftar pelanggan"])
def test_breakdown_adds_up_to_confidence(accounting, query):
    r = accounting.route(query, today=TODAY)
    for m in r.matches:
        assert 0 <= m.confidence <= 1
        assert sum(m.score_breakdown.values()) == pytest.approx(m.confidence, abs=1e-3)


def test_languages_are_alike(accounting):
    """A variant in either language routes to the same tool with the same tier."""
    pairs = [("list customers", "daftar pelanggan"), ("unpaid invoices", "faktur belum dibayar"),
             ("balance sheet", "neraca"), ("cash flow", "arus kas")]
    for en, id_ in pairs:
        a, b = accounting.route(en, today=TODAY), accounting.route(id_, today=TODAY)
        assert (top(a), a.status) == (top(b), b.status), (en, id_)


def test_action_verb_picks_the_kind(accounting):
    assert top(accounting.route("list invoices", today=TODAY)) == "invoice_list"
    assert top(accounting.route("cari faktur untuk Budi", today=TODAY)) == "invoice_search"
    assert top(accounting.route("buat invoice baru", today=TODAY)) == "invoice_create"
    assert top(accounting.route("total invoices this month", today=TODAY)) == "financial_sales_summary"


def test_match_type_names_the_signal_that_carried_it(accounting):
    assert accounting.route("who owes me money", today=TODAY).matches[0].match_type == "pattern"
    assert accounting.route("invoise bulan ini", today=TODAY).matches[0].match_type == "fuzzy"
    assert accounting.route("neraca", today=TODAY).matches[0].match_type == "synonym"


# ------------------------------------------------------------------ ranking and tiers


def _twin_domain():
    tool = {"description": "Same tool.", "kind": "list", "keywords": ["widget"], "examples": ["list widgets"]}
    raw = {
        "settings.yaml": {"name": "twins"},
        "tools.yaml": {"tools": [dict(tool, name="zeta_widgets"), dict(tool, name="alpha_widgets")]},
        "synonyms.yaml": {"widget": ["gadget"]},
        "patterns.yaml": {"patterns": []},
    }
    return domain_from_data("twins", raw, root=ROOT / "lexicons", shared=load_shared_words(ROOT / "lexicons"))


def test_equal_scores_break_alphabetically_not_by_order_in_the_file():
    r = Router(_twin_domain()).route("list widgets", today=TODAY)
    a, z = r.candidates[:2]
    assert a["confidence"] == z["confidence"]
    assert [a["name"], z["name"]] == ["alpha_widgets", "zeta_widgets"]
    assert r.status is Status.MULTIPLE_MATCHES, "a tie can never be activated: it fails the margin"


def test_threshold_overrides_change_the_tier_for_one_call_only(accounting):
    strict = accounting.route("outstanding invoices", today=TODAY, thresholds={"high": 1.0, "margin": 0.9})
    assert strict.status is Status.MULTIPLE_MATCHES
    assert accounting.route("outstanding invoices", today=TODAY).status is Status.ACTIVATED
    # "show bills": a middle-band leader ("show invoices" is a bare subject, a choice at any thresholds)
    assert accounting.route("show bills", today=TODAY).status is Status.MULTIPLE_MATCHES
    lax = accounting.route("show bills", today=TODAY, thresholds=Thresholds(high=0.5, medium=0.4, low=0.2, margin=0.0))
    assert lax.status is Status.ACTIVATED


def test_weak_matches_offers_up_to_five(accounting):
    r = accounting.route("show invoices", today=TODAY, thresholds={"high": 1.0, "medium": 0.99, "low": 0.1})
    assert r.status is Status.WEAK_MATCHES
    assert 1 <= len(r.matches) <= 5


# ------------------------------------------------------------------ parameters and dates


def test_date_range_fills_the_tools_own_date_params(accounting):
    r = accounting.route("ringkasan penjualan minggu lalu", today=TODAY)
    assert top(r) == "financial_sales_summary"
    p = r.matches[0].suggested_params
    assert (p["date_from"], p["date_to"]) == ("2026-01-12", "2026-01-18")
    assert r.dates[0]["kind"] == "calendar" and r.dates[0]["rule"] == "last_week"


def test_rolling_window_in_a_query(accounting):
    r = accounting.route("penjualan tujuh hari kebelakang", today=TODAY)
    p = r.matches[0].suggested_params
    assert (p["date_from"], p["date_to"]) == ("2026-01-16", "2026-01-22")
    assert r.dates[0]["kind"] == "rolling"


def test_required_param_gets_its_default_with_a_note(accounting):
    m = accounting.route("daftar faktur", today=TODAY).matches[0]
    assert m.suggested_params["status"] == "all"
    assert "showing all statuses by default" in m.param_notes


def test_search_term_goes_to_the_query_param(accounting):
    m = accounting.route("find invoice for Sharma Traders", today=TODAY).matches[0]
    assert m.name == "invoice_search" and m.suggested_params["query"] == "Sharma Traders"  # as the user wrote it


def test_a_parameter_word_is_never_a_parameter_value(accounting):
    """"invoice status" speaks of the status: no tool gets invoice_id=status."""
    r = accounting.route("invoice status", today=TODAY)
    assert r.matches and all("status" not in str(v) for m in r.matches for k, v in m.suggested_params.items() if k != "status")


def test_a_name_without_capitals_is_taken_as_the_customer(accounting):
    r = accounting.route("outstandng invoices from acme", today=TODAY)
    assert r.top.name == "invoice_list" and r.top.suggested_params["customer"] == "acme"
    assert r.top.suggested_params["status"] == "unpaid"


def test_a_repeated_question_repeats_no_range_and_no_search_term(accounting):
    once = accounting.route("find invoice for Sharma Traders last month", today=TODAY)
    twice = accounting.route("find invoice for Sharma Traders last month. " * 3, today=TODAY)
    assert len(twice.dates) == len(once.dates) == 1
    assert twice.top.suggested_params["query"] == once.top.suggested_params["query"] == "Sharma Traders"
    assert not any("date ranges found" in n for n in twice.top.param_notes)


def test_revenue_suggests_the_sales_summary_summing_amounts(accounting):
    m = accounting.route("revenue this month", today=TODAY).matches[0]
    assert m.name == "financial_sales_summary" and m.suggested_params["aggregate"] == "amount"


def test_unresolvable_date_is_a_note_not_an_error(accounting):
    r = accounting.route("invoices 32 januari", today=TODAY)
    assert r.error is None and r.matches
    assert 'could not use "32 januari": 32 is not a day of januari' in r.top.param_notes
    assert r.dates[0]["start"] is None and "32" in r.dates[0]["reason"]


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("query", ["", "   \t\n", "x" * 1001, None, 42, "\x00\x01\x02", "🚀🚀🚀"])
def test_bad_input_is_invalid_query_never_an_exception(accounting, query):
    r = accounting.route(query, today=TODAY)
    assert r.error is not None and r.error.code == ErrorCode.INVALID_QUERY.value
    assert r.status is Status.NOT_FOUND and r.matches == []
    assert r.to_dict()["error"]["message"]


@pytest.mark.parametrize("query", ["outstanding 🚀 invoices", "out\u200bstanding invoices", "ＯＵＴＳＴＡＮＤＩＮＧ invoices", "outstanding\x07 invoices"])
def test_odd_unicode_around_real_words_still_routes(accounting, query):
    r = accounting.route(query, today=TODAY)
    assert top(r) == "invoice_list" and r.error is None


def test_exactly_1000_characters_is_accepted(accounting):
    q = ("outstanding invoices " * 60)[:1000]
    assert accounting.route(q, today=TODAY).error is None


# ------------------------------------------------------------------ the house rules


def test_no_indonesian_word_is_hard_coded_in_routing_code():
    import yaml

    words = yaml.safe_load((ROOT / "lexicons/_shared/words.yaml").read_text())

    def vocabulary(lang):
        out = set(words[lang]["stopwords"])
        for kind in words[lang]["actions"].values():
            out |= set(kind.get("strong") or []) | set(kind.get("weak") or [])
        return out

    id_words = {w for w in vocabulary("id") - vocabulary("en") if len(w) >= 4 and w.isalpha()}
    id_words |= {"faktur", "tagihan", "pelanggan", "piutang", "hutang", "penjualan", "pendapatan", "biaya"}
    for path in (ROOT / "routing").glob("*.py"):
        if path.name.endswith("cli.py"):
            continue  # help texts may quote an example word; they never decide a route
        literals = _string_literals(path)
        found = {w for lit in literals for w in re.findall(r"[a-z]+", lit.lower()) if w in id_words}
        assert not found, f"{path.name} hard-codes lexicon words {sorted(found)}"


def _string_literals(path: Path) -> list[str]:
    """String constants in code, docstrings left out (prose may quote an example)."""
    import ast

    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def test_routing_never_imports_streamlit():
    for path in (ROOT / "routing").glob("*.py"):
        assert not re.search(r"^\s*(import|from)\s+streamlit", path.read_text(), re.M), path.name


@pytest.mark.parametrize("query", ["pending invoices", "salaries paid last month", "sending invoices", "scales report", "paying suppliers"])
def test_common_real_words_are_never_corrected(accounting, query):
    """One edit from a lexicon word, but real words: "pending" is not "spending"."""
    assert accounting.route(query, today=TODAY).corrections == []


@pytest.mark.parametrize("query", ["show invoices", "show bills", "tampilkan faktur"])
def test_multiple_matches_always_offers_alternatives(accounting, query):
    r = accounting.route(query, today=TODAY)
    assert r.status is Status.MULTIPLE_MATCHES, r.status
    assert 2 <= len(r.matches) <= 3


def test_margin_is_compared_at_reported_precision(accounting):
    r = accounting.route("show bills", today=TODAY)
    top, second = r.matches[0].confidence, r.matches[1].confidence
    exact = accounting.route("show bills", today=TODAY, thresholds={"high": top, "margin": round(top - second, 4)})
    assert exact.status is Status.ACTIVATED


@pytest.mark.parametrize("bad", [{"hgh": 0.5}, {"high": "x"}, {"high": float("nan")}, {"low": 1.5}])
def test_bad_threshold_overrides_are_refused_clearly(accounting, bad):
    with pytest.raises(ValueError, match="threshold"):
        accounting.route("outstanding invoices", today=TODAY, thresholds=bad)


def test_record_numbers_reach_the_detail_tool(accounting):
    m = accounting.route("details of invoice INV-2026-001", today=TODAY).matches[0]
    assert m.name == "invoice_detail" and m.suggested_params["invoice_id"] == "INV-2026-001"


def test_a_required_param_left_open_gets_a_note(accounting):
    m = accounting.route("create an invoice", today=TODAY).matches[0]
    assert m.name == "invoice_create" and any("customer is required" in n for n in m.param_notes)


def test_a_bare_verb_asks_what_to_show(accounting):
    assert accounting.route("show me", today=TODAY).status is Status.NEEDS_CLARIFICATION


def test_a_grouped_amount_is_searched_for_not_a_record_number(accounting):
    """"2,500,000" is an amount (digit groups of three), not invoice number 2: a search, with the amount."""
    r = accounting.route("find an invoice for 2,500,000", today=TODAY)
    assert r.top.name == "invoice_search" and r.top.suggested_params["query"] == "2,500,000"
    assert accounting.route("details of invoice 1088", today=TODAY).top.name == "invoice_detail"


def test_an_email_address_is_one_search_term(accounting):
    r = accounting.route("cari kontak dengan email Rina.Putri@gmail.com", today=TODAY)
    assert r.top.name == "contact_search" and r.top.suggested_params["query"] == "Rina.Putri@gmail.com"


def test_colloquial_in_suffix_reads_as_the_verb(accounting):
    """Indonesian chat writes -kan as -in ("buatin", "cariin"): the suffix rule folds it onto the verb."""
    a = accounting.analyze("buatin invoice baru", today=TODAY)
    assert a.units[0].role == "action" and a.units[0].key == "buat"
