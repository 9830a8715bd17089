"""The LLM (or any network) runs only when a request asks for it, in every design.

OPENAI_BASE_URL points at the local stand-in model, which counts the requests it receives: a plain
`route` in each of the five domains makes none (and the factory says L3 was not run because nobody
asked); `route --llm` and the HTTP API's "llm": true make them."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

from routing.cli.main import main
from routing.paths.fake_model import FakeModel

TODAY = "2026-01-22"
QUESTIONS = {
    "accounting": "which invoices are unpaid this month",
    "cfo": "which customers owe us the most money",
    "factory": "what is the capital of peru",  # no layer is sure: L3 would be the LLM's
    "football": "how is Okafor doing",
    "powers": "deploy my app to the cloud",
}


@pytest.fixture()
def model(monkeypatch):
    with FakeModel() as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.setenv("ROUTING_LLM_RETRIES", "0")
        monkeypatch.setenv("ROUTING_LLM_TIMEOUT", "5")
        yield fake


def _cli(*argv: str) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    text = out.getvalue() or err.getvalue()
    return code, json.loads(text.strip().splitlines()[-1])


@pytest.mark.parametrize("domain", sorted(QUESTIONS))
def test_plain_route_makes_no_request(model, domain):
    code, result = _cli("route", QUESTIONS[domain], "--domain", domain, "--today", TODAY)
    assert code == 0 and result["error"] is None
    assert model.requests == []
    assert result["llm"] is None


def test_factory_says_l3_was_not_run_because_nobody_asked(model):
    _, result = _cli("route", QUESTIONS["factory"], "--domain", "factory", "--today", TODAY)
    l3 = result["funnel"][-1]
    assert l3 == {"layer": "L3", "accepted": False, "llm": False, "reason": "L3 not run: the request did not ask for the LLM", "ms": 0.0}
    assert result["status"] in ("weak_matches", "not_found") and result["canonical_by"] == "table"


@pytest.mark.parametrize("domain", ["accounting", "cfo", "factory", "football"])
def test_route_with_llm_flag_makes_requests(model, domain):
    code, result = _cli("route", QUESTIONS[domain], "--domain", domain, "--today", TODAY, "--llm")
    assert code == 0
    assert len(model.requests) >= 1
    assert QUESTIONS[domain] in json.dumps(model.requests[0])
    assert result["llm"] is not None


def test_a_design_without_an_llm_path_says_so_and_calls_nothing(model):
    code, result = _cli("route", QUESTIONS["powers"], "--domain", "powers", "--today", TODAY, "--llm")
    assert code == 2 and "has no LLM path" in result["error"]["message"]
    assert model.requests == []


def test_http_api_calls_the_model_only_with_llm_true(model):
    from fastapi.testclient import TestClient

    from routing.serve.app import create_app

    client = TestClient(create_app())
    for domain in sorted(QUESTIONS):
        r = client.post("/route", json={"query": QUESTIONS[domain], "domain": domain, "today": TODAY})
        assert r.status_code == 200, r.text
    assert model.requests == []
    r = client.post("/route", json={"query": QUESTIONS["cfo"], "domain": "cfo", "today": TODAY, "llm": True})
    assert r.status_code == 200 and len(model.requests) == 1
    assert r.json()["llm"]["tool_call"]["name"] == "receivables_report"
