"""Statements before the ask (routing.core.background): a clause with someone else as its subject tells (words.yaml
`narrators`: "he paid by transfer last week. Can you show me ..." asks of the ask's dates, not the story's); and a
statement's own words are no search text where the ask names its own ("... Dia minta dikirim ulang. Tolong cari
invoice untuk Bu Rina" searches "Bu Rina"), but are where the ask names nothing ("Received 75k from sinha traders
this morning. Please record the payment"). Phrasings written before the mechanism, none from a labelled set."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("accounting", "cfo")}


def top(routers, domain, query):
    m = routers[domain].route(query, today=TODAY).to_dict()["matches"][0]
    return m["name"], m["suggested_params"]


def test_a_clause_about_someone_else_is_background(routers):
    name, params = top(routers, "accounting", "Mr Wong rang earlier, he was confused about the November statement. "
                                              "She paid us by transfer last week. Could you list the payments we "
                                              "received last week?")
    assert name == "payment_list"
    assert (params["date_from"], params["date_to"]) == ("2026-01-12", "2026-01-18")


@pytest.mark.parametrize("domain, query, tool, param, value", [
    ("accounting", "Kemarin sore Pak Darto mampir, katanya tagihan bulan lalu belum sampai. Dia mau dikirim lagi. "
                   "Tolong cari invoice untuk Pak Darto.", "invoice_search", "query", "Pak Darto"),
    ("cfo", "Tadi pagi Bu Wulan telepon, katanya invoice belum dia terima. Dia minta dikirim ulang. Tolong cari "
            "invoice untuk Bu Wulan.", "invoice_lookup", "query", "Bu Wulan"),
])
def test_the_story_is_no_search_text(routers, domain, query, tool, param, value):
    name, params = top(routers, domain, query)
    assert name == tool and params[param] == value


def test_the_story_names_what_the_ask_does_not(routers):
    name, params = top(routers, "cfo", "Received 40k from lakshmi stores this morning. Please record the payment")
    assert name == "record_payment" and params["customer"].startswith("lakshmi stores")
