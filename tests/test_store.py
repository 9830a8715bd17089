"""The lexicon store: write-back that loses nothing, atomic, conflict-safe, with history and undo.
Every test works on a scratch copy of lexicons/; the repository's files are never touched."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from routing import RouterRegistry, Status
from routing.editing import store
from routing.cli.main import main as cli_main
from routing.core.lexicon import load_domain
from routing.core.router import Router

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"


@pytest.fixture()
def lex(tmp_path) -> Path:
    dest = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", dest, ignore=shutil.ignore_patterns(".history", "*.tmp"))
    return dest


def _bytes(root: Path, file: str) -> bytes:
    return (root / "accounting" / file).read_bytes()


def _changed_lines(before: bytes, after: bytes) -> list[tuple[str, str]]:
    a, b = before.decode().splitlines(), after.decode().splitlines()
    assert len(a) == len(b), "the number of lines changed"
    return [(x, y) for x, y in zip(a, b) if x != y]


# ---------------------------------------------------------------- byte fidelity


@pytest.mark.parametrize("file", store.EDITABLE_FILES)
def test_saving_without_a_change_leaves_every_byte(lex, file):
    snap = store.read_file("accounting", file, lex)
    if file == "synonyms.yaml":
        edit = store.edit_synonyms(snap, store.read_synonyms(snap))
    elif file == "patterns.yaml":
        edit = store.edit_patterns(snap, store.read_patterns(snap))
    else:
        th = store.read_settings(snap)["thresholds"]
        vague = store.read_settings(snap)["vague"]
        edit = store.edit_settings(snap, thresholds=th, vague_words=vague["words"], question=vague["question"])
    assert edit.new_text == snap.text
    before = _bytes(lex, file)
    result = store.save_edits("accounting", [edit], lex)
    assert result.status == "unchanged"
    assert _bytes(lex, file) == before


def test_add_synonym_changes_one_line_in_flow_style_and_keeps_comments(lex):
    before = _bytes(lex, "synonyms.yaml")
    result = store.add_synonym("accounting", "invoice", "zorblat", root=lex)
    assert result.status == "saved"
    after = _bytes(lex, "synonyms.yaml")
    [(old, new)] = _changed_lines(before, after)
    assert new.startswith("invoice: [") and new.endswith(", zorblat]") and new == old[:-1] + ", zorblat]"
    comments = [line for line in before.decode().splitlines() if line.lstrip().startswith("#")]
    assert comments and all(c in after.decode().splitlines() for c in comments)
    assert Router(load_domain("accounting", lex)).route("daftar zorblat", today=TODAY).top.name == "invoice_list"


def test_add_then_remove_restores_the_file_byte_for_byte(lex):
    before = _bytes(lex, "synonyms.yaml")
    assert store.add_synonym("accounting", "payment", "bayaran kilat", root=lex).ok
    assert _bytes(lex, "synonyms.yaml") != before
    assert store.remove_synonym("accounting", "payment", "bayaran kilat", root=lex).ok
    assert _bytes(lex, "synonyms.yaml") == before


def test_a_variant_needing_quotes_is_quoted_and_reads_back_the_same(lex):
    variant = "it's: #1"
    assert store.add_synonym("accounting", "invoice", variant, root=lex).ok
    snap = store.read_file("accounting", "synonyms.yaml", lex)
    assert store.read_synonyms(snap)["invoice"][-1] == variant


def test_threshold_edit_keeps_a_list_wrapped_over_two_lines_elsewhere(lex):
    before = _bytes(lex, "settings.yaml")
    wrapped = [line for line in before.decode().splitlines() if line.startswith("    ") and not line.lstrip().startswith("#")]
    result = store.set_thresholds("accounting", {"high": 0.8}, root=lex)
    assert result.status == "saved"
    after = _bytes(lex, "settings.yaml")
    [(old, new)] = _changed_lines(before, after)
    assert old.strip() == "high: 0.85" and new.strip() == "high: 0.8"
    assert all(line in after.decode().splitlines() for line in wrapped)
    assert load_domain("accounting", lex).settings.thresholds.high == 0.8


def test_removing_a_pattern_keeps_the_next_groups_comment(lex):
    snap = store.read_file("accounting", "patterns.yaml", lex)
    text = snap.text
    patterns = store.read_patterns(snap)
    comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    # the last pattern before the first blank line carries the next group's heading comment
    lines = text.splitlines()
    first_blank_in_list = next(i for i, line in enumerate(lines) if i > lines.index("patterns:") and not line.strip())
    victim_line = lines[first_blank_in_list - 1]
    victim = next(p for p in patterns if (p.get("phrase") or ", ".join(p.get("terms") or [])) in victim_line and p["tool"] in victim_line)
    edit = store.edit_patterns(snap, [p for p in patterns if p is not victim])
    new_lines = edit.new_text.splitlines()
    assert victim_line not in new_lines
    assert all(c in new_lines for c in comments)
    assert len(new_lines) == len(lines) - 1


def test_appending_a_pattern_adds_one_line_in_the_files_style(lex):
    snap = store.read_file("accounting", "patterns.yaml", lex)
    new = {"phrase": "tagihan kilat", "tool": "invoice_list", "params": "status=unpaid"}
    edit = store.edit_patterns(snap, store.read_patterns(snap) + [new])
    added = [line for line in edit.new_text.splitlines() if line not in snap.text.splitlines()]
    assert added == ["  - {phrase: tagihan kilat, tool: invoice_list, params: {status: unpaid}}"]
    assert store.save_edits("accounting", [edit], lex).status == "saved"


def test_merge_keeps_ours_where_only_the_formatting_differs():
    base = "a: [1, 2, 3]\nb: x\n"
    ours = "a: [1, 2,\n  3]\nb: x\n"
    theirs = "a: [1, 2, 3]\nb: y\n"
    assert store.merge_lines(base, ours, theirs) == "a: [1, 2,\n  3]\nb: y\n"


# ---------------------------------------------------------------- validation


def _problems_for(lex, **kwargs) -> list:
    if "synonyms" in kwargs:
        snap = store.read_file("accounting", "synonyms.yaml", lex)
        edit = store.edit_synonyms(snap, kwargs["synonyms"](store.read_synonyms(snap)))
    else:
        snap = store.read_file("accounting", "patterns.yaml", lex)
        edit = store.edit_patterns(snap, kwargs["patterns"](store.read_patterns(snap)))
    before = edit.snapshot.text
    result = store.save_edits("accounting", [edit], lex)
    assert result.status == "invalid"
    assert (lex / "accounting" / edit.file).read_text() == before  # nothing written
    return list(result.problems)


def test_one_variant_under_two_canonical_terms_is_refused_with_file_and_line(lex):
    problems = _problems_for(lex, synonyms=lambda t: {**t, "bill": t["bill"] + ["faktur"]})
    assert any("faktur" in p.message and "both" in p.message and p.file.endswith("synonyms.yaml") and p.line for p in problems)


def test_a_pattern_naming_an_unknown_tool_or_parameter_is_refused(lex):
    problems = _problems_for(lex, patterns=lambda ps: ps + [{"phrase": "zz top", "tool": "no_such_tool"}])
    assert any("unknown tool 'no_such_tool'" in p.message and p.line for p in problems)
    problems = _problems_for(lex, patterns=lambda ps: ps + [{"phrase": "zz top", "tool": "invoice_list", "params": {"colour": "red"}}])
    assert any("colour" in p.message for p in problems)


def test_a_catastrophic_regex_is_rejected_without_hanging(lex):
    outcome: dict = {}

    def run():
        outcome["problems"] = _problems_for(lex, patterns=lambda ps: ps + [{"regex": r"^(a+)+$", "tool": "invoice_list"}])

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)  # a hang detector, not a speed limit
    assert not worker.is_alive(), "validating a catastrophic regex hung"
    assert any("exponential time" in p.message and "(a+)+" in p.message for p in outcome["problems"])


def test_a_regex_that_does_not_compile_is_refused(lex):
    problems = _problems_for(lex, patterns=lambda ps: ps + [{"regex": "(unclosed", "tool": "invoice_list"}])
    assert any("does not compile" in p.message for p in problems)


def test_empty_and_duplicate_variants_are_refused_in_plain_words(lex):
    snap = store.read_file("accounting", "synonyms.yaml", lex)
    with pytest.raises(store.EditRejected, match="empty"):
        store.add_synonym_edit(snap, "invoice", "   ")
    with pytest.raises(store.EditRejected, match="already a variant of 'invoice'"):
        store.add_synonym_edit(snap, "invoice", "Faktur")
    with pytest.raises(store.EditRejected, match="unknown canonical term"):
        store.add_synonym_edit(snap, "invoicez", "zorblat")


# ---------------------------------------------------------------- conflicts, atomicity, history


def test_two_stores_editing_different_entries_both_land(lex):
    first = store.read_file("accounting", "synonyms.yaml", lex)
    second = store.read_file("accounting", "synonyms.yaml", lex)
    assert store.save_edits("accounting", [store.add_synonym_edit(first, "invoice", "zorblat")], lex).status == "saved"
    result = store.save_edits("accounting", [store.add_synonym_edit(second, "bill", "bon supplier")], lex)
    assert result.status == "saved", result.message  # merged into what the first one wrote
    table = store.read_synonyms(store.read_file("accounting", "synonyms.yaml", lex))
    assert "zorblat" in table["invoice"] and "bon supplier" in table["bill"]


def test_two_stores_editing_the_same_entry_the_second_is_refused_with_conflict(lex):
    first = store.read_file("accounting", "synonyms.yaml", lex)
    second = store.read_file("accounting", "synonyms.yaml", lex)
    assert store.save_edits("accounting", [store.add_synonym_edit(first, "invoice", "zorblat")], lex).status == "saved"
    written = _bytes(lex, "synonyms.yaml")
    result = store.save_edits("accounting", [store.add_synonym_edit(second, "invoice", "quuxbill")], lex)
    assert result.status == "conflict" and result.code == "CONFLICT"
    assert result.to_dict()["code"] == "CONFLICT"
    assert "changed on disk" in result.message
    assert "+invoice:" in result.diff and "zorblat" in result.diff  # what the other session wrote
    assert _bytes(lex, "synonyms.yaml") == written


def test_a_crash_between_write_and_rename_leaves_the_old_file_whole(lex, monkeypatch):
    before = _bytes(lex, "synonyms.yaml")

    def crash(*_args, **_kwargs):
        raise OSError("simulated power cut before rename")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="power cut"):
        store.add_synonym("accounting", "invoice", "zorblat", root=lex)
    assert _bytes(lex, "synonyms.yaml") == before
    assert not list((lex / "accounting").glob("*.tmp")) and not list((lex / "accounting").glob(".*.tmp"))
    assert store.history("accounting", lex) == [] or not any(e.complete for e in store.history("accounting", lex))
    load_domain("accounting", lex)  # still valid


def test_a_process_killed_after_writing_the_temp_file_leaves_a_valid_lexicon(lex):
    before = _bytes(lex, "synonyms.yaml")
    pid = os.fork()
    if pid == 0:  # the child dies the instant before os.replace, as in a kill -9
        os.replace = lambda *_a, **_k: os._exit(9)
        try:
            store.add_synonym("accounting", "invoice", "zorblat", root=lex)
        finally:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 9
    assert _bytes(lex, "synonyms.yaml") == before
    assert Router(load_domain("accounting", lex)).route("outstanding invoices", today=TODAY).top.name == "invoice_list"
    assert store.add_synonym("accounting", "invoice", "zorblat", root=lex).status == "saved"  # the lock was released


def test_history_keeps_the_previous_version_and_undo_restores_it(lex):
    before = _bytes(lex, "synonyms.yaml")
    result = store.add_synonym("accounting", "invoice", "zorblat", root=lex)
    [entry] = store.history("accounting", lex)
    assert entry.files == ("synonyms.yaml",) and "zorblat" in entry.action and not entry.undone
    assert (lex / "accounting" / ".history" / result.history_id / "synonyms.yaml").read_bytes() == before
    undo = store.undo_last_save("accounting", lex)
    assert undo.status == "saved"
    assert _bytes(lex, "synonyms.yaml") == before
    assert store.history("accounting", lex)[0].undone
    assert store.undo_last_save("accounting", lex).status == "rejected"  # nothing left to undo


def test_undo_is_refused_when_the_file_changed_after_the_save(lex):
    store.add_synonym("accounting", "invoice", "zorblat", root=lex)
    path = lex / "accounting" / "synonyms.yaml"
    hand_edited = path.read_text() + "# a note added by hand\n"
    path.write_text(hand_edited)
    result = store.undo_last_save("accounting", lex)
    assert result.status == "conflict"
    assert path.read_text() == hand_edited


def test_set_thresholds_refuses_a_stale_fingerprint(lex):
    seen = store.domain_fingerprint("accounting", lex)
    assert store.set_thresholds("accounting", {"high": 0.9}, root=lex, expected_fingerprint=seen).status == "saved"
    stale = store.set_thresholds("accounting", {"high": 0.8}, root=lex, expected_fingerprint=seen)
    assert stale.status == "conflict"
    assert load_domain("accounting", lex).settings.thresholds.high == 0.9
    assert store.set_thresholds("accounting", {"hihg": 0.8}, root=lex).status == "rejected"
    invalid = store.set_thresholds("accounting", {"low": 0.95}, root=lex)  # low above medium
    assert invalid.status == "invalid" and any("low <= medium <= high" in p.message for p in invalid.problems)


def test_after_a_save_the_registry_routes_with_the_new_lexicon(lex):
    registry = RouterRegistry(lex)
    before = registry.router("accounting").route("daftar zorblat", today=TODAY)
    assert before.status is not Status.ACTIVATED  # "zorblat" means nothing yet
    store.add_synonym("accounting", "invoice", "zorblat", root=lex)
    after = registry.router("accounting").route("daftar zorblat", today=TODAY)
    assert after.top.name == "invoice_list" and after.status in (Status.ACTIVATED, Status.MULTIPLE_MATCHES)


# ---------------------------------------------------------------- command line


def test_cli_add_and_remove_synonym_exit_codes_and_bytes(lex, capsys):
    before = _bytes(lex, "synonyms.yaml")
    args = ["--lexicons", str(lex), "lexicon"]
    assert cli_main(args + ["add-synonym", "accounting", "invoice", "zorblat"]) == 0
    assert len(_changed_lines(before, _bytes(lex, "synonyms.yaml"))) == 1
    assert cli_main(args + ["add-synonym", "accounting", "invoice", "zorblat"]) == 2
    assert "already a variant" in capsys.readouterr().err
    assert cli_main(args + ["add-synonym", "accounting", "no_such_term", "x"]) == 2
    assert "unknown canonical term" in capsys.readouterr().err
    assert cli_main(args + ["remove-synonym", "accounting", "invoice", "zorblat"]) == 0
    assert _bytes(lex, "synonyms.yaml") == before
    assert cli_main(args + ["remove-synonym", "accounting", "invoice", "zorblat"]) == 2
    (lex / "accounting" / "tools.yaml").write_text("tools: [\n")  # broken by hand
    assert cli_main(args + ["add-synonym", "accounting", "invoice", "zorblat"]) == 3
    assert "tools.yaml" in capsys.readouterr().err
    assert _bytes(lex, "synonyms.yaml") == before


def test_concurrent_cli_adds_all_land(tmp_path):
    """Eight one-shot writers at once: each reads, edits and writes under the domain lock; all land."""
    import subprocess
    import sys

    root = tmp_path / "lexicons"
    shutil.copytree(Path(__file__).resolve().parent.parent / "lexicons", root, ignore=shutil.ignore_patterns(".history"))
    procs = [
        subprocess.Popen([sys.executable, "-m", "routing", "--lexicons", str(root), "lexicon", "add-synonym", "accounting", "invoice", f"zz{i}"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for i in range(8)
    ]
    codes = [p.wait(timeout=180) for p in procs]
    assert codes == [0] * 8, [p.stderr.read() for p in procs]
    table = store.read_synonyms(store.read_file("accounting", "synonyms.yaml", root))
    assert {f"zz{i}" for i in range(8)} <= set(table["invoice"])
    assert len(store.history("accounting", root)) == 8


@pytest.mark.parametrize("name", ["../evil", "/etc", "a/b", "..", ""])
def test_a_domain_name_that_is_a_path_is_refused_before_any_file_is_read(lex, name, capsys, monkeypatch):
    evil = lex.parent / "evil"
    evil.mkdir()
    (evil / "tools.yaml").write_text("tools: [\n")  # would be exit 3 if it were read
    opened = []
    real_bytes, real_text = Path.read_bytes, Path.read_text
    monkeypatch.setattr(Path, "read_bytes", lambda self: opened.append(self) or real_bytes(self))
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: opened.append(self) or real_text(self, *a, **k))
    code = cli_main(["--lexicons", str(lex), "lexicon", "add-synonym", name, "invoice", "zorblat"])
    assert code == 2
    assert "not a domain name" in capsys.readouterr().err
    assert not [p for p in opened if "evil" in str(p) or str(p).startswith("/etc")]
    with pytest.raises(store.EditRejected):
        store.read_file(name, "synonyms.yaml", lex)


# ---------------------------------------------------------------- words with digits (issue 23)


def test_a_saved_variant_with_digits_is_read_as_that_term_not_as_an_id(lex):
    """add-synonym saved 'zvar32x0' and routing then read it as a record id: a word of letters and
    digits that the lexicon names is now read as its term."""
    assert store.add_synonym("accounting", "invoice", "zvar32x0", root=lex).status == "saved"
    router = Router(load_domain("accounting", lex))
    result = router.route("daftar zvar32x0", today=TODAY)
    assert result.top.name == "invoice_list" and "zvar32x0" not in str(result.top.suggested_params)


def test_shipped_terms_with_digits_route_as_their_terms():
    from routing import load_router

    assert load_router("cfo").route("gstr3b summary", today=TODAY).top.name == "gst_summary"
    assert load_router("powers").route("ga4 report", today=TODAY).top.name == "analytics"


def test_a_variant_of_digits_only_is_refused_with_the_reason(lex):
    before = _bytes(lex, "synonyms.yaml")
    with pytest.raises(store.EditRejected, match="no letter"):
        store.add_synonym("accounting", "invoice", "12345", root=lex)
    assert _bytes(lex, "synonyms.yaml") == before
