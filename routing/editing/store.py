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

Safety: every save validates the whole domain with the edit in memory (routing.lexicon, the same
validator the router uses); refuses when a file changed on disk since it was read (content digest);
writes a temporary file beside the target, flushes, fsyncs and os.replace()s it; keeps the previous
version in lexicons/<domain>/.history/ so the last save can be undone.
"""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

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
    _domain_lock,
    _root,
    atomic_write,
    digest_text,
    domain_fingerprint,
    read_file,
    unified_diff,
)
from routing.editing.history import (
    HistoryEntry,
    _new_record,
    _prune_history,
    history,
    undo_last_save,
)
from routing.editing.roundtrip import merge_lines

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
    "edit_settings",
    "edit_synonyms",
    "history",
    "merge_lines",
    "read_file",
    "read_patterns",
    "read_settings",
    "read_synonyms",
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


def save_edits(
    domain: str,
    edits: list[FileEdit],
    root: Path | str | None = None,
    *,
    action: str | None = None,
    source: str = "editor",
) -> SaveResult:
    """Validate the edits together, refuse if any file changed on disk since its snapshot, keep
    the previous versions in history, then write each changed file atomically."""
    root = _root(root)
    changed = [e for e in edits if e.changed]
    if not changed:
        return SaveResult("unchanged", "Nothing to save: the files already say this.", fingerprint=domain_fingerprint(domain, root))
    problems = validate_edits(domain, edits, root)
    if problems:
        return SaveResult(
            "invalid",
            f"Not saved: {len(problems)} problem{'s' if len(problems) != 1 else ''} to fix first.",
            tuple(e.file for e in changed),
            problems=tuple(problems),
        )
    folder = root / domain
    with _domain_lock(folder):
        conflicts = [(e, _disk_text(e.path)) for e in changed if _disk_digest(e.path) != e.snapshot.digest]
        if conflicts:
            diff = "".join(
                unified_diff(e.snapshot.text, now, e.snapshot.label, new_label=e.snapshot.label + " (on disk now)") for e, now in conflicts
            )
            names = ", ".join(e.file for e, _ in conflicts)
            return SaveResult(
                "conflict",
                f"Not saved: {names} changed on disk since you opened it (a hand edit or another session). "
                "Reload to start from the current version; nothing was overwritten.",
                tuple(e.file for e, _ in conflicts),
                diff=diff,
            )
        record = _new_record(folder)
        meta = {"action": action or "; ".join(e.action for e in changed if e.action) or "edit", "source": source, "files": {}}
        for e in changed:
            if e.snapshot.exists:
                (record / e.file).write_bytes(e.snapshot.text.encode("utf-8"))
            meta["files"][e.file] = {"before": e.snapshot.digest, "after": digest_text(e.new_text)}
        for e in changed:
            atomic_write(e.path, e.new_text)
        # The record counts only once every file is written: a crash before this leaves no undo
        # entry that would not match the files.
        atomic_write(record / "save.json", json.dumps(meta, ensure_ascii=False, indent=2))
        _prune_history(folder)
    return SaveResult(
        "saved",
        f"Saved {', '.join(e.file for e in changed)}.",
        tuple(e.file for e in changed),
        diff="".join(e.diff() for e in changed),
        history_id=record.name,
        fingerprint=domain_fingerprint(domain, root),
    )


# ---------------------------------------------------------------- one-call conveniences


def _current_domain_must_load(domain: str, root: Path) -> None:
    """The CLI's exit 3: the lexicon on disk is already invalid, so no edit can be judged."""
    load_domain(domain, root)


def add_synonym(domain: str, canonical: str, variant: str, *, root: Path | str | None = None, source: str = "cli") -> SaveResult:
    return _synonym_edit_with_retry(domain, root, source, lambda snap: add_synonym_edit(snap, canonical, variant))


def remove_synonym(domain: str, canonical: str, variant: str, *, root: Path | str | None = None, source: str = "cli") -> SaveResult:
    return _synonym_edit_with_retry(domain, root, source, lambda snap: remove_synonym_edit(snap, canonical, variant))


CLI_CONFLICT_RETRIES = 10


def _synonym_edit_with_retry(domain: str, root: Path | str | None, source: str, make_edit) -> SaveResult:
    """A one-shot edit (the CLI) has no person to reload for: when another writer got there first,
    it re-reads the file and applies the same edit to the new text, a few times at most."""
    root = _root(root)
    _current_domain_must_load(domain, root)
    result = None
    for attempt in range(CLI_CONFLICT_RETRIES):
        edit = make_edit(read_file(domain, "synonyms.yaml", root))
        result = save_edits(domain, [edit], root, action=edit.action, source=source)
        if result.status != "conflict":
            return result
        time.sleep(0.05 * (attempt + 1) + random.random() * 0.05)  # let the other writer finish
    return result


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
