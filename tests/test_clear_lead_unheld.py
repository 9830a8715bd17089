"""A clear leader may lack one term of three or more (cfo's `scoring.clear_lead_unheld: 1`): what a user
sees is the tier and the path; the setting's bounds are a lexicon problem with file and line."""
from __future__ import annotations

import shutil

import pytest

from routing import load_router
from routing.core.errors import LexiconError
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, load_domain
from routing.core.router import Router
from routing.core.scoring import Scored
from routing.core.sole import mark_clear_lead

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


def _route(router, query):
    return router.route(query, today=TODAY).to_dict()


@pytest.mark.parametrize("query, tool", [
    ("which GST returns are pending or late right now", "gst_filing_status"),          # holds all: its description says pending
    ("194C ke under kitna TDS kata aur kitna jama karna baaki hai", "tds_summary"),    # no `unpaid` either
    ("sabse zyada balance kis bank account mein hai?", "bank_balance"),                # no `top`
])
def test_a_far_leader_lacking_one_of_three_terms_takes_the_fast_path(cfo, query, tool):
    r = _route(cfo, query)
    assert r["status"] == "activated" and r["path"] == "fast"
    assert r["matches"][0]["name"] == tool and "lead" in r["matches"][0]["score_breakdown"]


def test_with_the_setting_at_zero_every_term_must_be_the_leaders(cfo):
    strict = Router(cfo.domain.with_weights(clear_lead_unheld=0))
    r = strict.route("194C ke under kitna TDS kata aur kitna jama karna baaki hai", today=TODAY).to_dict()
    assert r["status"] == "multiple_matches"
    assert r["candidates"][0]["name"] == "tds_summary" and r["candidates"][0]["confidence"] < 0.85


def test_a_leader_lacking_one_of_two_terms_is_not_lifted(cfo):
    # expense and customer ("client"): the leader would hold no more than it lacks
    r = _route(cfo, "record a 3,200 rupee Uber travel expense for the Pune client visit")
    assert "lead" not in r["candidates"][0]["score_breakdown"]
    # what lifts it is the one writer asked for (routing.core.sole: create_invoice only relates to "client")
    assert r["status"] == "activated" and r["candidates"][0]["name"] == "record_expense"
    assert "sole_write" in r["candidates"][0]["score_breakdown"]


def _scored(tool, confidence):
    return Scored(tool=tool, confidence=confidence, raw=confidence, breakdown={}, evidence=[], pattern_params={},
                  match_type="keyword")


@pytest.mark.parametrize("unheld, concepts, lifted", [
    (1, ["a", "b", "c"], True),        # lacks c of three
    (1, ["a", "c", "d"], False),       # lacks two
    (1, ["a", "c"], False),            # lacks one of two: holds no more than it lacks
    (0, ["a", "b", "c"], False),       # the default: every term
    (2, ["a", "b", "c", "d", "e"], True),
])
def test_how_many_terms_a_leader_may_lack(unheld, concepts, lifted):
    holders = {"a": frozenset({0}), "b": frozenset({0, 1}), "c": frozenset({1}), "d": frozenset({1}), "e": frozenset({0})}
    out = mark_clear_lead([_scored(0, 0.75), _scored(1, 0.4)], 0.2, concepts, tools=[None, None], holders=holders,
                          unheld=unheld)
    assert bool(out[0].lift) is lifted


@pytest.mark.parametrize("value", ["1.5", "4", "one", "true"])
def test_a_bad_clear_lead_unheld_names_the_file_and_line(tmp_path, value):
    shutil.copytree(DEFAULT_LEXICON_ROOT / "cfo", tmp_path / "cfo")
    shutil.copytree(DEFAULT_LEXICON_ROOT / "_shared", tmp_path / "_shared")
    settings = tmp_path / "cfo" / "settings.yaml"
    text = settings.read_text(encoding="utf-8").replace("  clear_lead_unheld: 1", f"  clear_lead_unheld: {value}")
    settings.write_text(text, encoding="utf-8")
    line = text.splitlines().index(f"  clear_lead_unheld: {value}") + 1
    with pytest.raises(LexiconError) as err:
        load_domain("cfo", tmp_path)
    problem = next(p for p in err.value.problems if "clear_lead_unheld" in p.message)
    assert problem.line == line



def test_accounting_lifts_a_far_leader_lacking_one_of_four_terms():
    # invoice_detail holds invoice, tax and payment (its description says payments), not product ("item")
    r = load_router("accounting").route("isi lengkap invoice 0077: item, pajak sama pembayarannya", today=TODAY).to_dict()
    assert r["status"] == "activated" and r["path"] == "fast"
    assert r["matches"][0]["name"] == "invoice_detail" and "lead" in r["matches"][0]["score_breakdown"]
