"""The lexicon editor page under AppTest, over a scratch copy of lexicons/ (never the repo's)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import ui.common

ROOT = Path(__file__).resolve().parent.parent
PAGE = str(ROOT / "app_pages" / "editor.py")
TODAY = "2026-01-22"
K = "ed:accounting:"


@pytest.fixture()
def lex(tmp_path, monkeypatch) -> Path:
    dest = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", dest, ignore=shutil.ignore_patterns(".history", "*.tmp"))
    # The app's one registry (ui.common.get_registry) serves the scratch copy for this test.
    monkeypatch.setenv("ROUTING_LEXICONS", str(dest))
    ui.common.get_registry.clear()
    yield dest
    ui.common.get_registry.clear()


def _page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["today"] = __import__("datetime").date.fromisoformat(TODAY)
    return at.run()


def _texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


def test_add_a_synonym_preview_save_and_the_playground_routes_with_it(lex):
    synonyms = lex / "accounting" / "synonyms.yaml"
    before = synonyms.read_text()
    at = _page()
    assert not at.exception
    at.text_input(key=K + "add_variant").input("zorblat")
    at.button(key=K + "add_btn").click().run()
    assert "Added “zorblat” to “invoice”" in _texts(at.success)
    assert synonyms.read_text() == before  # not written before the user saves
    at.button(key=K + "preview_btn").click().run()
    assert not at.exception
    assert "routes differently" in _texts(at.success) + _texts(at.warning)
    diff = _texts(at.code)
    assert "+invoice: [" in diff and "zorblat]" in diff
    at.button(key=K + "save_btn").click().run()
    assert not at.exception
    assert "Saved synonyms.yaml" in _texts(at.success)
    changed = [(a, b) for a, b in zip(before.splitlines(), synonyms.read_text().splitlines()) if a != b]
    assert len(changed) == 1 and changed[0][1].endswith(", zorblat]")
    # the registry the playground routes with serves the saved lexicon at once
    result = ui.common.router_state("accounting").router.route("daftar zorblat", today=TODAY)
    assert result.top.name == "invoice_list"
    at.text_input(key=K + "try_query").input("daftar zorblat").run()
    assert "invoice\\_list" in _texts(at.markdown) or "invoice_list" in _texts(at.markdown)


def test_a_hand_broken_file_shows_file_line_and_problem_and_routing_keeps_the_last_good(lex):
    at = _page()
    assert ui.common.router_state("accounting").router is not None  # a good version is loaded
    (lex / "accounting" / "synonyms.yaml").write_text("invoice: [faktur, tagihan\nbill: [x]\n")
    at.button(key=K + "reload_btn").click().run()
    assert not at.exception
    shown = _texts(at.warning) + _texts(at.error) + _texts(at.markdown)
    assert "last good version" in shown
    assert "synonyms.yaml" in shown and "line 2" in shown
    state = ui.common.router_state("accounting")
    assert state.stale and state.router.route("outstanding invoices", today=TODAY).top.name == "invoice_list"


def test_a_file_changed_on_disk_meanwhile_is_not_overwritten(lex):
    synonyms = lex / "accounting" / "synonyms.yaml"
    at = _page()
    at.text_input(key=K + "add_variant").input("zorblat")
    at.button(key=K + "add_btn").click().run()
    at.button(key=K + "preview_btn").click().run()
    # Another editor changed the same entry (the invoice line): a true conflict, refused.
    hand_edit = synonyms.read_text().replace("invoice: [", "invoice: [byhand, ", 1)
    synonyms.write_text(hand_edit)
    at.button(key=K + "save_btn").click().run()
    assert not at.exception
    assert "changed on disk since you opened it" in _texts(at.error)
    assert "byhand" in _texts(at.code)
    assert synonyms.read_text() == hand_edit
    at.button(key=K + "conflict_reload").click().run()
    assert not at.exception and "changed on disk" not in _texts(at.error)


def test_a_hand_edit_elsewhere_in_the_file_is_merged_not_refused(lex):
    synonyms = lex / "accounting" / "synonyms.yaml"
    at = _page()
    at.text_input(key=K + "add_variant").input("zorblat")
    at.button(key=K + "add_btn").click().run()
    at.button(key=K + "preview_btn").click().run()
    synonyms.write_text(synonyms.read_text() + "# added by hand in another editor\n")
    at.button(key=K + "save_btn").click().run()
    assert not at.exception and "changed on disk" not in _texts(at.error)
    text = synonyms.read_text()
    assert "# added by hand in another editor" in text and "zorblat" in text


def test_coverage_handoff_prefills_the_synonym_form(lex):
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["editor_prefill"] = {
        "domain": "accounting", "kind": "synonym", "canonical": "bill", "variant": "bon pemasok", "query": "daftar bon pemasok",
    }
    at.run()
    assert not at.exception
    assert at.selectbox(key=K + "add_canon").value == "bill"
    assert at.text_input(key=K + "add_variant").value == "bon pemasok"
    assert "editor_prefill" not in at.session_state
    at.button(key=K + "add_btn").click().run()
    assert at.text_area(key=K + "extra_queries").value == "daftar bon pemasok"


def test_undo_the_last_save_from_the_history_tab(lex):
    synonyms = lex / "accounting" / "synonyms.yaml"
    before = synonyms.read_bytes()
    at = _page()
    at.text_input(key=K + "add_variant").input("zorblat")
    at.button(key=K + "add_btn").click().run()
    at.button(key=K + "preview_btn").click().run()
    at.button(key=K + "save_btn").click().run()
    assert synonyms.read_bytes() != before
    at.button(key=K + "undo_btn").click().run()
    assert not at.exception
    assert "Undid the last save" in _texts(at.success)
    assert synonyms.read_bytes() == before


def test_after_a_conflict_my_edit_is_reapplied_on_the_fresh_file_and_no_stale_added(lex):
    synonyms = lex / "accounting" / "synonyms.yaml"
    at = _page()
    at.text_input(key=K + "add_variant").input("zorblat")
    at.button(key=K + "add_btn").click().run()
    at.button(key=K + "preview_btn").click().run()
    # Another session saves a variant of its own meanwhile.
    other = AppTest.from_file(PAGE, default_timeout=60).run()
    other.text_input(key=K + "add_variant").input("quuxbill")
    other.button(key=K + "add_btn").click().run()
    other.button(key=K + "preview_btn").click().run()
    other.button(key=K + "save_btn").click().run()
    assert "quuxbill" in synonyms.read_text()
    at.button(key=K + "save_btn").click().run()
    assert "changed on disk since you opened it" in _texts(at.error)
    assert "Added “zorblat”" not in _texts(at.success)  # no stale "Added" beside the conflict
    at.button(key=K + "conflict_rebase").click().run()
    assert not at.exception
    at.button(key=K + "preview_btn").click().run()
    at.button(key=K + "save_btn").click().run()
    assert not at.exception and "Saved synonyms.yaml" in _texts(at.success)
    text = synonyms.read_text()
    assert "zorblat" in text and "quuxbill" in text  # both edits kept


def test_undo_says_whose_save_it_would_undo(lex):
    synonyms = lex / "accounting" / "synonyms.yaml"
    other = _page()
    other.text_input(key=K + "add_variant").input("quuxbill")
    other.button(key=K + "add_btn").click().run()
    other.button(key=K + "preview_btn").click().run()
    other.button(key=K + "save_btn").click().run()
    saved = synonyms.read_bytes()
    me = _page()
    # A reload starts a new session too: said plainly, never "someone else's work" (issue 24, item 12).
    assert "made before this browser session began" in _texts(me.info) and "someone else" not in _texts(me.info)
    assert me.button(key=K + "undo_btn").label == "Undo the last save"
    assert synonyms.read_bytes() == saved
    assert other.button(key=K + "undo_btn").label == "Undo my last save"
