"""A pattern's `order` (patterns.yaml): terms that, where the question names them, come in that order;
the first is what is asked for. "clients with unpaid invoices" asks for the clients (contact_list);
"the invoices customers still haven't paid" asks for invoices (invoice_list). Bad orders get file and
line; the editor's table and its write-back keep the key."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from routing import load_router
from routing.core.errors import LexiconError
from routing.core.lexicon import load_domain
from routing.editing import store
from ui.editor_tables import pattern_rows, row_to_pattern

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def accounting():
    return load_router("accounting")


@pytest.mark.parametrize("query, tool", [
    ("clients with unpaid invoices", "contact_list"),
    ("pelanggan yang belum bayar", "contact_list"),
    ("could u pls show the invoices customers still havent paid", "invoice_list"),
    ("faktur2 yg blm dibayar sama customer apa aja?", "invoice_list"),
    ("I should like to see all the outstanding invoices, the ones our customers have not yet settled", "invoice_list"),
])
def test_the_term_named_first_is_what_is_asked_for(accounting, query, tool):
    r = accounting.route(query, today=TODAY).to_dict()
    assert r["matches"][0]["name"] == tool
    assert r["status"] == "activated"


def test_the_evidence_says_the_order(accounting):
    r = accounting.route("clients with unpaid invoices", today=TODAY).to_dict()
    assert any("customer before invoice" in e for e in r["matches"][0]["evidence"])


@pytest.fixture()
def lex(tmp_path) -> Path:
    dest = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", dest, ignore=shutil.ignore_patterns(".history", "*.tmp"))
    return dest


@pytest.mark.parametrize("order", [["customer"], ["customer", "no_such_term"]])
def test_a_bad_order_is_reported_with_file_and_line(lex, order):
    path = lex / "accounting" / "patterns.yaml"
    text = path.read_text()
    line = "  - {terms: [customer, unpaid], tool: contact_list, params: {type: customer, balance: unpaid}, order: [customer, invoice]}"
    assert line in text
    at = text.splitlines().index(line) + 1
    path.write_text(text.replace(line, line.replace("order: [customer, invoice]", f"order: [{', '.join(order)}]")))
    with pytest.raises(LexiconError) as err:
        load_domain("accounting", lex)
    problem = err.value.problems[0]
    assert problem.file.endswith("patterns.yaml") and problem.line == at
    assert "order" in problem.message


def test_the_editor_keeps_and_writes_an_order(lex):
    snap = store.read_file("accounting", "patterns.yaml", lex)
    patterns = store.read_patterns(snap)
    rows = pattern_rows(patterns)
    ordered = [r for r in rows if r["Order"]]
    assert ordered and all(r["Order"] == "customer, invoice" for r in ordered)
    # a new pattern typed into the table with an order is written with it
    new = row_to_pattern({"Match by": "terms", "Text": "supplier, unpaid", "Tool": "contact_list", "Order": "supplier, bill"})
    edit = store.edit_patterns(snap, patterns + [new])
    assert store.save_edits("accounting", [edit], lex).status == "saved"
    on_disk = yaml.safe_load((lex / "accounting" / "patterns.yaml").read_text())["patterns"]
    assert {"terms": ["supplier", "unpaid"], "tool": "contact_list", "order": ["supplier", "bill"]} in on_disk
    assert sum(1 for p in on_disk if p.get("order") == ["customer", "invoice"]) == 3


def test_an_order_on_a_regex_is_refused_with_its_line(lex):
    path = lex / "accounting" / "patterns.yaml"
    text = path.read_text()
    path.write_text(text.replace("patterns:\n", "patterns:\n  - {regex: 'abc', tool: invoice_list, order: [customer, invoice]}\n", 1))
    at = path.read_text().splitlines().index("  - {regex: 'abc', tool: invoice_list, order: [customer, invoice]}") + 1
    with pytest.raises(LexiconError) as err:
        load_domain("accounting", lex)
    assert [(p.line, "regex" in p.message) for p in err.value.problems] == [(at, True)]
