"""Loading a domain's lexicon files from disk (validation per file: routing.core.parse; the
loaded model: routing.core.model).

A domain is a folder `lexicons/<name>/` with:
  settings.yaml  name, description, languages, thresholds, dates, vague words, scoring weights
  tools.yaml     the tools: name, description, kind, keywords, params, examples
  synonyms.yaml  canonical term -> variants in every language
  patterns.yaml  phrase / term set / regex -> tool and parameter hints
  golden.yaml    the golden corpus (read by routing.evaluate, not by the router)
Language-wide words live in `lexicons/_shared/` (words.yaml, dates.yaml).

Every problem found is reported with its file and line; nothing half-valid is returned.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

from routing.core.errors import LexiconError, Problem
from routing.core.model import Domain, LanguageWords
from routing.core.parse import (
    _check_tool_terms,
    _parse_patterns,
    _parse_settings,
    _parse_synonyms,
    _parse_tools,
    parse_language_words,
)
from routing.core.safefile import read_bounded
from routing.core.yamlio import file_label, read_yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
# ROUTING_LEXICONS points the app and CLI at another lexicon folder (tests use a scratch copy).
DEFAULT_LEXICON_ROOT = Path(os.environ.get("ROUTING_LEXICONS") or REPO_ROOT / "lexicons")
SHARED_DIR = "_shared"
DOMAIN_FILES = ("settings.yaml", "tools.yaml", "synonyms.yaml", "patterns.yaml")

def fingerprint_files(paths: list[Path], root: Path | None = None) -> str:
    """A short hash of the files' contents, each read within its walls (routing.core.safefile: never
    past the size limit, never a FIFO or device, never outside `root`); a file that cannot be read
    hashes as its reason, so fixing it changes the fingerprint."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(str(path.parent.name + "/" + path.name).encode())
        try:
            digest.update(read_bounded(path, root=root if root is not None else path.parent.parent))
        except LexiconError as exc:
            digest.update(b"<missing>" if not os.path.lexists(path) else str(exc).encode())
    return digest.hexdigest()[:16]


def domain_files(root: Path, name: str) -> list[Path]:
    """Every file whose change must rebuild the domain's router (golden corpora excluded)."""
    folder = root / name
    shared = root / SHARED_DIR
    extra = sorted(p for p in folder.glob("*.yaml") if p.name not in DOMAIN_FILES and not p.name.startswith(("golden", "heldout")))
    return [folder / f for f in DOMAIN_FILES] + extra + [shared / "words.yaml", shared / "dates.yaml", shared / "paths.yaml"]


def list_domain_names(root: Path = DEFAULT_LEXICON_ROOT) -> list[str]:
    if not root.is_dir():
        return []
    return sorted(
        p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")) and (p / "tools.yaml").exists()
    )


def load_shared_words(root: Path = DEFAULT_LEXICON_ROOT, languages=None) -> LanguageWords:
    """The words of `languages` (all of words.yaml's when None): a domain speaking English and Hindi does
    not read Indonesian's negation "tak" in "abhi tak paid" (Hindi: paid by now)."""
    path = root / SHARED_DIR / "words.yaml"
    return parse_language_words(read_yaml(path, _label(root, path), root=root), _label(root, path), languages)


_label = file_label

_PLAIN_NAME = re.compile(r"[^\W_][\w-]*")


def domain_name_problem(name: Any) -> str | None:
    """Why `name` cannot be a domain (a path, empty, not text), or None: domains are plain folder names."""
    if not isinstance(name, str) or not _PLAIN_NAME.fullmatch(name) or len(name) > 100:
        return f"{name!r} is not a domain name: use a plain name (letters, digits, '_' or '-'), not a path"
    return None


def load_domain(name: str, root: Path | str = DEFAULT_LEXICON_ROOT, *, overrides: dict[str, Any] | None = None) -> Domain:
    """Load and validate one domain. `overrides` maps a file name (e.g. "synonyms.yaml") to
    already-parsed data to use instead of the file on disk (the editor's in-memory preview)."""
    root = Path(root)
    bad_name = domain_name_problem(name)
    if bad_name:
        raise LexiconError([Problem(str(root), None, bad_name)])
    folder = root / name
    if not (folder / "tools.yaml").exists() and "tools.yaml" not in (overrides or {}):
        known = ", ".join(list_domain_names(root)) or "none"
        raise LexiconError([Problem(str(folder), None, f"unknown domain {name!r} (known: {known})")])
    overrides = overrides or {}
    problems: list[Problem] = []

    def data_of(file: str, required: bool = True) -> Any:
        if file in overrides:
            return overrides[file]
        path = folder / file
        if not path.exists():
            if required:
                problems.append(Problem(_label(root, path), None, "file is missing"))
            return None
        try:
            return read_yaml(path, _label(root, path), root=root)
        except LexiconError as exc:
            problems.extend(exc.problems)
            return None

    raw = {f: data_of(f, required=f in ("settings.yaml", "tools.yaml")) for f in DOMAIN_FILES}
    if problems:
        raise LexiconError(problems)
    fingerprint = fingerprint_files(domain_files(root, name)) + ("*" if overrides else "")
    return domain_from_data(name, raw, root=root, fingerprint=fingerprint)


def domain_from_data(
    name: str,
    raw: dict[str, Any],
    *,
    root: Path | str = DEFAULT_LEXICON_ROOT,
    fingerprint: str = "memory",
    shared: LanguageWords | None = None,
) -> Domain:
    """Validate parsed lexicon data (file name -> data) into a Domain; files need not exist."""
    root = Path(root)
    folder = root / name
    lbl = {f: _label(root, folder / f) for f in DOMAIN_FILES}
    problems: list[Problem] = []

    def attempt(fn, *args):
        try:
            return fn(*args)
        except LexiconError as exc:
            problems.extend(exc.problems)
            return None

    settings = attempt(_parse_settings, raw.get("settings.yaml") or {}, lbl["settings.yaml"], name)
    design = raw["settings.yaml"].get("design", "tools") if isinstance(raw.get("settings.yaml"), dict) else "tools"
    tools = attempt(_parse_tools, raw.get("tools.yaml"), lbl["tools.yaml"], design)
    syn = attempt(_parse_synonyms, raw.get("synonyms.yaml"), lbl["synonyms.yaml"])
    if shared is None:  # the words of the domain's own languages (every language's where it names none)
        shared = attempt(load_shared_words, root, (settings.languages or None) if settings is not None else None)
    if problems:
        raise LexiconError(problems)
    synonyms, _ = syn
    canonicals = {canon for canon, _ in synonyms}
    attempt(_check_tool_terms, tools, canonicals, lbl["tools.yaml"], raw.get("tools.yaml"))
    patterns = attempt(_parse_patterns, raw.get("patterns.yaml"), lbl["patterns.yaml"], {t.name: t for t in tools}, canonicals)
    if problems:
        raise LexiconError(problems)
    return Domain(
        name=name,
        root=folder,
        settings=settings,
        tools=tools,
        synonyms=synonyms,
        patterns=patterns or (),
        words=shared,
        fingerprint=fingerprint,
    )
