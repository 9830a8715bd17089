"""A word read by where it stands (words.yaml `verb_use`, routing.core.verb_use): "bill" or "invoice" used as a verb
creates a sales invoice ("I need to bill Acme for three days"), where "bill" alone is a supplier's bill; its past names
the invoices and asks nothing ("invoices we billed to Dewi"); Indonesian "buat" between a term and a name is "for"
("ada invoice buat CV Berkah?"), no request to make one. Phrasings written before the mechanism, none from a set."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


def top(routers, domain, query):
    r = routers[domain].route(query, today=TODAY).to_dict()
    return r["status"], (r["matches"][0]["name"] if r["matches"] else None), (r["matches"][0]["suggested_params"] if r["matches"] else {})


@pytest.mark.parametrize("domain, query, tool", [
    ("accounting", "could you invoice Baker Street Cafe for the catering last Friday", "invoice_create"),
    ("accounting", "we need to bill the client for 2 extra hours", "invoice_create"),
    ("accounting", "bill my client Sumber Rejeki for the shelving work", "invoice_create"),
    ("accounting", "invoice Acme Ltd for three days of training", "invoice_create"),
    ("cfo", "please bill Sharma Traders for 40,000", "create_invoice"),
    ("cfo", "bill Kapoor & Sons for the December consignment, 1.2 lakh", "create_invoice"),
])
def test_a_term_used_as_a_verb_creates_an_invoice(routers, domain, query, tool):
    status, name, _ = top(routers, domain, query)
    assert status == "activated" and name == tool


@pytest.mark.parametrize("domain, query, tool", [
    ("accounting", "show the invoices we billed to Hartono Motor", "invoice_search"),
    ("accounting", "we billed PT Maju last week, find those", "invoice_search"),
    ("accounting", "Sinar Jaya billed us twice for the same delivery", "bill_search"),   # theirs: a supplier's bill
    ("accounting", "the bill from PT Maju", "bill_search"),                             # a noun after "the"
    ("accounting", "bill to PT Maju", "bill_search"),                                   # no object after the verb
])
def test_the_past_and_the_noun_ask_no_write(routers, domain, query, tool):
    status, name, _ = top(routers, domain, query)
    assert status == "activated" and name == tool


@pytest.mark.parametrize("query", [
    "need to bill GST separately?",          # a term typed in capitals is no customer's name (a review's probes)
    "can you bill IGST for interstate sales",
])
def test_a_term_in_capitals_is_no_object(routers, query):
    _, name, _ = top(routers, "cfo", query)
    assert name != "create_invoice"


def test_to_invoice_a_numbered_record_names_it(routers):
    # "to invoice INV-1044": the invoice numbered, no verb ("invoice" before a code is the record)
    status, name, params = top(routers, "accounting", "link this to invoice INV-1044 and show it")
    assert name != "invoice_create" and params.get("invoice_id") == "INV-1044"


@pytest.mark.parametrize("query, tool", [
    ("faktur buat Toko Sejahtera yang bulan lalu mana?", "invoice_search"),
    ("ada tagihan buat Ibu Wulan gak ya?", "invoice_search"),
    ("buatin invoice buat Bu Sari, 10 box masker", "invoice_create"),    # "buatin" is the verb, "buat" the "for"
    ("buat invoice untuk PT Maju, jasa desain 2 juta", "invoice_create"),  # "buat" first: the verb
])
def test_buat_between_a_term_and_a_name_is_for(routers, query, tool):
    status, name, _ = top(routers, "accounting", query)
    assert status == "activated" and name == tool


def test_a_bad_section_names_the_file_and_line():
    from routing.core.errors import LexiconError
    from routing.core.parse import parse_language_words
    from routing.core.yamlio import load_with_lines

    data = load_with_lines("en:\n  stopwords: [the]\n  verb_use:\n    words: {bill: invoice}\n    nouns: [the]\n")
    with pytest.raises(LexiconError) as err:
        parse_language_words(data, "words.yaml", ("en",))
    assert "en.verb_use: unknown section 'nouns'" in str(err.value)
    assert err.value.problems[0].line == 5
    data = load_with_lines("en:\n  verb_use:\n    words: {bill: two words}\n")
    with pytest.raises(LexiconError) as err:
        parse_language_words(data, "words.yaml", ("en",))
    assert err.value.problems[0].line == 3


def test_a_language_without_the_section_reads_no_verb():
    from routing.core.parse import parse_language_words

    use = parse_language_words({"en": {"verb_use": {"words": {"bill": "invoice"}, "cues": ["to"]}}}, "w", ("id",)).verb_use
    assert use.words == () and use.cues == ()


@pytest.mark.parametrize("query, customer", [
    ("create an invoice for PT Maju Jaya", "PT Maju Jaya"),
    ("bikin invoice buat Ibu Ratna Sari", "Ibu Ratna Sari"),
])
def test_the_customer_of_a_new_invoice_is_read(routers, query, customer):
    # accounting's invoice_create names its customer as cfo's create_invoice does (tools.yaml `role: query`); it said
    # "customer is required and the question does not give it" beside a screenshot's "bill Acme Ltd for ..."
    status, name, params = top(routers, "accounting", query)
    assert name == "invoice_create" and params.get("customer") == customer
