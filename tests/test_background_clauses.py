"""Statements made before the ask (words.yaml `request`, `anaphora`; routing.core.framing.background_clauses).

"Mrs Pemberton rang asking about something we billed her for. Could you find the invoices made out to
her?" asks for invoices: the statement's terms ("billed") and verbs are read as stop words, its names,
amounts and dates kept (a date only where the ask names none). Kept whole where the ask refers back
("...; please enter it in the books"), names no term of its own, or follows a comma without opening its
clause with the request ("overdue customers list, biggest amount first pls"). A name typed with a capital
inside its sentence stays ("There is an old MariaDB database ... Would you kindly run a query").
"""
from __future__ import annotations

import pytest

from routing import load_router
from routing.core.errors import LexiconError
from routing.core.lexicon import load_domain

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo", "powers")}


def _route(routers, domain, q):
    return routers[domain].route(q, today=TODAY).to_dict()


def _read(r):
    return [t["text"] for t in r["tokens"] if t["role"] != "stop"]


@pytest.mark.parametrize("domain, query, tool", [
    ("accounting", "Mrs Pemberton rang this morning asking about something we billed her for. Could you find the invoices made out to Mrs Joan Pemberton, please?", "invoice_search"),
    ("accounting", "My manager wants to tidy up the receivables file before the audit next week, so I was wondering if you could list all the invoices we issued last month?", "invoice_list"),
    ("accounting", "td ada bayar supplier gede, trus gaji jg udah keluar... kas kita aman ga? tolong cek arus kas bulan ini", "financial_cash_flow"),
    ("cfo", "We're planning a customer appreciation dinner and want to invite the biggest accounts. Who are our top 10 customers by sales this financial year?", "top_customers"),
])
def test_the_ask_routes_not_the_story_before_it(routers, domain, query, tool):
    r = _route(routers, domain, query)
    assert r["status"] == "activated"
    assert r["matches"][0]["name"] == tool


def test_a_statements_date_gives_way_to_the_asks(routers):
    r = _route(routers, "accounting", "My manager wants to tidy up the receivables file before the audit next week, "
                                      "so I was wondering if you could list all the invoices we issued last month?")
    params = r["matches"][0]["suggested_params"]
    assert (params["date_from"], params["date_to"]) == ("2025-12-01", "2025-12-31")
    assert "receivable" not in _read(r)


def test_names_and_amounts_of_the_statement_stay_for_the_ask(routers):
    r = _route(routers, "cfo", "Received 75,000 from Sinha Traders against INV-1450. Please record the payment.")
    assert r["matches"][0]["name"] == "record_payment"
    read = _read(r)
    assert "sinha" in read and "75,000" in read and "1450" in read


@pytest.mark.parametrize("domain, query, tool, kept", [
    # the ask refers back: the statement is what it asks about
    ("cfo", "We've just received a purchase bill from Tata Steel for 5.6 lakh; please enter it in the books.", "create_bill", "purchase bill"),
    # a request at a comma that does not open its clause: the first clause names what is asked for
    ("cfo", "overdue customers list, biggest amount first pls", "overdue_customers", "overdue"),
    # a name with a capital inside its sentence is what the statement is about
    ("powers", "There is an old MariaDB database with the stock records in it. Would you kindly run a query to count the rows in the items table?", "mysql", "mariadb"),
])
def test_the_statement_is_kept_where_the_ask_leans_on_it(routers, domain, query, tool, kept):
    r = _route(routers, domain, query)
    assert r["matches"][0]["name"] == tool
    assert kept in _read(r)


def test_a_question_of_one_clause_is_untouched(routers):
    r = _route(routers, "accounting", "could you show me the supplier bills we received this month?")
    assert "supplier" in _read(r) and "bill" in _read(r)


def test_a_bad_request_template_gets_file_and_line(tmp_path):
    import shutil
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent / "lexicons"
    dest = tmp_path / "lexicons"
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns(".history", "*.tmp"))
    words = dest / "_shared" / "words.yaml"
    text = words.read_text()
    good = '    - "could|can|would|will you"'
    assert good in text
    section = text.splitlines().index("  request:") + 1  # English's request section, the first
    words.write_text(text.replace(good, '    - "could|| you"'))
    with pytest.raises(LexiconError) as err:
        load_domain("accounting", dest)
    assert [(p.line, "request" in p.message) for p in err.value.problems if p.file.endswith("words.yaml")] == [(section, True)]


@pytest.mark.parametrize("domain, query, tool", [
    # a first clause that asks (a verb of the domain opens it, or it only names what is asked for) is no background
    ("cfo", "Create an invoice for Acme for 50,000. Please add GST.", "create_invoice"),
    ("accounting", "List unpaid invoices. Please include the customer names.", "invoice_list"),
    ("accounting", "Laporan laba rugi bulan ini. Bisa dikirim ke email saya?", "financial_profit_loss"),
    ("cfo", "Revenue by customer for last year. Could you show the top 10?", "top_customers"),
    ("accounting", "For suppliers, could you list the unpaid invoices?", "bill_list"),
    ("accounting", "Untuk pemasok, tolong tampilkan faktur yang belum dibayar.", "bill_list"),
    ("accounting", "Regarding supplier payments: could you list what's overdue?", "payables_aging"),
    # an ask that adds to the first ("also", "bhi") keeps it: both tools stay offered
    ("cfo", "I need the balance sheet. Can you also pull the cash position?", "balance_sheet"),
])
def test_a_clause_that_asks_is_no_background(routers, domain, query, tool):
    r = _route(routers, domain, query)
    assert r["matches"][0]["name"] == tool


def test_an_added_ask_keeps_both_tools(routers):
    r = _route(routers, "cfo", "March ka balance sheet chahiye. Kripya cash flow bhi dikhao.")
    assert {m["name"] for m in r["matches"][:2]} == {"balance_sheet", "cash_flow_statement"}


def test_a_dropped_date_names_nothing(routers):
    r = _route(routers, "cfo", "The audit is in March. Could you show the bank balance for December?")
    params = r["matches"][0]["suggested_params"]
    assert r["matches"][0]["name"] == "bank_balance"
    assert params == {"as_of": "2025-12-31"}


def test_a_comparison_date_before_a_comma_stays(routers):
    r = _route(routers, "cfo", "Versus last year, could you show gross margin for this year?")
    assert [d["text"] for d in r["dates"]] == ["last year", "this year"]


def test_a_tool_named_in_the_statement_stays(routers):
    r = _route(routers, "powers", "the orders table in mysql is big. could you count the rows?")
    assert r["matches"][0]["name"] == "mysql"


def test_a_suffix_that_refers_back_keeps_the_statement(routers):
    r = _route(routers, "accounting", "Saya sudah kirim faktur ke PT Sinar. Mohon cek pembayarannya.")
    assert "faktur" in _read(r)


def test_a_statements_term_matches_no_phrase_pattern(routers):
    # "accounts payable" in the statement read as "what do I owe" made payables_aging the answer
    r = _route(routers, "accounting", "Accounts payable is a bit behind and I was asked to help: could you show me "
                                      "the supplier bills we received this month?")
    assert r["matches"][0]["name"] == "bill_list"
    assert not any("owe" in e for e in r["matches"][0]["evidence"] + r["matches"][1]["evidence"])


def test_a_question_mark_ends_the_ask_after_a_statement(routers):
    r = _route(routers, "cfo", "Our CFO is travelling and messaged me to check something quickly: how much cash do we "
                               "have right now across cash and bank?")
    assert "travel" not in _read(r)


@pytest.mark.parametrize("domain, query, tool, params", [
    # a decimal point parts no clause: a one-clause ask keeps its name and amount
    ("cfo", "Shree Cement ka 1.8 lakh ka purchase bill enter karo", "create_bill", {"supplier": "Shree Cement"}),
    # a clause of terms and names only names what is asked for ("Which are unpaid?" asks about it)
    ("accounting", "Invoices for PT Maju Jaya in December. Which are still unpaid?", "invoice_list",
     {"customer": "PT Maju Jaya", "status": "unpaid", "date_from": "2025-12-01", "date_to": "2025-12-31"}),
    ("cfo", "Tata Steel ke bills December ke. Kaunse unpaid hain?", "unpaid_bills", {"supplier": "Tata Steel"}),
    # a write's statement holds the record's own date; "today" says when to write it
    ("cfo", "Received 75k from Sinha Traders on 15 January. Please record the payment today.", "record_payment",
     {"date": "2026-01-15", "customer": "Sinha Traders", "amount": 75000}),
])
def test_the_statement_keeps_what_the_ask_needs(routers, domain, query, tool, params):
    r = _route(routers, domain, query)
    assert r["matches"][0]["name"] == tool
    got = r["matches"][0]["suggested_params"]
    assert {k: got.get(k) for k in params} == params


@pytest.mark.parametrize("query", [
    "Context: a customer rang saying she was billed twice for December. Could you find the invoices made out to Rina Wijaya?",
    "Update: the supplier says their bill was paid late. Could you find the invoices made out to Rina Wijaya?",
])
def test_a_capitalised_label_opening_the_text_is_no_name(query):
    # "Context:" is capitalised because it opens the text, not because it names someone: the statement
    # after it is background, its "billed" / "bill" no ask
    r = load_router("accounting").route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == "invoice_search"
