"""The lexicon editor in a real browser: add a synonym through the UI, preview, save."""
from __future__ import annotations

from routing.editing import store

from .conftest import shot, wait_idle


def test_add_a_synonym_through_the_ui(page, app_url, lexicon_copy):
    synonyms = lexicon_copy / "accounting" / "synonyms.yaml"
    before = synonyms.read_bytes()
    page.goto(app_url + "/editor")
    wait_idle(page)
    page.get_by_role("heading", name="Lexicon editor").wait_for()
    page.get_by_label("New variant (any language)").fill("zorblat")
    page.get_by_role("button", name="Add", exact=True).click()
    wait_idle(page)
    page.get_by_text("Added “zorblat” to “invoice”").wait_for()
    page.get_by_role("button", name="Preview impact").click()
    wait_idle(page)
    page.get_by_text("routes differently").first.wait_for()
    assert "zorblat]" in page.locator('[data-testid="stCode"]').first.inner_text()
    shot(page, "editor_preview")
    page.get_by_role("button", name="Save to YAML").click()
    wait_idle(page)
    page.get_by_text("Saved synonyms.yaml").wait_for()
    try:
        after = synonyms.read_bytes()
        changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
        assert len(changed) == 1 and changed[0][1].endswith(b", zorblat]")
        page.get_by_label("A question").fill("daftar zorblat")
        page.get_by_label("A question").press("Enter")
        wait_idle(page)
        page.get_by_text("invoice_list").first.wait_for()
        shot(page, "editor_saved")
    finally:
        store.undo_last_save("accounting", lexicon_copy)  # leave the shared scratch copy as found
    assert synonyms.read_bytes() == before
