"""Held-out sets 82-89 (issue 22): what the idiom speaker, the double-checker and the word-by-word
translator showed, as mechanisms.

- Football: a player asked about "lately", "these days", "so far", "musim ini" is how the player is doing
  (Surface, activated; it was a weak guess from the player alone); a name the roster lacks asked about
  so is PLAYER_NOT_FOUND; a rare lower-case word beside a known player and such a word of time is no
  name; "lately" beside two names may be a correction and stays the one-player tier; the season said of
  two players is Compare's.
- A question before a colon with its options after it ("who has more goals: A or B?") is a question, no
  statement before the ask (words.yaml `interrogatives`); a reported "what falls due next" before a full
  stop is still the story.
- Asks for the picture without saying of what ("give me the lay of the land", "kasih gambaran dong",
  "zara roshni daalo") are asked what they want (settings.yaml `vague`); beside a term they ask for it.
- Bills "grouped by how overdue they are" is the payables aging, not a list of overdue bills.
- Everyday money idioms name their terms ("what did we blow", "stockroom", "entry by entry").
- A check of a fact half believed ("is it right that ...", "bener nggak ...") asks for the fact.
- A recommendation or tips asked for ("recommend a good memory foam pillow", "any tips?", "cara melatih
  daya ingat") is advice, no tool; a slot for a meeting and "the best way to list my repos" still ask one.
"""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def routers():
    return {d: load_router(d) for d in ("football", "accounting", "cfo")}


def _route(routers, domain, q):
    return routers[domain].route(q, today=TODAY).to_dict()


@pytest.mark.parametrize("query, tier", [
    ("Okafor lately?", "surface"),
    ("is Jonas Vogel still any use these days?", "surface"),
    ("Niko Petrović lagi on fire atau lagi melempem belakangan ini?", "surface"),
    ("gimana Bayu Saputra sejauh ini?", "surface"),
    ("Arjun Mehta ka khel aajkal kaisa hai?", "surface"),
    ("Made Sutrisna dan Stefan Kovač, siapa yang lebih moncer musim ini?", "compare"),
])
def test_a_player_asked_about_of_late_is_surface_activated(routers, query, tier):
    r = _route(routers, "football", query)
    assert (r["status"], r["intent"], r["error"]) == ("activated", tier, None), r["candidates"]


@pytest.mark.parametrize("query, name", [
    ("how's Bartholomew Quigley been holding the fort lately?", "Bartholomew Quigley"),
    ("is Bruno Castellanos still worth his weight in gold these days?", "Bruno Castellanos"),
])
def test_a_name_the_roster_lacks_asked_of_late_is_player_not_found(routers, query, name):
    r = _route(routers, "football", query)
    assert r["status"] == "not_found" and r["error"]["code"] == "PLAYER_NOT_FOUND"
    assert r["error"]["details"]["name"].lower() == name.lower()


def test_lately_beside_a_corrected_name_stays_surface(routers):
    r = _route(routers, "football", "how's Chidi Okafor doing lately - hold on, wrong guy, how's Oscar Nwosu doing?")
    assert r["intent"] == "surface"


def test_a_word_of_time_said_of_no_player_is_no_football(routers):
    assert _route(routers, "football", "how was your weekend lately")["intent"] in (None, "")


@pytest.mark.parametrize("query", [
    "who has more goals: Kwame Mensah or Oscar Nwosu?",
    "head to head, who brings more to the party per 90: Kwame Mensah or Oscar Nwosu?",
])
def test_a_question_before_a_colon_keeps_its_words(routers, query):
    r = _route(routers, "football", query)
    assert (r["status"], r["intent"]) == ("activated", "compare"), r["candidates"]
    assert any(t["role"] == "concept" for t in r["tokens"])


def test_a_reported_question_before_a_full_stop_is_still_the_story(routers):
    r = _route(routers, "cfo", "We're planning cash for February, and the AP lead asked me how much we owe suppliers in "
                               "total, broken down by age, and what falls due next. Could you summarise our payables?")
    assert (r["status"], r["matches"][0]["name"]) == ("activated", "payables_summary")


@pytest.mark.parametrize("domain, query", [
    ("accounting", "give me the lay of the land"),
    ("accounting", "tolong kasih gambaran dong"),
    ("accounting", "show me what you've got"),
    ("cfo", "zara roshni daalo yaar"),
    ("cfo", "give me the big picture"),
])
def test_asking_for_the_picture_of_nothing_named_is_asked_what(routers, domain, query):
    r = _route(routers, domain, query)
    assert r["status"] == "needs_clarification" and r["clarifying_question"]


@pytest.mark.parametrize("domain, query, tool", [
    ("accounting", "gambaran arus kas Q4 dong", "financial_cash_flow"),
    ("accounting", "kondisi piutang gimana", "receivables_aging"),
])
def test_the_picture_of_a_term_asks_for_it(routers, domain, query, tool):
    r = _route(routers, domain, query)
    assert r["status"] == "activated" and r["matches"][0]["name"] == tool


@pytest.mark.parametrize("query", [
    "supplier bills grouped by how overdue they are",
    "which suppliers have we been stringing along, bucketed by how overdue their bills are?",
])
def test_bills_grouped_by_how_overdue_are_the_payables_aging(routers, query):
    r = _route(routers, "accounting", query)
    assert r["matches"][0]["name"] == "payables_aging"


def test_overdue_bills_alone_stay_a_list(routers):
    r = _route(routers, "accounting", "show overdue bills from PT Maju")
    assert r["matches"][0]["name"] == "bill_list"


def test_shedding_light_on_nothing_named_is_a_report_ask_not_a_write(routers):
    r = _route(routers, "cfo", "zara roshni daalo yaar")
    assert (r["status"], r["category"]) == ("needs_clarification", "cfo")


@pytest.mark.parametrize("domain, query, tool", [
    ("cfo", "what did we blow in total in December, split by category?", "expense_summary"),
    ("cfo", "how much money is tied up in the stockroom?", "stock_summary"),
    ("cfo", "every rupee that walked in or out of the bank last month, entry by entry", "bank_transactions"),
    ("cfo", "bank ki passbook mein December ki har entry dikhao", "bank_transactions"),
    ("accounting", "how much did we shell out last month?", "expense_list"),
])
def test_everyday_money_idioms_name_their_term(routers, domain, query, tool):
    r = _route(routers, domain, query)
    assert r["matches"] and r["matches"][0]["name"] == tool, r["matches"][:2]


def test_an_entry_to_make_stays_a_write(routers):
    r = _route(routers, "cfo", "Joshi & Co ka 40k payment aaya INV-1180 - entry karo")
    assert r["matches"][0]["name"] == "record_payment"


@pytest.mark.parametrize("domain, query, tool", [
    ("accounting", "is it true we've got more suppliers than customers in our contact book?", "contact_list"),
    ("cfo", "is it right that on 31 March 2025 our liabilities were more than our total assets?", "balance_sheet"),
    ("cfo", "just to confirm, did we end last quarter in profit?", "profit_and_loss"),
    ("accounting", "just checking - is it right that PT Maju still owes us?", "receivables_aging"),
])
def test_a_check_of_a_fact_half_believed_asks_for_the_fact(routers, domain, query, tool):
    # words.yaml framing: "is it right that", "just to confirm", "bener nggak", "sach hai kya ki" ask nothing themselves
    r = _route(routers, domain, query)
    assert (r["status"], r["matches"][0]["name"]) == ("activated", tool), r["matches"][:2]


def test_the_check_words_are_set_aside_not_read_as_terms(routers):
    r = _route(routers, "accounting", "bener nggak sih Citra belum bayar invoice-nya?")
    assert not any(t["text"] == "bener" and t["role"] == "literal" for t in r["tokens"])


@pytest.fixture(scope="module")
def powers():
    return load_router("powers")


@pytest.mark.parametrize("query", [
    "recommend a good memory foam pillow",
    "Could you kindly recommend me a good memory foam pillow for my back pain? Thank you.",
    "what's a good stripe pattern for a work shirt?",
    "my memory's been shocking lately, any tips?",
    "cara melatih daya ingat anak",
])
def test_a_recommendation_or_tips_asked_for_is_no_power(powers, query):
    # words.yaml advice: a thing to buy or a habit is asked, no record of a power
    r = powers.route(query, today=TODAY).to_dict()
    assert r["status"] == "not_found" and r["error"] is None


@pytest.mark.parametrize("query, power", [
    ("suggest a good time for a meeting with Budi next week", "calendar"),
    ("what's the best way to list my github repos", "github"),
])
def test_a_best_way_or_a_slot_asked_of_a_power_still_reaches_it(powers, query, power):
    r = powers.route(query, today=TODAY).to_dict()
    assert r["status"] == "activated" and r["matches"][0]["name"] == power


def test_how_to_see_a_record_still_asks_the_tool(routers):
    r = _route(routers, "accounting", "cara lihat invoice yang belum dibayar")
    assert (r["status"], r["matches"][0]["name"]) == ("activated", "invoice_list")


@pytest.mark.parametrize("query", [
    "tolong kirim email ke Pak Andi, bilang rapatnya mundur ke Kamis",
    "tolong kirim email ke budi@contoh.co.id, bilang meeting besok diundur jam 2 ya",
    "please send an email to Rina saying the calendar invite is wrong",
])
def test_what_a_message_says_is_not_the_ask(powers, query):
    # words.yaml message_content: after a verb that sends, opening its sentence, "bilang" / "saying" begins the message
    r = powers.route(query, today=TODAY).to_dict()
    assert (r["status"], r["matches"][0]["name"]) == ("activated", "gmail"), r["matches"][:2]


def test_an_email_told_of_is_no_message_to_send(powers):
    r = powers.route("Our scout in Osaka sent a long email last night saying the meeting moved", today=TODAY).to_dict()
    assert r["matches"][0]["name"] != "gmail" or r["status"] != "activated"


@pytest.mark.parametrize("query", [
    "how long can we keep the lights on with the cash in hand and in the bank?",
    "How much cash have we got in hand and in the bank today, and how many days would it last us?",
    "kas di tangan dan di bank sekarang cukup buat napas berapa hari lagi?",
])
def test_how_long_the_cash_lasts_is_the_cash_position(routers, query):
    r = _route(routers, "cfo", query)
    assert (r["status"], r["matches"][0]["name"]) == ("activated", "cash_position"), r["matches"][:2]


def test_how_many_more_days_a_payment_is_late_is_no_runway(routers):
    r = _route(routers, "cfo", "telat berapa hari lagi pembayaran dari PT Maju?")
    assert r["matches"][0]["name"] != "cash_position"


def test_who_is_in_arrears_to_us_is_the_receivables(routers):
    r = _route(routers, "accounting", "siapa aja yang masih nunggak ke kita?")
    assert (r["status"], r["matches"][0]["name"]) == ("activated", "receivables_aging")


def test_what_is_said_after_the_question_mark_naming_nothing_is_no_ask(routers):
    r = _route(routers, "accounting", "Bapak/Ibu, apakah bisa ditampilkan daftar semua faktur penjualan yang kita terbitkan "
                                      "pada bulan lalu? Terima kasih banyak atas bantuannya.")
    assert r["status"] == "activated" and r["matches"][0]["name"] == "invoice_list"
    said = {t["text"]: t["role"] for t in r["tokens"]}
    assert said["bantuannya"] == "stop"


@pytest.mark.parametrize("domain, query, word, value", [
    ("accounting", "which invoices are overdue? From Acme Corp only", "customer", "Acme Corp"),
    ("cfo", "bank balance kitna hai? HDFC wala", None, None),
    ("accounting", "can you look up an invoice? It's 4471", None, None),
])
def test_a_name_a_code_or_a_number_after_the_question_mark_stays_in_the_ask(routers, domain, query, word, value):
    # the second review: what follows the "?" may say whom or which record
    r = _route(routers, domain, query)
    kept = [t for t in r["tokens"] if t["role"] in ("literal", "number")]
    assert kept, r["tokens"]
    if word:
        assert (r["matches"][0].get("suggested_params") or {}).get(word) == value


@pytest.mark.parametrize("query, players", [
    ("How is Okafor doing? And Vogel?", 2),
    ("stats please? Bayu Saputra", 1),
])
def test_a_player_named_after_the_question_mark_is_still_asked_about(routers, query, players):
    r = _route(routers, "football", query)
    assert r["status"] == "activated" and len(r["entities"]) == players

def test_a_term_after_the_question_mark_is_still_read(routers):
    # "hisaab do" (a vague ask) and a term after the "?" keep their sentence in the ask
    r = _route(routers, "cfo", "kharchon ki bel kis category mein sabse tezi se chadh rahi hai? har mahine ka hisaab do")
    assert any(t["role"] == "vague" for t in r["tokens"])
    r = _route(routers, "cfo", "aaj ki date pe hamare assets, liabilities aur equity kya hain? isi ko P&L bolte hain na?")
    assert any(t["key"] == "profit_and_loss" and t["role"] == "concept" for t in r["tokens"])


@pytest.mark.parametrize("query", ["is Tomás Díaz a cut above Teodor Ilić these days?", "does Okafor outclass Vogel?"])
def test_a_comparative_idiom_between_two_players_is_compare(routers, query):
    r = _route(routers, "football", query)
    assert (r["status"], r["intent"]) == ("activated", "compare")


# ---- the two reviews' probes where the first cut was worse, kept as tests


@pytest.mark.parametrize("query, intent, error", [
    ("Okafor and Vogel lately?", "compare", None),
    ("How have Keita and Mensah been playing these days?", "compare", None),
    ("Okafor or Haaland lately?", None, "PLAYER_NOT_FOUND"),
    ("Evan Dimitriou goals + assists last 3 GWs", "surface", None),
])
def test_a_word_of_time_with_two_names(routers, query, intent, error):
    r = _route(routers, "football", query)
    assert (r["error"] or {}).get("code") == error
    assert error or (r["status"], r["intent"]) == ("activated", intent)


@pytest.mark.parametrize("query", ["any good football podcasts lately?", "how have the ultras been behaving lately?",
                                   "my sourdough starter smells weird lately"])
def test_a_word_of_time_beside_a_rare_lower_case_word_names_no_player(routers, query):
    r = _route(routers, "football", query)
    assert r["error"] is None or r["error"]["code"] != "PLAYER_NOT_FOUND"


@pytest.mark.parametrize("domain, query, not_tool", [
    ("accounting", "sales bucketed by month", "receivables_aging"),
    ("accounting", "show inventory by age", "payables_aging"),
    ("accounting", "do we sell a blow dryer?", "expense_list"),
    ("accounting", "storeroom rent this year", "product_list"),
    ("cfo", "how much do we spend to keep the lights on each month?", "cash_position"),
    ("cfo", "jatuh tempo invoice Sharma tinggal berapa hari?", "cash_position"),
    ("cfo", "this stock, how long will it last at the current sales rate?", "cash_position"),
    ("cfo", "har entry ka GST kitna laga?", "bank_transactions"),
    ("cfo", "which customers have paid up in full?", "overdue_customers"),
])
def test_an_idiom_word_in_its_other_sense_does_not_pull(routers, domain, query, not_tool):
    r = _route(routers, domain, query)
    assert not r["matches"] or r["matches"][0]["name"] != not_tool, r["matches"][:2]


def test_the_ask_after_a_message_sentence_is_still_asked(powers):
    r = powers.route("Email Andi saying I'm running late. Also what's on my calendar tomorrow?", today=TODAY).to_dict()
    assert "calendar" in [m["name"] for m in r["matches"]]


def test_a_record_written_with_saying_keeps_its_data(routers):
    r = _route(routers, "cfo", "record a payment of 40k from Joshi & Co, saying it is for invoice INV-12")
    assert not any(t["text"] == "inv" and t["role"] == "stop" for t in r["tokens"])
    assert any("12" in t["text"] for t in r["tokens"] if t["role"] != "stop")


@pytest.mark.parametrize("query, power", [
    ("what's the best time for a meeting tomorrow?", "calendar"),
    ("what is the best selling plan in stripe this month?", "stripe"),
])
def test_the_best_of_a_powers_data_is_asked_of_it(powers, query, power):
    r = powers.route(query, today=TODAY).to_dict()
    assert r["matches"] and r["matches"][0]["name"] == power


def test_a_colon_question_after_a_statement_keeps_the_statement_aside(routers):
    r = _route(routers, "accounting", "Budi joined on Monday, which customer owes more: Hotel Nusantara or PT Maju?")
    assert r["dates"] == [] or all(d["text"].lower() != "monday" for d in r["dates"])


def test_just_to_confirm_is_framing_not_a_word_of_the_ask(routers):
    r = _route(routers, "cfo", "just to confirm, did we end last quarter in profit?")
    assert {t["text"]: t["role"] for t in r["tokens"]}.get("confirm") != "literal"


def test_a_catalog_whose_descriptions_ask_and_go_on_builds_and_routes(tmp_path):
    # the build reads descriptions as questions are read (what follows a "?" included): nothing it reads may be unset
    import json
    import shutil

    from conftest import ROOT
    from routing.core.lexicon import load_domain
    from routing.core.router import Router
    from routing.quality.tool_import import import_tool_catalog

    shutil.copytree(ROOT / "lexicons" / "_shared", tmp_path / "_shared")
    catalog = [{"type": "function", "function": {"name": "get_weather", "description": "Is it raining? Returns the weather for a city.",
                                                 "parameters": {"type": "object", "properties": {
                                                     "city": {"type": "string", "description": "which city? e.g. Jakarta"}}}}},
               {"type": "function", "function": {"name": "send_mail", "description": "Send an email? Quick and simple.",
                                                 "parameters": {"type": "object", "properties": {}}}}]
    (tmp_path / "catalog.json").write_text(json.dumps(catalog), encoding="utf-8")
    import_tool_catalog(tmp_path / "catalog.json", "asks", root=tmp_path)
    r = Router(load_domain("asks", tmp_path)).route("will it rain in Jakarta? thanks", today=TODAY).to_dict()
    assert r["matches"][0]["name"] == "get_weather"
