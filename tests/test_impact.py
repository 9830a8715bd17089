"""Impact preview: the golden corpus routed with and without an edit held in memory."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from routing.editing import store
from routing.editing.impact import preview_impact

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def lex(tmp_path) -> Path:
    dest = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", dest, ignore=shutil.ignore_patterns(".history", "*.tmp"))
    return dest


def _synonym_edit(lex: Path, change) -> store.FileEdit:
    snap = store.read_file("accounting", "synonyms.yaml", lex)
    table = store.read_synonyms(snap)
    change(table)
    return store.edit_synonyms(snap, table)


def _move_outstanding_to_overdue(table):
    table["unpaid"].remove("outstanding")
    table["overdue"].append("outstanding")


def test_a_harmful_edit_shows_the_regression_with_before_and_after(lex):
    edit = _synonym_edit(lex, _move_outstanding_to_overdue)
    report = preview_impact("accounting", [edit], root=lex)
    assert report.valid and report.regressed >= 1
    change = next(c for c in report.changes if c.query == "outstanding invoices")
    assert change.kind == "regressed"
    assert dict(change.before.params)["status"] == "unpaid" and dict(change.after.params)["status"] == "overdue"
    assert "regressed" in report.summary and report.summary.startswith(f"{len(report.changes)} quer")
    assert report.passed_after < report.passed_before
    assert "-unpaid:" in report.diffs["synonyms.yaml"] and "+overdue:" in report.diffs["synonyms.yaml"]
    assert (lex / "accounting" / "synonyms.yaml").read_text() == edit.snapshot.text  # nothing written


def test_an_edit_that_repairs_the_lexicon_shows_what_it_fixed(lex):
    assert store.remove_synonym("accounting", "unpaid", "outstanding", root=lex).ok
    edit = _synonym_edit(lex, lambda t: t["unpaid"].append("outstanding"))
    report = preview_impact("accounting", [edit], root=lex)
    fixed = {c.query for c in report.changes if c.kind == "fixed"}
    assert "outstanding invoices" in fixed
    assert report.regressed == 0 and report.passed_after > report.passed_before
    assert "fixed" in report.summary


def test_a_new_variant_is_probed_even_if_the_corpus_lacks_it(lex):
    edit = _synonym_edit(lex, lambda t: t["invoice"].append("zorblat"))
    report = preview_impact("accounting", [edit], root=lex, extra_queries=["daftar zorblat"])
    by_query = {c.query: c for c in report.changes}
    assert by_query["daftar zorblat"].after.top == "invoice_list"
    assert by_query["daftar zorblat"].before.top != "invoice_list" or by_query["daftar zorblat"].before.status != by_query["daftar zorblat"].after.status
    assert "zorblat" in by_query and by_query["zorblat"].after.top == "invoice_list"
    assert report.regressed == 0


def test_an_invalid_edit_reports_problems_instead_of_routing(lex):
    edit = _synonym_edit(lex, lambda t: t["bill"].append("faktur"))
    report = preview_impact("accounting", [edit], root=lex)
    assert not report.valid and not report.changes
    assert any(p.file.endswith("synonyms.yaml") and p.line and "faktur" in p.message for p in report.problems)
    assert "problem" in report.summary


def test_no_change_reports_that_nothing_routes_differently(lex):
    edit = _synonym_edit(lex, lambda t: None)
    report = preview_impact("accounting", [edit], root=lex)
    assert report.changes == () and report.summary.startswith("No query routes differently")
    assert report.n_queries > 50 and report.source == "golden.yaml"
