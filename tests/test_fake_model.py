"""The local stand-in model (routing.paths.fake_model): it chooses among the tools it was sent,
fills arguments from the question, reports cached prompt tokens, streams, and fails on purpose.
Driven through the project's own LLMClient (the openai SDK) and raw HTTP."""
from __future__ import annotations

import json

import httpx
import pytest

from routing.designs import load_router
from routing.paths.fake_model import CACHE_BLOCK, CACHE_MIN, FakeModel, choose_tool
from routing.paths.llm import ChatRequest, LLMClient, LLMConfig

TODAY = "2026-01-22"


def _tool(name: str, description: str, **props) -> dict:
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": {"type": "object", "properties": props}}}


TOOLS = (
    _tool("list_invoices", "List sales invoices, filtered by status and period.",
          status={"type": "string", "enum": ["paid", "unpaid", "overdue"]},
          date_from={"type": "string", "format": "date"}, date_to={"type": "string", "format": "date"}),
    _tool("stock_levels", "Stock on hand per warehouse item.", limit={"type": "integer"}),
    _tool("employee_roster", "Who works which shift, per employee."),
)


@pytest.fixture(scope="module")
def fake():
    with FakeModel() as f:
        yield f


def _client(fake, **kw) -> LLMClient:
    return LLMClient(LLMConfig(base_url=fake.url, max_retries=kw.pop("retries", 0), timeout_s=kw.pop("timeout", 5.0), **kw))


@pytest.mark.parametrize("question, tool", [
    ("unpaid invoices between 2026-01-01 and 2026-01-15", "list_invoices"),
    ("top 5 stock items in the warehouse", "stock_levels"),
    ("which employee works the night shift", "employee_roster"),
])
def test_the_model_chooses_among_the_tools_sent(fake, question, tool):
    # The same tools in every order: the choice follows the question, not the position.
    for tools in (TOOLS, TOOLS[::-1]):
        reply = _client(fake).complete(ChatRequest("m", ({"role": "user", "content": question},), tools))
        assert reply.ok and reply.tool_call["name"] == tool


def test_arguments_come_from_the_question(fake):
    reply = _client(fake).complete(ChatRequest("m", ({"role": "user", "content": "unpaid invoices between 2026-01-01 and 2026-01-15"},), TOOLS))
    assert reply.tool_call["arguments"] == {"status": "unpaid", "date_from": "2026-01-01", "date_to": "2026-01-15"}
    reply = _client(fake).complete(ChatRequest("m", ({"role": "user", "content": "top 5 stock items"},), TOOLS))
    assert reply.tool_call["arguments"] == {"limit": 5}


def test_no_shared_word_gives_text_not_a_tool_call(fake):
    reply = _client(fake).complete(ChatRequest("m", ({"role": "user", "content": "what is the capital of peru"},), TOOLS))
    assert reply.ok and reply.tool_call is None and "local-stand-in" in reply.text
    assert choose_tool("what is the capital of peru", list(TOOLS)) is None


def test_cfo_llm_path_chooses_the_receivables_report():
    """The cfo domain's own meta-tools: a first-tool policy would call financial_statements. (A question
    two tools fit, so the path is the LLM's; "which customers owe us the most money" now activates
    receivables_summary on the fast path, issue 22.)"""
    with FakeModel() as f:
        router = load_router("cfo")
        routed = router.route("which customers owe us money and for how long", today=TODAY)
        assert routed.path == "llm"
        result = router.run_llm(routed, client=_client(f))
    sent = [t["function"]["name"] for t in f.requests[0]["tools"]]
    assert sent[0] != "receivables_report" and "receivables_report" in sent
    assert result.llm["tool_call"] == {"name": "receivables_report", "arguments": {"operation": "get_customer_outstanding"}}


def test_usage_reports_cached_tokens_when_a_prefix_comes_again():
    big = "rules " * (CACHE_MIN * 5)  # a system prompt well over the cache minimum
    with FakeModel() as f:
        client = _client(f)
        first = client.complete(ChatRequest("m", ({"role": "system", "content": big}, {"role": "user", "content": "stock"}), TOOLS))
        second = client.complete(ChatRequest("m", ({"role": "system", "content": big}, {"role": "user", "content": "invoices"}), TOOLS))
        other = client.complete(ChatRequest("m", ({"role": "system", "content": "short"}, {"role": "user", "content": "stock"}), TOOLS))
    assert first.usage["cached_tokens"] == 0 and first.usage["prompt_tokens"] > CACHE_MIN
    assert second.usage["cached_tokens"] >= CACHE_MIN and second.usage["cached_tokens"] % CACHE_BLOCK == 0
    assert second.usage["cached_tokens"] <= second.usage["prompt_tokens"]
    assert other.usage["cached_tokens"] == 0


def test_streams_server_sent_events(fake):
    body = {"model": "m", "stream": True, "stream_options": {"include_usage": True},
            "messages": [{"role": "user", "content": "stock per warehouse"}], "tools": list(TOOLS)}
    with httpx.stream("POST", fake.url + "/chat/completions", json=body, timeout=5) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        lines = [line[6:] for line in r.iter_lines() if line.startswith("data: ")]
    assert lines[-1] == "[DONE]"
    chunks = [json.loads(x) for x in lines[:-1]]
    calls = [c["choices"][0]["delta"]["tool_calls"][0] for c in chunks if c["choices"] and "tool_calls" in c["choices"][0]["delta"]]
    assert calls[0]["function"]["name"] == "stock_levels"
    assert chunks[-1]["usage"]["prompt_tokens"] > 0


def test_broken_on_purpose_is_upstream_down_then_recovers():
    with FakeModel(fail_first=1) as f:
        failed = _client(f).complete(ChatRequest("m", ({"role": "user", "content": "stock"},), TOOLS))
        assert not failed.ok and "500" in failed.reason
        again = _client(f, retries=1, backoff_s=0.01).complete(ChatRequest("m", ({"role": "user", "content": "stock"},), TOOLS))
        assert again.ok and again.tool_call["name"] == "stock_levels"


def test_slow_on_purpose_hits_the_clients_timeout():
    with FakeModel(delay_s=1.0) as f:
        reply = _client(f, timeout=0.3).complete(ChatRequest("m", ({"role": "user", "content": "stock"},), TOOLS))
    assert not reply.ok and "did not answer within" in reply.reason


def test_structured_answer_from_the_schema_examples(fake):
    schema = {"type": "object", "properties": {"canonical": {"type": "string", "examples": ["count operators on active shift", "stock level of raw materials"]}}}
    fmt = {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}
    reply = _client(fake).complete(ChatRequest("m", ({"role": "user", "content": "how much raw stock is left"},), response_format=fmt))
    assert json.loads(reply.text) == {"canonical": "stock level of raw materials"}
