"""The agreement signal (issue 22 part C): the leading tool gains confidence when the lexicon's view
(keyword coverage) and the examples' view both put it first; where either view prefers another
tool, nothing is added. Checked on the accounting domain (scoring.agreement: 1.0) against the same
domain with the signal off."""
from __future__ import annotations

from pathlib import Path

import pytest

from routing import Router, Status
from routing.core.lexicon import LexiconError, domain_from_data, load_shared_words
from routing.core.router import classify

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def without(accounting) -> Router:
    # the clear lead (scoring.clear_lead) off too: it would lift the same leader by another rule
    return Router(accounting.domain.with_weights(agreement=0.0, clear_lead=0.0))


def test_accounting_weighs_agreement(accounting):
    assert accounting.domain.settings.weights.agreement > 0
    assert "agreement" in accounting.confidence_source()["signals"]


@pytest.mark.parametrize("query, tool", [
    ("what did we spend on fuel last month", "expense_list"),
    ("balance sheet as of end of December", "financial_balance_sheet"),
])
def test_a_question_both_views_give_to_one_tool_is_activated(accounting, without, query, tool):
    r = accounting.route(query, today=TODAY)
    assert r.status is Status.ACTIVATED and r.matches[0].name == tool
    bd = r.matches[0].score_breakdown
    assert bd.get("agreement", 0) > 0
    assert abs(sum(bd.values()) - r.matches[0].confidence) < 1e-3, "the breakdown still adds up"
    assert any("first in words" in e for e in r.matches[0].evidence)
    off = without.route(query, today=TODAY)
    assert off.status is Status.MULTIPLE_MATCHES and off.matches[0].name == tool, "the signal is what activates it"


@pytest.mark.parametrize("query, alternatives", [
    ("show invoices", {"invoice_list", "financial_sales_summary"}),
    ("tampilkan faktur", {"invoice_list", "financial_sales_summary"}),
    ("show bills", {"bill_list", "bill_search"}),
])
def test_a_bare_record_name_stays_ambiguous(accounting, query, alternatives):
    # 000: "show invoices" returns invoice_list, invoice_search, sales_summary. One term is explained
    # alike by every tool of that record: the examples' lead in phrasing adds nothing there.
    r = accounting.route(query, today=TODAY)
    assert r.status is Status.MULTIPLE_MATCHES
    assert alternatives <= {m.name for m in r.matches}
    assert "agreement" not in r.matches[0].score_breakdown


def test_when_the_examples_prefer_another_tool_nothing_is_added(accounting, without):
    # The words point to payment_list (payment, customer), the example questions lean elsewhere, and no
    # verb rules the others out. (A contact's phone asked for now goes to contact_search by its own
    # pattern, patterns.yaml: this test's first question, "which supplier has phone 0812 3456 789", no
    # longer reaches the agreement at all.)
    # Read before routing.core.sole's lifts (payment and customer are payment_list's alone: the routed
    # answer is lifted to activated, tests/test_heldout8_mechanisms.py).
    query = "which customer payments came in yesterday?"
    a = accounting.analyze(query, today=TODAY)
    s, off = accounting.score(a, lift=False), without.score(a, lift=False)
    assert accounting.index.tools[s[0].tool].name == "payment_list"
    assert "agreement" not in s[0].breakdown
    assert s[0].confidence == off[0].confidence
    assert classify(s, a, accounting.thresholds) is Status.MULTIPLE_MATCHES
    assert accounting.route(query, today=TODAY).matches[0].score_breakdown.get("sole", 0) > 0


def test_a_tool_the_verb_rules_out_does_not_outvote_in_examples(accounting, without):
    # "search" asks for a search: bill_list (a list) is out of the running, so its examples no
    # longer withhold the agreement from bill_search (issue 22, held-out phrasings)
    query = "search bills from supplier Sinar Jaya"
    a = accounting.analyze(query, today=TODAY)
    s, off = accounting.score(a, lift=False), without.score(a, lift=False)  # before routing.core.sole's lifts
    assert accounting.index.tools[s[0].tool].name == without.index.tools[off[0].tool].name == "bill_search"
    assert s[0].breakdown.get("agreement", 0) > 0
    assert classify(s, a, accounting.thresholds) is Status.ACTIVATED
    assert classify(off, a, without.thresholds) is Status.MULTIPLE_MATCHES
    assert accounting.route(query, today=TODAY).status is Status.ACTIVATED


@pytest.mark.parametrize("query", [
    "supplier bills due this month", "which products are in stock", "payments we received this week",
    "faktur bulan ini", "I need to bill Warung Sari for 5 cartons of instant noodles", "stok minyak goreng 2L masih ada ga?",
])
def test_agreement_never_changes_the_ranking(accounting, without, query):
    on = [c["name"] for c in accounting.route(query, today=TODAY).candidates]
    off = [c["name"] for c in without.route(query, today=TODAY).candidates]
    assert on == off


@pytest.mark.parametrize("query", ["jadwal kereta ke Bandung besok", "what's the weather in Surabaya", "tell me a joke"])
def test_off_topic_stays_not_found(accounting, query):
    assert accounting.route(query, today=TODAY).status is Status.NOT_FOUND


def test_agreement_weight_out_of_range_is_a_lexicon_error():
    raw = {
        "settings.yaml": {"name": "tiny", "scoring": {"agreement": 2}},
        "tools.yaml": {"tools": [{"name": "widget_list", "description": "List widgets.", "kind": "list", "keywords": ["widget"]}]},
        "synonyms.yaml": {},
        "patterns.yaml": {"patterns": []},
    }
    with pytest.raises(LexiconError) as exc:
        domain_from_data("tiny", raw, root=ROOT / "lexicons", shared=load_shared_words(ROOT / "lexicons"))
    assert "scoring.agreement" in str(exc.value)


@pytest.mark.parametrize("as_arrays", [False, True])
def test_agreement_reads_the_examples_as_a_dict_or_as_arrays(as_arrays):
    """Large domains hand the example scores over as arrays (routing.core.example_arrays): the same
    value either way, and None as soon as another tool's examples are closer."""
    import numpy as np

    from routing.core.example_arrays import ExampleSignals
    from routing.core.scoring import Signal, score_agreement

    def examples(values):
        if as_arrays:
            v = np.array(values, dtype=float)
            return ExampleSignals(v, v > 0, {}, [])
        return {t: Signal(value=x, parts={"example": x}) for t, x in enumerate(values) if x > 0}

    keyword = {0: Signal(value=0.9), 1: Signal(value=0.5)}
    agreed = score_agreement(0, keyword, examples([0.8, 0.3, 0.1]))
    # leads 0.4 (words) and 0.5 (examples): mean 0.45, times the weaker own value 0.8
    assert agreed is not None and agreed.value == pytest.approx(0.36)
    assert agreed.parts == {"agreement": agreed.value}
    assert score_agreement(0, keyword, examples([0.4, 0.6, 0.1])) is None
    assert score_agreement(1, keyword, examples([0.2, 0.9, 0.1])) is None, "the words prefer tool 0"
