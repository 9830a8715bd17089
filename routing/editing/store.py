"""Writing lexicon edits back to YAML without losing what a person wrote.

The editor page, the threshold tuner and `python -m routing lexicon ...` all write through here.

    snap = read_file("accounting", "synonyms.yaml")          # the text as loaded, with its digest
    edit = edit_synonyms(snap, {"invoice": [..., "zorblat"]})  # the new text, in memory only
    edit.diff()                                                # the unified diff that will be written
    result = save_edits("accounting", [edit])                 # validated, conflict-checked, atomic

How nothing is lost: ruamel.yaml applies the edit to a round-trip document (comments, key order,
quoting and flow style survive), then a three-way merge takes only the lines the edit changed
and applies them to the original text, so lines ruamel would re-format (a flow list wrapped over
several lines) stay byte for byte as they were unless the edit touches them. The merged text is
re-parsed and must mean exactly what the edited document means, or the plain dump is used.

Safety: a save holds the domain lock from reading the files on disk to writing them; validates the
whole domain with the edit in memory (routing.core.lexicon, the same validator the router uses);
when a file changed on disk since it was read, merges the edit into the new text if the two changed
different lines, and refuses with CONFLICT if they changed the same place; writes the history record
(lexicons/<domain>/.history/) before replacing any file, so the last save can always be undone;
writes a temporary file beside the target, flushes, fsyncs and os.replace()s it. The one-call
conveniences (the CLI) read, edit and write under the lock, so concurrent writers all land.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

from routing.core.errors import LexiconError
from routing.core.lexicon import load_domain
from routing.editing.edits import (
    add_synonym_edit,
    edit_patterns,
    edit_settings,
    edit_synonyms,
    read_patterns,
    read_settings,
    read_synonyms,
    remove_synonym_edit,
    synonym_problem,
    validate_edits,
)
from routing.editing.files import (
    EDITABLE_FILES,
    THRESHOLD_KEYS,
    EditRejected,
    FileEdit,
    FileSnapshot,
    SaveResult,
    _disk_digest,
    _disk_text,
    _root,
    atomic_write,
    digest_text,
    domain_fingerprint,
    read_file as _read_file,
    require_plain_name,
    unified_diff,
)
from routing.editing.history import (
    HistoryEntry,
    _prune_history,
    discard_record,
    finish_record,
    history,
    locked_domain,
    recover_if_idle,
    undo_last_save,
    write_record,
)
from routing.editing.roundtrip import merge_lines, merge_three

__all__ = [
    "EDITABLE_FILES",
    "THRESHOLD_KEYS",
    "add_synonym_edit",
    "remove_synonym_edit",
    "EditRejected",
    "FileEdit",
    "FileSnapshot",
    "HistoryEntry",
    "SaveResult",
    "add_synonym",
    "atomic_write",
    "domain_fingerprint",
    "edit_patterns",
    "edit_file_locked",
    "edit_settings",
    "edit_synonyms",
    "history",
    "merge_lines",
    "read_file",
    "read_patterns",
    "read_settings",
    "read_synonyms",
    "require_plain_name",
    "remove_synonym",
    "save_edits",
    "set_patterns",
    "set_synonyms",
    "set_thresholds",
    "set_vague",
    "synonym_problem",
    "undo_last_save",
    "validate_edits",
]


def read_file(domain: str, file: str, root: Path | str | None = None) -> FileSnapshot:
    """One lexicon file as it is now, for an edit. What a writer that died mid-save left behind
    (temp files, a pending history record) is settled first when no writer is at work."""
    require_plain_name(domain)
    root = _root(root)
    if (root / domain).is_dir():
        recover_if_idle(root / domain)
    return _read_file(domain, file, root)


def save_edits(
    domain: str,
    edits: list[FileEdit],
    root: Path | str | None = None,
    *,
    action: str | None = None,
    source: str = "editor",
) -> SaveResult:
    """Save edits made from snapshots. Under the domain lock: re-read each file; when another
    writer changed it since the snapshot, merge this edit into the new text if the two touched
    different lines (else refuse: status "conflict", code CONFLICT, nothing written); validate the
    whole domain with the result; write the history record; replace each file atomically."""
    root = _root(root)
    require_plain_name(domain)
    changed = [e for e in edits if e.changed]
    if not changed:
        return SaveResult("unchanged", "Nothing to save: the files already say this.", fingerprint=domain_fingerprint(domain, root))
    with locked_domain(root / domain):
        current, conflicts = [], []
        for e in changed:
            now = _disk_text(e.path)
            if _disk_digest(e.path) == e.snapshot.digest:
                current.append(e)
                continue
            merged = merge_three(e.snapshot.text, e.new_text, now) if e.snapshot.exists else None
            if merged is None:
                conflicts.append((e, now))
            else:
                snap = replace(e.snapshot, text=now, digest=_disk_digest(e.path))
                current.append(FileEdit(snap, merged, e.action))
        if conflicts:
            diff = "".join(
                unified_diff(e.snapshot.text, now, e.snapshot.label, new_label=e.snapshot.label + " (on disk now)") for e, now in conflicts
            )
            names = ", ".join(e.file for e, _ in conflicts)
            return SaveResult(
                "conflict",
                f"Not saved: {names} changed on disk since you opened it, in the same place you edited "
                "(a hand edit or another session). Reload to start from the current version; nothing was overwritten.",
                tuple(e.file for e, _ in conflicts),
                diff=diff,
            )
        return _commit_locked(domain, current, root, action=action, source=source)


def _commit_locked(domain: str, edits: list[FileEdit], root: Path, *, action: str | None, source: str) -> SaveResult:
    """Validate and write edits whose snapshots are the files on disk now (the lock is held)."""
    changed = [e for e in edits if e.changed]
    if not changed:
        return SaveResult("unchanged", "Nothing to save: the files already say this.", fingerprint=domain_fingerprint(domain, root))
    problems = validate_edits(domain, changed, root)
    if problems:
        return SaveResult(
            "invalid",
            f"Not saved: {len(problems)} problem{'s' if len(problems) != 1 else ''} to fix first.",
            tuple(e.file for e in changed),
            problems=tuple(problems),
        )
    folder = root / domain
    meta = {"action": action or "; ".join(e.action for e in changed if e.action) or "edit", "source": source, "files": {}}
    for e in changed:
        meta["files"][e.file] = {"before": e.snapshot.digest, "after": digest_text(e.new_text)}
    # The record is whole (and marked pending) before any file is replaced: a crash at any point
    # is settled by the next writer (completed or rolled back), so the last save can be undone.
    record = write_record(folder, meta, {e.file: e.snapshot.text if e.snapshot.exists else None for e in changed})
    try:
        for e in changed:
            atomic_write(e.path, e.new_text)
    except BaseException:
        try:
            discard_record(folder, record)
        except Exception:  # noqa: BLE001 - the next writer's recovery settles it
            pass
        raise
    finish_record(record)
    _prune_history(folder)
    return SaveResult(
        "saved",
        f"Saved {', '.join(e.file for e in changed)}.",
        tuple(e.file for e in changed),
        diff="".join(e.diff() for e in changed),
        history_id=record.name,
        fingerprint=domain_fingerprint(domain, root),
    )


def edit_file_locked(
    domain: str, file: str, make_edit: Callable[[FileSnapshot], FileEdit], root: Path | str | None = None, *, source: str = "cli"
) -> SaveResult:
    """Read, edit, validate and write one file, all under the domain lock: concurrent writers of
    different entries never refuse each other (each edits the file as the previous one left it)."""
    root = _root(root)
    require_plain_name(domain)
    _current_domain_must_load(domain, root)
    with locked_domain(root / domain):
        edit = make_edit(_read_file(domain, file, root))
        return _commit_locked(domain, [edit], root, action=edit.action, source=source)


# ---------------------------------------------------------------- one-call conveniences


def _current_domain_must_load(domain: str, root: Path) -> None:
    """The CLI's exit 3: the lexicon on disk is already invalid, so no edit can be judged."""
    load_domain(domain, root)


def add_synonym(domain: str, canonical: str, variant: str, *, root: Path | str | None = None, source: str = "cli") -> SaveResult:
    return edit_file_locked(domain, "synonyms.yaml", lambda snap: add_synonym_edit(snap, canonical, variant), root, source=source)


def remove_synonym(domain: str, canonical: str, variant: str, *, root: Path | str | None = None, source: str = "cli") -> SaveResult:
    return edit_file_locked(domain, "synonyms.yaml", lambda snap: remove_synonym_edit(snap, canonical, variant), root, source=source)


def set_synonyms(domain: str, mapping: dict[str, list[str]], *, root: Path | str | None = None, source: str = "editor") -> SaveResult:
    snap = read_file(domain, "synonyms.yaml", root)
    return save_edits(domain, [edit_synonyms(snap, mapping)], root, source=source)


def set_patterns(domain: str, patterns: list[dict], *, root: Path | str | None = None, source: str = "editor") -> SaveResult:
    snap = read_file(domain, "patterns.yaml", root)
    return save_edits(domain, [edit_patterns(snap, patterns)], root, source=source)


def set_vague(
    domain: str, *, words: list[str] | None = None, question: str | None = None, root: Path | str | None = None, source: str = "editor"
) -> SaveResult:
    snap = read_file(domain, "settings.yaml", root)
    edit = edit_settings(snap, vague_words=words, question=question, action="edit vague words / clarifying question")
    return save_edits(domain, [edit], root, source=source)


def set_thresholds(
    domain: str,
    values: dict[str, float],
    *,
    root: Path | str | None = None,
    expected_fingerprint: str | None = None,
    source: str = "tuner",
) -> SaveResult:
    """Write thresholds (any of high / medium / low / margin) into settings.yaml, comments kept.

    `expected_fingerprint` is what the caller saw when it read the thresholds: either the domain
    fingerprint (RouterState.fingerprint / domain_fingerprint) or settings.yaml's digest
    (read_file(...).digest). If the files changed since, the save is refused ("conflict")."""
    root = _root(root)
    try:
        snap = read_file(domain, "settings.yaml", root)
        if expected_fingerprint is not None and expected_fingerprint not in (snap.digest, domain_fingerprint(domain, root)):
            return SaveResult(
                "conflict",
                "Not saved: the lexicon changed on disk since these thresholds were read. Reload and try again.",
                ("settings.yaml",),
            )
        edit = edit_settings(snap, thresholds=dict(values), action="set thresholds " + ", ".join(f"{k}={v}" for k, v in values.items()))
    except EditRejected as exc:
        return SaveResult("rejected", str(exc), ("settings.yaml",))
    except LexiconError as exc:
        return SaveResult("invalid", "Not saved: settings.yaml does not parse.", ("settings.yaml",), problems=tuple(exc.problems))
    return save_edits(domain, [edit], root, action=edit.action, source=source)
