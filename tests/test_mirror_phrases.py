"""The mirror's L0 (routing/designs/datasource_mirror/phrases.py): a question whose canonical phrases the
samples of one datasource alone use names that datasource, where the index's nearest entry says another.
What a user sees: the datasource, the layer and its funnel step, the fast path."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def factory():
    router = load_router("factory")
    if not router.encoder.name.startswith("transformer"):  # mirror.yaml encoder: auto, where build-encoder has run (CI)
        pytest.skip("the MiniLM transformer is not built (python -m routing build-encoder): these questions were chosen against its index")
    return router


def test_breakdown_words_name_maintenance_whatever_the_nearest_entry(factory):
    # the nearest entry is production's ("night shift" pulls): the phrases name maintenance
    r = factory.route("which machines broke down on the night shift", today=TODAY).to_dict()
    assert r["status"] == "activated" and r["datasource"] == "maintenance" and r["layer"] == "L0"
    assert r["path"] == "fast" and r["path_reason"].startswith("L0")
    step = next(f for f in r["funnel"] if f["layer"] == "L0")
    assert step["phrases"] == ["breakdown", "machines"] and step["accepted"]
    overruled = next(f for f in r["funnel"] if f["layer"] == "L1")
    assert overruled["datasource"] == "production" and overruled["overruled_by"] == "L0"
    assert r["nearest"]["datasource"] == "maintenance"


def test_a_phrase_of_several_datasources_names_nothing(factory):
    # "running" is used by production's, maintenance's and inventory's samples: it names none of them
    assert "running" not in factory.owners and factory.owners["breakdown"] == "maintenance"
    r = factory.route("which lines are running right now", today=TODAY).to_dict()
    assert r["datasource"] == "production" and r["layer"] != "L0"


def test_phrases_of_two_datasources_leave_the_question_to_the_index(factory):
    # repairs (maintenance) and work orders (production): no L0
    r = factory.route("which repair jobs r still open", today=TODAY).to_dict()
    assert r["layer"] != "L0" and not any(f["layer"] == "L0" for f in r["funnel"])


def test_the_seed_example_stays_at_l1(factory):
    # shared/seeds 003: "Show me the bots" hits layer 1; its phrase (machines) agrees, so L1 stays
    r = factory.route("Show me the bots", today=TODAY).to_dict()
    assert r["layer"] == "L1" and r["datasource"] == "maintenance"


def test_stock_on_hand_is_inventory_not_operators(factory):
    # "on hand" was read through "hands" (operators): hr
    r = factory.route("do we have enough M8 bolts on hand for tmrw", today=TODAY).to_dict()
    assert r["datasource"] == "inventory"


def test_the_playground_card_draws_l0_and_the_overruled_layer():
    from streamlit.testing.v1 import AppTest

    from tests.test_app_pages import APP, texts

    at = AppTest.from_file(APP, default_timeout=90)
    # the index's answer (L2: inventory's votes) is overruled by the phrase
    at.query_params.update(domain="factory", today=TODAY, q="repair history for the packaging line")
    at.run()
    assert not at.exception, at.exception
    shown = texts(at)
    assert "**maintenance** answered at **L0**" in shown
    assert "canonical phrases name one datasource" in shown and "phrases repairs" in shown
    assert ":orange[**overruled by L0**]" in shown


@pytest.mark.parametrize("query, datasource", [
    ("any quality inspections due next week?", "quality"),          # "next week" is a date, no hr phrase
    ("which supplier delivers steel next week", "inventory"),
    ("which machines are running on line 4 right now", "production"),  # one phrase does not overrule L1
    ("what's the schedule for the night shift", "hr"),
    ("do we have enough capacity on line 3 this week", "production"),
])
def test_l0_leaves_what_it_cannot_tell(factory, query, datasource):
    # review: each went to hr or maintenance at L0
    r = factory.route(query, today=TODAY).to_dict()
    assert r["datasource"] == datasource and r["layer"] != "L0"
