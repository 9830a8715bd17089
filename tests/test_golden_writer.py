"""routing.editing.golden: a demo's question kept as a test case, through the editor's safe writer."""
from __future__ import annotations

import shutil

import pytest

from routing.core.lexicon import load_domain
from routing.designs import build_router
from routing.editing.golden import add_golden_case, expectation, preview_golden_case
from routing.editing.history import history
from routing.quality.evaluate import golden_path, load_golden

TODAY = "2026-01-22"


@pytest.fixture()
def lex(tmp_path):
    root = tmp_path / "lexicons"
    shutil.copytree("lexicons", root, ignore=shutil.ignore_patterns(".history"))
    return root


def router(lex, domain):
    return build_router(load_domain(domain, lex))


def test_the_mirror_keeps_a_demo_question_in_its_own_format(lex):
    r = router(lex, "factory")
    res = r.route("how many forklifts need servicing", today=TODAY).to_dict()
    expect = expectation(res, tool="maintenance")
    assert expect == {"tool": "maintenance", "status": "activated"}
    preview = preview_golden_case(r, "how many forklifts need servicing", expect, lex)
    assert preview.after["n"] == preview.before["n"] + 1 == 41
    assert add_golden_case("factory", "how many forklifts need servicing", expect, root=lex).status == "saved"
    cases = load_golden(golden_path(router(lex, "factory")))
    assert cases[-1].query == "how many forklifts need servicing" and cases[-1].tool == "maintenance" and cases[-1].group == "demo"
    assert "- {q: how many forklifts need servicing, expect: maintenance}" in (lex / "factory" / "golden.yaml").read_text()


def test_a_design_field_is_kept_and_a_save_can_be_undone(lex):
    r = router(lex, "football")
    res = r.route("how is Marco Diaz doing", today=TODAY).to_dict()
    expect = expectation(res)
    assert expect["intent"] == res["intent"] and expect["status"] == res["status"]
    assert add_golden_case("football", "how is Marco Diaz doing", expect, root=lex).status == "saved"
    assert history("football", lex)[0].action.startswith("golden: keep")
    again = add_golden_case("football", "how is Marco Diaz doing", expect, root=lex)
    assert again.status == "unchanged"  # the same question and answer are never added twice


def test_an_empty_question_is_refused_with_a_reason(lex):
    result = add_golden_case("accounting", "   ", {"tool": "invoice_list"}, root=lex)
    assert result.status == "rejected" and "empty" in result.message
