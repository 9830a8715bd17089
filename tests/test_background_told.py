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
    name, params = top(routers, "accounting", "Mr Wong rang this morning, he was cross because he thinks we billed him "
                                              "twice in October. He paid by transfer last week. Could you show me the "
                                              "payments we received from him last week?")
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


# An ask that opens its sentence with the domain's verb or question ("Show me", "How much") after a full stop, and a
# statement whose clauses a comma parts (one of them telling), leave the story's dates to the story.
@pytest.mark.parametrize("domain, query, tool, period", [
    ("accounting", "Sales dipped in Q2 but nobody noticed until the holidays, and the board keeps asking. Show me the "
                   "profit and loss for Q3 2025.", "financial_profit_loss", ("2025-07-01", "2025-09-30")),
    ("cfo", "We hired three contractors this year and the CA keeps asking about TDS. How much TDS did we deduct last "
            "quarter?", "tds_summary", ("2025-10-01", "2025-12-31")),
    ("accounting", "Our new accountant, Maria, is checking the supplier side and wanted everything from the last three "
                   "months. Can you list all purchase bills for Q3 2025?", "bill_list", ("2025-07-01", "2025-09-30")),
])
def test_the_story_keeps_its_dates(routers, domain, query, tool, period):
    name, params = top(routers, domain, query)
    assert name == tool and (params["date_from"], params["date_to"]) == period


def test_a_colon_elaborates_no_story(routers):
    # "...: which are past due" says what is asked of the supplier debts, no statement before it
    name, _ = top(routers, "accounting", "Saya disuruh cek utang kita ke pemasok: mana yang sudah lewat jatuh tempo, "
                                         "dan sudah telat berapa lama?")
    assert name == "payables_aging"


def test_a_name_in_the_story_points_no_search(routers):
    # "Lina" is who sent the invoices, said before the ask: the ask lists, and its filter takes none of the story
    name, params = top(routers, "accounting", "I was on leave and came back to a stack of messages from the team. One "
                                              "of them says Lina sent out a lot of invoices while I was gone. Could "
                                              "you list every invoice we raised last week?")
    assert name == "invoice_list" and "customer" not in params
    assert (params["date_from"], params["date_to"]) == ("2026-01-12", "2026-01-18")


def test_a_write_takes_the_party_the_story_names(routers):
    name, params = top(routers, "cfo", "Received 75k from Sinha Traders this morning. Please record the payment")
    assert name == "record_payment" and params["customer"] == "Sinha Traders"


# A statement's own words weigh nothing in the ask's score (scoring's content mass): the ask alone decides.
@pytest.mark.parametrize("domain, query, tool", [
    ("cfo", "Tim audit dari kantor pusat juga mau lihat kondisi keuangan sebelum rapat tahunan. Tolong tampilkan saldo "
            "semua rekening bank kita sekarang.", "bank_balance"),
    ("accounting", "My sister runs the shop on Saturdays and she swore the new card machine was charging people twice, "
                   "which made me nervous all week. Could you list every payment we received last week?", "payment_list"),
])
def test_the_story_weighs_nothing(routers, domain, query, tool):
    r = routers[domain].route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool


def test_a_count_in_the_story_is_no_party(routers):
    # a review's probe: the story's "40" is no customer; the party is the name the story gives
    name, params = top(routers, "accounting", "We just shipped 25 boxes of tiles to PT Griya Keramik. Can you create the invoice?")
    assert name == "invoice_create" and params["customer"] == "PT Griya Keramik"


@pytest.mark.parametrize("domain, query", [
    ("accounting", "Printer kantor rusak lagi dan tagihan servisnya sudah saya bayar. Kira-kira berapa lama biasanya teknisi datang?"),
    ("powers", "Back-to-back meetings all week and I'm exhausted. Any ideas for a quiet dinner spot downtown?"),
])
def test_a_story_before_a_question_of_another_thing_asks_no_tool(shipped, domain, query):
    """The ask names no term and two words no one here knows, and ends in "?": the story's terms ask nothing
    ("biasanya", usually, ends in "-nya" but refers to nothing)."""
    assert shipped(domain).route(query, today=TODAY).status.value == "not_found"


def test_a_story_before_a_closing_courtesy_still_asks(shipped):
    r = shipped("accounting").route("Halo admin, bos minta laporan laba rugi tahun 2025 buat rapat Senin. Bisa dibantu? Trims ya",
                                    today=TODAY)
    assert r.matches[0].name == "financial_profit_loss"
