"""The lexicon editor's draft, per domain, in st.session_state: the files as loaded (snapshots), a
committed draft per section and the "effective" draft = committed + what the table widgets hold;
the callbacks that change it (add a variant or term, remove variants) and the settings draft.
Actions commit the effective draft first, so nothing typed is lost."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from routing.core.errors import LexiconError
from routing.editing import store
from ui.common import get_registry, router_state
from ui.editor_tables import (
    split_list,
    variant_problem,
)

ss = st.session_state
THRESHOLD_HELP = {
    "high": "Activated needs at least this confidence (and the margin).",
    "medium": "Multiple matches from this confidence up.",
    "low": "Weak matches from this confidence up; below it: not found.",
    "margin": "How far the top match must lead the runner-up to be activated alone.",
}


def _k(domain: str, name: str) -> str:
    return f"ed:{domain}:{name}"


def lexicon_root() -> Path:
    """The folder the app routes over (the registry's), so a save is what the playground sees."""
    return get_registry().root


# ---------------------------------------------------------------- draft state


def load(domain: str, *, force: bool = False) -> None:
    """Read the editable files into snapshots and committed drafts (again, when forced)."""
    if not force and _k(domain, "snaps") in ss:
        return
    snaps: dict[str, store.FileSnapshot] = {}
    errors: dict[str, list] = {}
    parsed: dict[str, object] = {}
    readers = {"synonyms.yaml": store.read_synonyms, "patterns.yaml": store.read_patterns, "settings.yaml": store.read_settings}
    for file, reader in readers.items():
        try:
            snap = store.read_file(domain, file, lexicon_root())
            parsed[file] = reader(snap)
            snaps[file] = snap
        except LexiconError as exc:
            errors[file] = list(exc.problems)
    ss[_k(domain, "snaps")] = snaps
    ss[_k(domain, "load_errors")] = errors
    ss[_k(domain, "syn")] = parsed.get("synonyms.yaml", {})
    ss[_k(domain, "syn0")] = parsed.get("synonyms.yaml", {})
    ss[_k(domain, "pat")] = parsed.get("patterns.yaml", [])
    ss[_k(domain, "pat0")] = parsed.get("patterns.yaml", [])
    ss[_k(domain, "set0")] = parsed.get("settings.yaml", {})
    for section in ("syn_ver", "pat_ver", "set_ver"):
        ss[_k(domain, section)] = ss.get(_k(domain, section), 0) + 1
    for stale in ("preview", "conflict", "syn_eff", "pat_eff", "say"):
        ss.pop(_k(domain, stale), None)


def _commit_synonyms(domain: str) -> None:
    if _k(domain, "syn_eff") in ss:
        ss[_k(domain, "syn")] = ss[_k(domain, "syn_eff")]


def _commit_patterns(domain: str) -> None:
    if _k(domain, "pat_eff") in ss:
        ss[_k(domain, "pat")] = ss[_k(domain, "pat_eff")]


def _say(domain: str, kind: str, text: str) -> None:
    ss[_k(domain, "say")] = (kind, text)


def _show_said(domain: str, where: str) -> None:
    said = ss.get(_k(domain, "say"))
    if said and said[0].startswith(where):
        kind, text = said
        (st.error if kind.endswith("error") else st.success)(text)


# ---------------------------------------------------------------- callbacks


def _add_variant(domain: str) -> None:
    _commit_synonyms(domain)
    draft = {k: list(v) for k, v in ss[_k(domain, "syn")].items()}
    canonical = ss.get(_k(domain, "add_canon"))
    typed = str(ss.get(_k(domain, "add_variant")) or "")
    # "faktur, nota baru" is two variants: each is checked, and all are added or none.
    variants = split_list(typed) if "," in typed else [" ".join(typed.split())]
    stopwords = _stopwords(domain)
    trial = {k: list(v) for k, v in draft.items()}
    for variant in variants or [""]:
        problem = variant_problem(variant, stopwords) or store.synonym_problem(trial, canonical, variant)
        if problem:
            _say(domain, "syn-error", f"Not added: {problem}.")
            return
        trial[canonical].append(variant)
    ss[_k(domain, "syn")] = trial
    ss[_k(domain, "syn_ver")] += 1
    ss[_k(domain, "add_variant")] = ""
    shown = ", ".join(f"“{v}”" for v in variants)
    _say(domain, "syn-ok", f"Added {shown} to “{canonical}”. Not saved yet: preview the impact on the right, then save.")


def _stopwords(domain: str) -> frozenset[str]:
    router = router_state(domain).router
    return frozenset(router.domain.words.stopwords) if router is not None else frozenset()


def _add_term(domain: str) -> None:
    _commit_synonyms(domain)
    draft = {k: list(v) for k, v in ss[_k(domain, "syn")].items()}
    term = " ".join(str(ss.get(_k(domain, "new_term")) or "").split())
    variants = split_list(ss.get(_k(domain, "new_term_variants")))
    if not term:
        _say(domain, "syn-error", "Not added: the new canonical term is empty.")
        return
    if term in draft:
        _say(domain, "syn-error", f"Not added: “{term}” is already a canonical term; add variants to it instead.")
        return
    for v in variants:
        owner = variant_problem(v, _stopwords(domain)) or store.synonym_problem({**draft, term: []}, term, v)
        if owner:
            _say(domain, "syn-error", f"Not added: {owner}.")
            return
    draft[term] = variants
    ss[_k(domain, "syn")] = draft
    ss[_k(domain, "syn_ver")] += 1
    ss[_k(domain, "new_term")] = ""
    ss[_k(domain, "new_term_variants")] = ""
    _say(domain, "syn-ok", f"Added the canonical term “{term}”. Tools use it once a tool's keywords or a pattern name it.")


def _remove_variants(domain: str) -> None:
    _commit_synonyms(domain)
    draft = {k: list(v) for k, v in ss[_k(domain, "syn")].items()}
    canonical = ss.get(_k(domain, "rm_canon"))
    gone = ss.get(_k(domain, "rm_variants")) or []
    if canonical not in draft or not gone:
        _say(domain, "syn-error", "Pick a canonical term and at least one variant to remove.")
        return
    draft[canonical] = [v for v in draft[canonical] if v not in gone]
    ss[_k(domain, "syn")] = draft
    ss[_k(domain, "syn_ver")] += 1
    ss[_k(domain, "rm_variants")] = []
    _say(domain, "syn-ok", f"Removed {', '.join('“' + g + '”' for g in gone)} from “{canonical}”. Not saved yet.")


def _settings_draft(domain: str) -> dict:
    ver = ss[_k(domain, "set_ver")]
    settings = ss[_k(domain, "set0")]
    vague = settings.get("vague") if isinstance(settings.get("vague"), dict) else {}
    th = settings.get("thresholds") if isinstance(settings.get("thresholds"), dict) else {}
    out: dict = {}
    words = ss.get(_k(domain, f"vague_words:{ver}"))
    if words is not None and list(words) != [str(w) for w in vague.get("words") or []]:
        out["vague_words"] = list(words)
    question = ss.get(_k(domain, f"vague_q:{ver}"))
    if question is not None and question != str(vague.get("question") or ""):
        out["question"] = question
    changed_th = {}
    for name in store.THRESHOLD_KEYS:
        value = ss.get(_k(domain, f"th_{name}:{ver}"))
        if value is not None and round(float(value), 4) != round(float(th.get(name, -1) if isinstance(th.get(name), (int, float)) else -1), 4):
            changed_th[name] = round(float(value), 4)
    if changed_th:
        out["thresholds"] = changed_th
    return out
