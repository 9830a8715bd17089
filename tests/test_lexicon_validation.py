"""A lexicon that fails validation names the file, the line and the problem, and routing keeps
serving the last good version."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from routing import LexiconError, RouterRegistry, Status, load_domain

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def lex(tmp_path) -> Path:
    dest = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", dest, ignore=shutil.ignore_patterns(".history"))
    return dest


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _problem(lex: Path) -> str:
    with pytest.raises(LexiconError) as info:
        load_domain("accounting", lex)
    return str(info.value)


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_yaml_syntax_error_names_file_and_line(lex):
    syn = lex / "accounting" / "synonyms.yaml"
    _edit(syn, "customer: [client,", "customer: [client,,, {")
    msg = _problem(lex)
    assert "lexicons/accounting/synonyms.yaml line" in msg and "YAML syntax" in msg


def test_wrong_type_names_the_key(lex):
    settings = lex / "accounting" / "settings.yaml"
    _edit(settings, "high: 0.85", "high: very")
    msg = _problem(lex)
    assert f"settings.yaml line {_line_of(settings, 'high: very')}" in msg and "thresholds.high" in msg


def test_pattern_naming_unknown_tool_or_param(lex):
    pat = lex / "accounting" / "patterns.yaml"
    _edit(pat, "tool: receivables_aging}", "tool: receivables_agin}")
    assert "unknown tool 'receivables_agin'" in _problem(lex)
    shutil.copy(ROOT / "lexicons/accounting/patterns.yaml", pat)
    _edit(pat, "params: {status: unpaid}}", "params: {colour: unpaid}}")
    assert "does not have" in _problem(lex) and "colour" in _problem(lex)


def test_one_variant_under_two_canonical_terms(lex):
    syn = lex / "accounting" / "synonyms.yaml"
    _edit(syn, "supplier: [vendor,", "supplier: [pelanggan, vendor,")
    msg = _problem(lex)
    assert "'pelanggan' is listed under both 'customer'" in msg
    assert f"synonyms.yaml line {_line_of(syn, 'supplier: [pelanggan')}" in msg


def test_catastrophic_regex_is_rejected_quickly(lex):
    pat = lex / "accounting" / "patterns.yaml"
    text = pat.read_text() + "  - {regex: '(a+)+$', tool: invoice_list}\n  - {regex: '(a|aa)+$', tool: invoice_list}\n"
    pat.write_text(text)
    msg = _problem(lex)
    assert "repeats a group that itself repeats" in msg
    assert "backtrack" in msg


def test_duplicate_yaml_key_is_reported(lex):
    settings = lex / "accounting" / "settings.yaml"
    settings.write_text(settings.read_text() + "\ncurrency: USD\n")
    assert "duplicate key 'currency'" in _problem(lex)


def test_registry_keeps_serving_the_last_good_lexicon(lex):
    registry = RouterRegistry(lex)
    good = registry.state("accounting")
    assert good.error is None
    syn = lex / "accounting" / "synonyms.yaml"
    _edit(syn, "customer: [client,", "customer: [client,,, {")
    broken = registry.state("accounting")
    assert broken.error is not None and broken.router is good.router
    assert "synonyms.yaml line" in str(broken.error)
    assert broken.router.route("outstanding invoices", today="2026-01-22").status is Status.ACTIVATED
    shutil.copy(ROOT / "lexicons/accounting/synonyms.yaml", syn)
    _edit(syn, "invoice: [invoices,", "invoice: [zorblat, invoices,")
    fixed = registry.state("accounting")
    assert fixed.error is None and fixed.router is not good.router
    assert fixed.router.route("daftar zorblat", today="2026-01-22").matches[0].name == "invoice_list"


def test_cli_exits_3_with_the_problem_on_an_invalid_lexicon(lex):
    _edit(lex / "accounting" / "tools.yaml", "kind: summary", "kind: sumary")
    proc = subprocess.run(
        [sys.executable, "-m", "routing", "--lexicons", str(lex), "route", "sales", "--domain", "accounting"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert proc.returncode == 3
    assert "LEXICON_INVALID" in proc.stderr and "tools.yaml line" in proc.stderr and "sumary" in proc.stderr
