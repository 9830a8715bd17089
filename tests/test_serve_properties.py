"""Every body the API accepts as JSON gets a contract answer: 200 / 422 with a route result, or a 4xx
with {"error": {"code", "message"}}; never a 500. Hypothesis draws the body's shapes (each field any
JSON value, nested, odd Unicode), not only the query text (issue 23)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings, strategies as st

from routing.serve.app import FIELDS, MAX_NESTING, create_app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(ROOT / "lexicons"), raise_server_exceptions=False) as c:
        yield c


def _check(response) -> dict:
    assert response.status_code < 500, response.text
    data = response.json()
    if response.status_code == 200:
        assert data["status"] in {"activated", "multiple_matches", "weak_matches", "not_found", "needs_clarification"}
    elif response.status_code == 422:
        assert data["error"]["code"] == "INVALID_QUERY"
    else:
        assert set(data["error"]) == {"code", "message"} and data["error"]["message"]
    return data


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(max_size=20), st.sampled_from(["L1", "L2", "live", "replay", "2026-01-22", "saka", "ı", "İ", "ſ"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=12)
thresholds = st.dictionaries(st.sampled_from(["high", "medium", "low", "margin"]),
                             st.one_of(st.floats(0, 1), st.integers(0, 1), scalars), max_size=4)
contexts = st.dictionaries(st.sampled_from(["player_ids", "players", "mode", "max_depth", "data_mode", "power", "x"]), json_values, max_size=3)
bodies = st.fixed_dictionaries({}, optional={
    "query": st.one_of(st.text(max_size=60), st.sampled_from(["outstanding invoices", "Q1 Frı", "stats for saka", "hello", "show me the bots"]), json_values),
    "domain": st.one_of(st.sampled_from(["accounting", "cfo", "football", "factory", "powers"]), json_values),
    "today": st.one_of(st.sampled_from(["2026-01-22", "0001-01-01", "9999-12-31", "2026-02-30"]), json_values),
    "thresholds": st.one_of(thresholds, json_values),
    "context": st.one_of(contexts, json_values),
    "data_mode": json_values, "max_depth": json_values, "llm": st.just(False) | json_values,
})


@given(body=bodies)
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_any_body_shape_gets_a_contract_answer(client, body):
    if body.get("llm") is True:
        body["llm"] = False  # the LLM path has its own tests; no endpoint here
    _check(client.post("/route", content=json.dumps(body)))


@pytest.mark.parametrize("body,status", [
    ('{"query": "invoices", "context": {"a": ' + "[" * 2000 + "]" * 2000 + "}}", 400),
    ('{"query": "invoices", "context": {"a": ' + "[" * (MAX_NESTING + 5) + "]" * (MAX_NESTING + 5) + "}}", 400),
    ({"query": "hello", "domain": "powers", "thresholds": {"low": 0, "medium": 0}}, 200),
    ({"query": "hello", "domain": "powers", "thresholds": {"high": 0, "medium": 0, "low": 0, "margin": 0}}, 200),
    ({"query": "invoices", "thresholds": {"high": 0.2, "medium": 0.9}}, 400),
    ({"query": "stats for saka", "domain": "football", "context": {"player_ids": 5}}, 400),
    ({"query": "stats for saka", "domain": "football", "context": {"player_ids": [{"id": 1}]}}, 400),
    ({"query": "Q1 Frı", "domain": "accounting"}, 200),
])
def test_inputs_that_gave_500s_are_answered(client, body, status):
    """Each of these answered 500 (RecursionError, IndexError, TypeError) or was accepted silently."""
    r = client.post("/route", content=body if isinstance(body, str) else json.dumps(body))
    data = _check(r)
    assert r.status_code == status, data
    if status == 400:
        assert data["error"]["code"] == "BAD_ARGUMENTS"
    if isinstance(body, dict) and body["query"] == "hello" and status == 200:
        assert data["status"] == "not_found"  # nothing scored: no tier to offer, whatever the bands


def test_inverted_thresholds_name_the_order(client):
    r = client.post("/route", content=json.dumps({"query": "invoices", "thresholds": {"low": 0.9}}))
    assert r.status_code == 400 and "low <= medium <= high" in r.json()["error"]["message"]


def test_deep_body_is_refused_before_any_route(client):
    assert FIELDS  # the same field list the API checks
    r = client.post("/route", content="[" * 100000 + "]" * 100000)
    assert r.status_code in (400, 413)
