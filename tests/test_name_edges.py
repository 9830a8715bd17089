"""A name written with capitals ends at its last capitalised word (routing.core.params._cased_end): "Bharat Packaging
sent us" names Bharat Packaging; a write's party is the capitalised run, not the question's other free words
("Reddy Constructions, 85,000 plus 18% GST"). A capital that may only begin the sentence, a name typed all in
lower case, and a name with a small word inside ("House of Spices") stay as they were. Phrasings written before the
mechanism, none from a labelled set."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


def first(routers, domain, query):
    m = routers[domain].route(query, today=TODAY).to_dict()["matches"][0]
    return m["name"], m["suggested_params"]


@pytest.mark.parametrize("domain, query, tool, param, value", [
    ("cfo", "create an invoice for Menon Interiors, 60,000 plus 18% GST", "create_invoice", "customer", "Menon Interiors"),
    ("cfo", "make an invoice for House of Spices, 25,000 plus GST", "create_invoice", "customer", "House of Spices"),
    ("cfo", "create an invoice for Sharma and Sons, 25,000 plus GST", "create_invoice", "customer", "Sharma and Sons"),
    ("cfo", "Record payment from Mehta and sons 40,000", "record_payment", "customer", "Mehta and sons"),
    ("cfo", "create invoice for Dr. Mehta clinic 3000", "create_invoice", "customer", "Dr. Mehta clinic"),
])
def test_the_name_ends_at_its_capitals(routers, domain, query, tool, param, value):
    name, params = first(routers, domain, query)
    assert name == tool and params[param] == value


def test_a_name_in_lower_case_keeps_its_words(routers):
    # no capital to go by: every free word is still read as the name (as before), a capitalised place none the less
    name, params = first(routers, "cfo", "create invoice for reddy constructions for work at Site B")
    assert name == "create_invoice" and params["customer"].startswith("reddy constructions")
