"""How a catalog known by its descriptions ranks its tools (issue 22): the tool document is BM25F
over the tool's fields (its name's words weigh most, a parameter's description least), and a
question of several sentences brings up the best tool of each sentence, not only of the longest."""
from __future__ import annotations

import json
from pathlib import Path

from routing import Router
from routing.quality.tool_import import import_tool_catalog

TODAY = "2026-01-22"


def fn(name: str, description: str, params: dict[str, str] | None = None) -> dict:
    props = {k: {"type": "string", "description": v} for k, v in (params or {}).items()}
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": {"type": "object", "properties": props}}}


TRAVEL = [
    fn("searchFlights", "Search flights between two airports on a date",
       {"origin": "Departure airport", "destination": "Arrival airport", "date": "Travel date"}),
    fn("getFlightStatus", "Get the status of a flight booking", {"booking_id": "The booking"}),
    fn("getAirportInfo", "Airport terminals and lounges", {"airport": "The airport"}),
    fn("getBaggagePolicy", "Baggage allowance of an airline", {"airline": "The airline"}),
    fn("bookFlight", "Book a seat on a flight on a date", {"date": "Travel date", "seat": "Seat"}),
    fn("cancelFlightBooking", "Cancel a flight booking of an airline", {"booking_id": "The booking"}),
    fn("rentCar", "Rent a car at a location for some days", {"location": "Where to pick the car up", "days": "How many days"}),
    fn("getInvoice", "Fetch a billing document by its number", {"number": "Its number"}),
    fn("sendReminder", "Send a payment reminder to a customer",
       {"invoice_id": "The invoice the reminder is about", "note": "A note about the invoice"}),
]


def travel_router(root: Path) -> Router:
    """The lexical router (dense=False): these tests are about its list; where the MiniLM encoder is
    built, the dense list is fused on top of it (routing.semantic.dense)."""
    catalog = root / "travel.json"
    catalog.write_text(json.dumps(TRAVEL), encoding="utf-8")
    import_tool_catalog(catalog, "travel", root=root)
    return Router.load("travel", root, dense=False)


def test_each_sentence_of_a_question_brings_its_own_tool_into_the_first_five(lexicon_root):
    router = travel_router(lexicon_root)
    query = ("Search flights between the airports on a date, check the flight status of my booking, the baggage "
             "allowance of the airline, a seat, and the airport terminals and lounges. Then rent a car.")
    names = [c["name"] for c in router.route(query, today=TODAY).candidates]
    assert names[:2] == ["searchFlights", "rentCar"], names
    # The same words as one sentence: the tools of the long request come first, the car after them.
    one = [c["name"] for c in router.route(query.replace(". Then", ", then"), today=TODAY).candidates]
    assert one[0] == "searchFlights" and "rentCar" not in one[:3], one


def test_a_word_in_the_tools_name_outweighs_it_in_another_tools_parameters(lexicon_root):
    router = travel_router(lexicon_root)
    r = router.route("invoice 42", today=TODAY)
    assert [c["name"] for c in r.candidates][:2] == ["getInvoice", "sendReminder"]


def test_sentences_are_split_at_sentence_punctuation_not_inside_numbers(lexicon_root):
    router = travel_router(lexicon_root)
    two = router.analyze("Book a flight to Oslo. Then rent a car for 3 days!", today=TODAY)
    assert [keys for keys, _ in two.segments] == [("book", "flight", "oslo"), ("rent", "car", "days")]
    assert router.analyze("Set the mass to 37.5 kg and the speed to 3.2 m/s", today=TODAY).segments == ()
    assert router.analyze("Book a flight to Oslo", today=TODAY).segments == ()


def test_shipped_domains_are_not_split_into_sentences():
    router = Router.load("accounting", Path(__file__).resolve().parent.parent / "lexicons")
    assert router.analyze("Show unpaid invoices. And the bills too.", today=TODAY).segments == ()


def test_a_large_catalogs_array_scoring_ranks_and_scores_as_the_loops_do(lexicon_root, monkeypatch):
    """From 1,000 entries the tool documents are scored as arrays (routing.core.example_arrays): the
    same candidates with the same confidences as the loops, sentences included."""
    import routing.core.example_arrays as arrays

    loops = travel_router(lexicon_root)
    assert loops.index.example_arrays is None
    monkeypatch.setattr(arrays, "MIN_EXAMPLES", 1)
    as_arrays = Router.load("travel", lexicon_root, dense=False)
    assert as_arrays.index.example_arrays is not None
    for q in ("Search flights between the airports on a date, check the flight status of my booking. Then rent a car.",
              "invoice 42", "Cancel my flight booking! Send a payment reminder; and the baggage allowance?"):
        assert as_arrays.route(q, today=TODAY).candidates == loops.route(q, today=TODAY).candidates
