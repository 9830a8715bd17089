"""Coverage in a real browser: a question falls through, one click opens the editor prefilled,
saving the synonym makes it route."""
from __future__ import annotations

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

from routing import Router, Status
from routing.editing import store

from .conftest import shot, wait_idle

QUERY = "kwitansi bulan ini"  # "kwitansi" (a receipt) is no word of the accounting lexicon


def test_not_found_query_fixed_through_the_editor(page, app_url, lexicon_copy, tmp_path):
    synonyms = lexicon_copy / "accounting" / "synonyms.yaml"
    before = synonyms.read_bytes()
    questions = tmp_path / "questions.txt"
    questions.write_text(QUERY + "\noutstanding invoices\n", encoding="utf-8")
    page.goto(app_url + "/coverage")
    wait_idle(page)
    page.get_by_role("heading", name="Coverage").wait_for()
    # First the golden corpus: its fix box shows one of its own questions ...
    page.get_by_role("button", name="Run", exact=True).click()
    wait_idle(page)
    page.get_by_text("Fix a question that fell through").wait_for()
    # ... then an uploaded file: the fix box must show the new run's question, not the old one (issue 17, item 3).
    page.get_by_text("Upload a file").click()
    wait_idle(page)
    page.locator(".st-key-coverage_upload").locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(questions))
    wait_idle(page)
    page.get_by_role("button", name="Run", exact=True).click()
    wait_idle(page)
    page.get_by_text("Fix a question that fell through").wait_for()
    shot(page, "coverage_results")
    picked = page.locator('[class*="st-key-coverage_fix_pick_"]').inner_html()  # the select box shows the question and its tier
    assert QUERY in picked and "Not found" in picked
    assert "show me data" not in picked  # the golden run's first fall-through is gone
    # Choose the canonical term "invoice" for the unknown word, then hand off to the editor.
    page.locator('[class*="st-key-coverage_fix_canonical_"]').get_by_role("combobox").click()
    page.keyboard.type("invoice")
    page.keyboard.press("Enter")
    wait_idle(page)
    assert "invoice" in page.locator('[class*="st-key-coverage_fix_canonical_"]').inner_html()
    page.get_by_role("button", name="Fix in the editor").click()
    wait_idle(page)
    page.get_by_role("heading", name="Lexicon editor").wait_for()
    # The prefill lands in the form on the editor's first run; wait for it rather than read once.
    expect(page.get_by_label("New variant (any language)")).to_have_value("kwitansi", timeout=20_000)
    try:
        page.get_by_role("button", name="Add", exact=True).click()
        wait_idle(page)
        page.get_by_role("button", name="Preview impact").click()
        wait_idle(page)
        shot(page, "coverage_fix_preview")
        page.get_by_role("button", name="Save to YAML").click()
        wait_idle(page)
        page.get_by_text("Saved synonyms.yaml").wait_for()
        assert b"kwitansi" in synonyms.read_bytes()
        routed = Router.load("accounting", lexicon_copy).route(QUERY, today="2026-01-22")
        assert routed.status is not Status.NOT_FOUND and routed.top.name == "invoice_list"
    finally:
        store.undo_last_save("accounting", lexicon_copy)  # leave the shared scratch copy as found
    assert synonyms.read_bytes() == before
