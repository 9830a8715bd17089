"""Number parameters take the quantities a question states (routing.core.quantities, words.yaml
`numbers`): money into `role: amount`, a count into `role: count`, a span of days into `role: days`;
what one takes is no part of the search words. Checked as a user sees them: the suggested
parameters of the tool chosen, and the pipeline the fast path would run."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from routing import LexiconError, load_domain, load_router
from routing.core.quantities import number_value

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


def _top(router, query):
    r = router.route(query, today=TODAY)
    assert r.matches, (query, r.status)
    return r, r.matches[0]


@pytest.mark.parametrize("query, tool, amount", [
    ("Mehta Textiles paid us ₹75,000, record it", "record_payment", 75000),
    ("Kapoor & Sons ne 3.2 lakh bhej diye, payment record karo", "record_payment", 320000),
    ("record payment of INR 1,25,000 received from Bansal Traders", "record_payment", 125000),
    ("add an expense: 18k for office internet", "record_expense", 18000),
    ("travel ka kharcha 4,500 rupees likho", "record_expense", 4500),
    ("record a payment of 2500 from Verma Stores", "record_payment", 2500),
])
def test_money_the_question_states_is_the_amount(cfo, query, tool, amount):
    r, top = _top(cfo, query)
    assert top.name == tool
    assert top.suggested_params.get("amount") == amount
    if r.pipeline:  # the fast path's step gets it too
        assert any(step["params"].get("amount") == amount for step in r.pipeline)


@pytest.mark.parametrize("query, limit", [
    ("our top 3 customers by revenue this year", 3),
    ("show the 7 largest expenses last quarter", 7),
    ("sabse bade 5 customers kaun hain", 5),
])
def test_a_count_next_to_the_tools_term_is_the_limit(cfo, query, limit):
    _, top = _top(cfo, query)
    assert top.name in ("top_customers", "top_expenses")
    assert top.suggested_params["limit"] == limit
    assert not any("by default" in n for n in top.param_notes)


def test_no_count_keeps_the_default_and_says_so(cfo):
    _, top = _top(cfo, "who are my biggest customers")
    assert top.name == "top_customers"
    assert top.suggested_params["limit"] == 10 and "the top 10 by default" in top.param_notes


@pytest.mark.parametrize("query, days", [
    ("customers who are over 45 days late on payment", 45),
    ("120+ din se overdue wale customers", 120),
])
def test_a_span_of_days_is_min_days(cfo, query, days):
    _, top = _top(cfo, query)
    assert top.name == "overdue_customers"
    assert top.suggested_params["min_days"] == days


@pytest.mark.parametrize("query", [
    "customer paid invoice 3391",           # the invoice's number, not an amount
    "record a payment against INV-5520",     # a code
    "record payment from Joshi Bros, 12% of the invoice",  # a share
])
def test_a_number_that_is_no_amount_is_not_taken(cfo, query):
    r = cfo.route(query, today=TODAY)
    for m in r.matches:
        assert "amount" not in m.suggested_params, (query, m.name, m.suggested_params)


def test_the_amount_is_no_part_of_the_customer(cfo):
    _, top = _top(cfo, "received Rs 60,000 from Malhotra Exports, please record it")
    assert top.name == "record_payment" and top.suggested_params["amount"] == 60000
    customer = top.suggested_params.get("customer", "")
    assert "Malhotra Exports" in customer
    assert "60" not in customer and "Rs" not in customer


def test_a_date_is_no_quantity(cfo):
    _, top = _top(cfo, "top customers from 01.04.2025 to 31.12.2025")
    assert top.name == "top_customers"
    assert top.suggested_params["limit"] == 10
    assert top.suggested_params["date_from"] == "2025-04-01" and top.suggested_params["date_to"] == "2025-12-31"


@pytest.mark.parametrize("written, value", [
    ("40,000", 40000), ("3.750.000", 3750000), ("2,50,000", 250000), ("1,200.50", 1200.5),
    ("1.200,50", 1200.5), ("1.5", 1.5), ("7,5", 7.5), ("12", 12), ("1.2.3", None), ("1.200.50", None),
])
def test_number_value(written, value):
    assert number_value(written) == value


@given(st.integers(min_value=1000, max_value=10**12))
def test_grouped_numbers_read_back(n):
    en = f"{n:,}"
    assert number_value(en) == n
    assert number_value(en.replace(",", ".")) == n


# ------------------------------------------------------------ the words file and the role, validated

@pytest.fixture()
def lex(tmp_path) -> Path:
    dest = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", dest, ignore=shutil.ignore_patterns(".history"))
    return dest


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_a_multiplier_that_is_no_whole_number_names_file_and_line(lex):
    words = lex / "_shared" / "words.yaml"
    text = words.read_text(encoding="utf-8")
    words.write_text(text.replace("lakh: 100000,", "lakh: lots,", 1), encoding="utf-8")
    with pytest.raises(LexiconError) as info:
        load_domain("cfo", lex)
    msg = str(info.value)
    assert "words.yaml" in msg and "'lakh'" in msg and "whole number" in msg
    assert f"line {_line_of(words, 'lakh: lots')}" in msg


def test_a_number_role_on_a_text_parameter_is_refused(lex):
    tools = lex / "cfo" / "tools.yaml"
    text = tools.read_text(encoding="utf-8")
    tools.write_text(text.replace("{name: category, type: string}", "{name: category, type: string, role: amount}", 1), encoding="utf-8")
    with pytest.raises(LexiconError) as info:
        load_domain("cfo", lex)
    msg = str(info.value)
    assert "tools.yaml" in msg and "'category'" in msg and "type must be number" in msg


# ------------------------------------------------------------ a term that says what an amount holds

@pytest.mark.parametrize("query, tool", [
    ("record a purchase bill from Arora Steel, 1.1 lakh plus GST", "create_bill"),
    ("make an invoice for Kohli Traders: 3 lakh + GST", "create_invoice"),
    ("Saini Bros ke liye 80,000 ka invoice banao, 18% GST ke saath", "create_invoice"),
    # the added term after the verb, not next to the amount; a price without currency before "+"
    ("Bansal Traders ke liye 2.75 lakh ka invoice banao plus GST", "create_invoice"),
    ("create tax invoice for singh retail, 120 cartons @ 450 + gst", "create_invoice"),
])
def test_tax_added_to_an_amount_is_no_second_ask(cfo, query, tool):
    # before, "GST" after the amount counted as a second thing asked (gst_summary): multiple_matches
    # on the LLM path for a plain write
    r = cfo.route(query, today=TODAY)
    assert r.status.value == "activated" and r.matches[0].name == tool and r.path.value == "fast"
    assert ("stop" in [t["role"] for t in r.to_dict()["tokens"] if t["key"] == "gst"])


@pytest.mark.parametrize("query", ["kitna 18% GST bana December mein", "how much 18% GST did we collect in December"])
def test_a_share_of_tax_asked_for_is_still_the_ask(cfo, query):
    # no amount stated, nothing else asked: GST is the question
    r = cfo.route(query, today=TODAY)
    assert r.matches and r.matches[0].name == "gst_summary"


def test_a_name_keeps_the_form_it_was_written_in(cfo):
    # "Steels" was read as the known word "steel" and the name came back lower-cased and singular
    r = cfo.route("received Rs 30,000 from Kalyani Steels against INV-4410, record it", today=TODAY)
    assert "Kalyani Steels" in r.matches[0].suggested_params["customer"]
    (step,) = r.pipeline
    assert step["params"]["customer"] == "Kalyani Steels" and step["params"]["amount"] == 30000


# ------------------------------------------------------------ a review's findings: hostile numbers, exact amounts

@pytest.mark.parametrize("query", ["9" * 310 + "k", "record payment of " + "9" * 400 + " crore from Arora Steels",
                                   "record payment of " + "9" * 400 + ".5 from Arora Steels"])
def test_a_number_too_long_for_any_amount_is_no_quantity_and_routes(cfo, query):
    import json

    r = cfo.route(query, today=TODAY)  # before: OverflowError, or amount: inf (not JSON)
    assert all("amount" not in m.suggested_params for m in r.matches)
    json.dumps(r.to_dict(), allow_nan=False)


@pytest.mark.parametrize("query, amount", [
    ("record payment of 2.3 lakh from Sharma", 230000),    # was 229999.99999999997
    ("record payment of 1.15 lakh from Sharma", 115000),
    ("0.07 crore ka kharcha record karo", 700000),
])
def test_a_decimal_times_a_multiplier_is_exact(cfo, query, amount):
    top = cfo.route(query, today=TODAY).matches[0]
    assert top.suggested_params["amount"] == amount and isinstance(top.suggested_params["amount"], int)


@pytest.mark.parametrize("query, amount, customer", [
    ("record payment 5000 from Sharma Traders", 5000, "Sharma Traders"),       # a payment's number is its amount
    ("record payment for invoice 1045 from Sharma", None, "Sharma"),          # an invoice's number is no amount
    ("record payment of 5000 from Dollar Industries", 5000, "Dollar Industries"),  # a name keeps its currency word
])
def test_the_pipeline_takes_what_the_router_read(cfo, query, amount, customer):
    r = cfo.route(query, today=TODAY)
    (step,) = r.pipeline
    assert step["params"].get("amount") == amount and step["params"]["customer"] == customer


@pytest.mark.parametrize("query, shown", [
    ("receivables above 1 lakh plus payables", {"receivables_summary", "payables_summary"}),
    ("customers owing 2 lakh + overdue invoices", {"overdue_customers"}),
])
def test_plus_between_two_asks_keeps_both(cfo, query, shown):
    # only a request to write says what its amount holds; elsewhere "plus" joins two asks
    r = cfo.route(query, today=TODAY)
    assert shown <= {m.name for m in r.matches}
    assert all(t["role"] != "stop" or t["key"] not in ("payable", "overdue") for t in r.to_dict()["tokens"])


def test_a_capitalised_misspelling_is_a_name_not_a_sure_correction(cfo):
    r = cfo.route("how much does Balanse Corp owe", today=TODAY)
    assert r.status.value != "activated"


@pytest.mark.parametrize("query, tool, param, value", [
    ("create invoice for Sharma Traders 50,000", "create_invoice", "customer", "Sharma Traders"),
    ("create invoice for Sharma 12000", "create_invoice", "customer", "Sharma"),
    ("Malhotra Fabrics ke liye 85,000 ka invoice bana do", "create_invoice", "customer", "Malhotra Fabrics"),
    ("bill entry karni hai Bluedart 12000", "create_bill", "supplier", "Bluedart"),
    ("create bill from Bluedart for 1.5 lakh", "create_bill", "supplier", "Bluedart"),
])
def test_a_writes_name_holds_no_amount(query, tool, param, value):
    # a write has no record to identify yet: an amount or a count beside the name is none of it (issue 22 review)
    r = load_router("cfo").route(query, today="2026-01-22").to_dict()
    assert r["matches"][0]["name"] == tool and r["matches"][0]["suggested_params"][param] == value


@pytest.mark.parametrize("query, value", [
    ("create invoice for Studio 54", "Studio 54"), ("create invoice for Studio 54 for 20,000", "Studio 54"),
    ("create invoice for Century 21 Realty", "Century 21 Realty"), ("buat invoice untuk Toko 99 5 juta", "Toko 99"),
])
def test_a_number_of_a_writes_name_stays(query, value):
    # only an amount written as one, or a plain number of 1,000 or more ending the name, is set aside (a review's probes)
    r = load_router("cfo").route(query, today="2026-01-22").to_dict()
    assert r["matches"][0]["suggested_params"]["customer"] == value


@pytest.mark.parametrize("query, value", [
    ("create invoice for Sharma Traders 50000 due in 30 days", "Sharma Traders"),  # days and an amount: none of the name
    ("Sharma Traders ke liye 5 invoices banao", "Sharma Traders"),                 # a count of the term
    ("create invoice for Route 66 Motors 9000", "Route 66 Motors"),                # a number inside the name stays
])
def test_counts_days_and_amounts_leave_a_writes_name(query, value):
    r = load_router("cfo").route(query, today="2026-01-22").to_dict()
    assert r["matches"][0]["suggested_params"]["customer"] == value


@pytest.mark.parametrize("query", [
    "create an invoice for Mehta Traders, 50,000, payment in 30 days",
    "Mehra Furnitures ko 40 kursiyan bheji hain, unka invoice bana do, payment 30 din mein",
    "naya invoice banao Sharma Traders ke liye 20,000 ka, payment within 15 days",
])
def test_payment_terms_in_days_ask_no_payment(query):
    # "payment in 30 days": when the invoice falls due, no payment to record (record_payment was activated)
    r = load_router("cfo").route(query, today="2026-01-22").to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == "create_invoice"


def test_a_payment_late_by_days_is_still_recorded():
    r = load_router("cfo").route("record payment of 50,000 from Sharma Traders, 10 days late", today="2026-01-22").to_dict()
    assert r["matches"][0]["name"] == "record_payment"
