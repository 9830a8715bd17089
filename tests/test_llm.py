"""The real LLM call against a local OpenAI-compatible server (tests/fake_openai.py; no SDK mocking):
the success case and every fault come back as a result, never an exception."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from fake_openai import FakeOpenAI, refused_url
from routing import Router
from routing.paths.run import run_llm, run_llm_for_dict
from routing.paths.llm import LLMClient, LLMConfig

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRILLDOWN = "mujhe pichle mahine ke sabse bade kharche dikhao aur unka trend batao"
SECRET = "sk-test-SECRET-4242"


@pytest.fixture(scope="module")
def cfo() -> Router:
    return Router.load("cfo")


@pytest.fixture()
def fake():
    with FakeOpenAI() as server:
        yield server


def client_for(url: str | None, *, key: str | None = SECRET, retries: int = 1, timeout: float = 5.0) -> LLMClient:
    return LLMClient(LLMConfig(api_key=key, base_url=url, timeout_s=timeout, max_retries=retries, backoff_s=0.01))


def routed(router: Router, query: str, today):
    return router.route(query, today=today)


def test_llm_path_returns_the_tool_call_of_the_server(cfo, fake, today):
    fake.tool_name = "expense_analytics"
    fake.arguments = {"operation": "get_expenses_by_category", "date_from": "2025-12-01", "date_to": "2025-12-31"}
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url))
    assert result.error is None
    assert result.llm["tool_call"] == {"name": "expense_analytics", "arguments": fake.arguments}
    assert result.llm["model"] == "gpt-4o"  # the capable model of lexicons/cfo/settings.yaml
    # The server saw the cfo system prompt and exactly the filtered tools, as functions.
    sent = fake.requests[-1]
    assert sent["messages"][0]["role"] == "system" and "CFO assistant" in sent["messages"][0]["content"]
    assert sent["messages"][1]["content"] == DRILLDOWN
    assert [t["function"]["name"] for t in sent["tools"]] == result.tools_sent
    assert 15 <= len(sent["tools"]) <= 20
    # The tool the model called decides the enrichments: expense_analytics returns series, amounts, lists.
    assert set(result.enrichments) == {"trend_analysis", "currency_format", "ranking"}
    assert [e["type"] for e in result.events][-1] == "llm_called"


def test_general_chat_sends_no_tools_and_returns_text(cfo, fake, today):
    result = run_llm(cfo, routed(cfo, "hi there, thanks!", today), client=client_for(fake.url))
    assert result.error is None
    assert "tools" not in fake.requests[-1]
    assert result.llm["text"] == fake.text and result.llm["tool_call"] is None


def test_fast_path_only_formats(cfo, fake, today):
    result = run_llm(cfo, routed(cfo, "show me the profit and loss statement for this month", today), client=client_for(fake.url))
    assert result.path.value == "fast" and result.error is None
    body = fake.requests[-1]
    assert "tools" not in body and body["model"] == "gpt-4o-mini"
    assert "get_profit_and_loss" in body["messages"][1]["content"]  # the pipeline goes to the formatter


def test_no_key_and_no_endpoint_is_upstream_down_with_the_request(cfo, today):
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=LLMClient(LLMConfig()))
    assert result.error.code == "UPSTREAM_DOWN"
    assert "OPENAI_API_KEY" in result.error.message
    request = result.llm["request"]
    assert request["model"] == "gpt-4o" and len(request["tools"]) == len(result.tools_sent)


def test_connection_refused_is_upstream_down(cfo, today):
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(refused_url()))
    assert result.error.code == "UPSTREAM_DOWN"
    assert "Could not connect" in result.error.message
    assert result.llm["attempts"] == 2  # one retry, then give up


def test_timeout_is_upstream_down(cfo, fake, today):
    fake.behaviour, fake.delay_s = "slow", 2.0
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url, retries=0, timeout=0.3))
    assert result.error.code == "UPSTREAM_DOWN"
    assert "did not answer within 0.3 s" in result.error.message


@pytest.mark.parametrize("behaviour, words", [("status_429", "rate limited (429)"), ("status_500", "HTTP 500")])
def test_429_and_500_retry_a_bounded_number_of_times(cfo, fake, today, behaviour, words):
    fake.behaviour = behaviour
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url, retries=2))
    assert result.error.code == "UPSTREAM_DOWN"
    assert words in result.error.message and "after 3 attempts" in result.error.message
    assert len(fake.requests) == 3


def test_a_passing_fault_is_retried_and_succeeds(cfo, fake, today):
    fake.fail_first = 1
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url, retries=1))
    assert result.error is None and result.llm["attempts"] == 2
    assert result.llm["tool_call"]["name"] in result.tools_sent


def test_a_tool_that_was_not_sent_is_upstream_down(cfo, fake, today):
    fake.behaviour = "unknown_tool"
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url))
    assert result.error.code == "UPSTREAM_DOWN"
    assert "'launch_rocket'" in result.error.message and "not among the 18 tools sent" in result.error.message  # 17 meta-tools + match_intent


def test_arguments_that_are_not_json_are_upstream_down(cfo, fake, today):
    fake.behaviour = "bad_json"
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url))
    assert result.error.code == "UPSTREAM_DOWN"
    assert "are not JSON" in result.error.message


def test_the_key_never_appears_in_the_result_even_when_a_server_echoes_it(cfo, fake, today):
    fake.behaviour = "echo_auth"
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url))
    assert result.error.code == "UPSTREAM_DOWN" and "HTTP 401" in result.error.message
    assert fake.headers[-1]["authorization"] == f"Bearer {SECRET}"  # it was sent ...
    assert SECRET not in json.dumps(result.to_dict())  # ... and never shown
    assert SECRET not in repr(client_for(fake.url)) and SECRET not in repr(client_for(fake.url).config)


def test_model_names_are_overridable_from_the_environment(cfo, fake, today):
    config = LLMConfig.from_env({"OPENAI_BASE_URL": fake.url, "ROUTING_MODEL_CAPABLE": "local-big", "ROUTING_LLM_RETRIES": "0"})
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=LLMClient(config))
    assert fake.requests[-1]["model"] == "local-big" and result.llm["model"] == "local-big"


def test_the_page_runner_reroutes_the_dict_with_its_conversation_mode(cfo, fake, today):
    planned = cfo.route("send reminders to overdue customers", today=today, context={"mode": "cfo"}).to_dict()
    answered = run_llm_for_dict(cfo, planned, client=client_for(fake.url))
    assert answered["error"] is None and answered["llm"]["request"]["model"] == "gpt-4o-mini"
    assert any(e["type"] == "mode_switch" for e in answered["events"])


def _cli(args: list[str], env_extra: dict) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ROUTING_MODEL_", "ROUTING_LLM_"))}
    env.update(env_extra, ROUTING_LLM_RETRIES="0", ROUTING_LLM_TIMEOUT="30")  # a loaded CI machine is slow; the fake answers at once
    return subprocess.run([sys.executable, "-m", "routing", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_cli_llm_returns_the_servers_tool_call(fake):
    proc = _cli(["route", DRILLDOWN, "--domain", "cfo", "--today", "2026-01-22", "--llm"], {"OPENAI_BASE_URL": fake.url})
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["error"] is None
    assert out["llm"]["tool_call"]["name"] == out["tools_sent"][0]
    assert out["category"] == "cfo" and out["path"] == "llm"


def test_cli_llm_without_an_endpoint_answers_upstream_down():
    proc = _cli(["route", DRILLDOWN, "--domain", "cfo", "--today", "2026-01-22", "--llm"], {})
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["error"]["code"] == "UPSTREAM_DOWN"
    assert out["llm"]["request"]["tools"]  # the request it would have sent


def test_the_key_is_masked_in_a_successful_reply_that_echoes_it(cfo, fake, today):
    fake.behaviour = "echo_auth_ok"
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url))
    assert result.error is None and result.llm["tool_call"] is not None
    shown = json.dumps(result.to_dict())
    assert SECRET not in shown and "***" in shown


def test_retry_and_timeout_settings_are_bounded():
    assert LLMConfig.from_env({"ROUTING_LLM_RETRIES": "inf"}).max_retries == 2
    assert LLMConfig.from_env({"ROUTING_LLM_RETRIES": "99"}).max_retries == 5
    assert LLMConfig.from_env({"ROUTING_LLM_TIMEOUT": "nan"}).timeout_s == 20.0


# ---------------------------------------------------------------- a hostile or stuck endpoint (issue 16)


def _everything_shown(result) -> str:
    """Every way the result leaves the library: JSON, repr of the object, the CLI's ASCII-escaped JSON."""
    data = result.to_dict()
    return json.dumps(data, ensure_ascii=False) + json.dumps(data) + repr(result)


@pytest.mark.parametrize("behaviour", ["hostile", "hostile_tool_name", "hostile_bad_json"])
def test_a_hostile_endpoint_never_gets_the_key_shown(cfo, fake, today, behaviour, caplog):
    fake.behaviour = behaviour
    caplog.set_level("DEBUG")
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url, retries=0))
    assert fake.headers[-1]["authorization"] == f"Bearer {SECRET}"  # the server had it ...
    shown = _everything_shown(result) + caplog.text
    assert SECRET not in shown  # ... and it shows nowhere: model, llm.model, events, text, tool name, arguments
    escaped = "".join(f"\\u{ord(c):04x}" for c in SECRET)
    assert escaped not in shown and escaped.replace("\\", "\\\\") not in shown
    if behaviour == "hostile":
        assert result.error is None and "***" in result.llm["model"] and result.llm["text"] == "your key is ***"
        assert result.llm["tool_call"]["arguments"]["note"] == "***" and "***" in result.llm["tool_call"]["arguments"]
    else:
        assert result.error.code == "UPSTREAM_DOWN" and "***" in result.error.message


def test_the_cli_never_prints_the_key_of_a_hostile_endpoint(fake):
    fake.behaviour = "hostile"
    env = dict(os.environ, OPENAI_API_KEY=SECRET, OPENAI_BASE_URL=fake.url, ROUTING_LLM_RETRIES="0")
    proc = subprocess.run([sys.executable, "-m", "routing", "route", DRILLDOWN, "--domain", "cfo", "--llm", "--events"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert SECRET not in proc.stdout + proc.stderr and "SECRET" not in proc.stdout + proc.stderr


def test_a_server_that_drips_bytes_is_cut_off_at_the_wall_clock_limit(cfo, fake, today):
    fake.behaviour, fake.drip_s = "drip", 0.2  # each byte well inside the read timeout; the body takes ~20 s
    client = client_for(fake.url, retries=1, timeout=0.8)
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client)
    assert result.error.code == "UPSTREAM_DOWN" and "did not answer within 0.8 s" in result.error.message
    assert result.llm["attempts"] == 2
    # The whole call stays within timeout x attempts (with slack for a loaded machine, far below 20 s).
    assert result.llm["latency_ms"] < 2 * 800 + 1500


def test_retry_after_is_respected_within_the_bound(cfo, fake, today):
    fake.behaviour, fake.retry_after_s, fake.retry_after_times = "retry_after", 1, 1
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url, retries=1, timeout=5))
    assert result.error is None and result.llm["attempts"] == 2
    assert result.llm["latency_ms"] >= 1000  # it waited as asked (the backoff alone is 10 ms)


def test_a_retry_after_beyond_the_bound_gives_up_at_once(cfo, fake, today):
    fake.behaviour, fake.retry_after_s, fake.retry_after_times = "retry_after", 120, 5
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url, retries=2, timeout=1))
    assert result.error.code == "UPSTREAM_DOWN" and "asked to wait 120 s" in result.error.message
    assert len(fake.requests) == 1


def test_a_200_with_a_null_message_is_upstream_down(cfo, fake, today):
    fake.behaviour = "empty"
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url, retries=0))
    assert result.error.code == "UPSTREAM_DOWN" and "without a message" in result.error.message


def test_a_200_with_neither_tool_call_nor_text_is_upstream_down(cfo, fake, today):
    fake.behaviour, fake.text = "text", ""
    result = run_llm(cfo, routed(cfo, "hi there, thanks!", today), client=client_for(fake.url, retries=0))
    assert result.error.code == "UPSTREAM_DOWN" and "neither a tool call nor text" in result.error.message


def test_each_path_sends_its_own_prompt(cfo, fake, today):
    prompts = cfo.paths.system_prompts
    cases = [
        ("show me the profit and loss statement for this month", "format", ["Indian digit grouping", "concise", "Use only the numbers provided"]),
        ("delete the last expense", "bookkeeper", ["confirm", "missing"]),
        (DRILLDOWN, "cfo", ["risks and anomalies", "numbers"]),
        ("hi there, thanks!", "general_chat", ["warm", "briefly", "steer back"]),
    ]
    for query, key, words in cases:
        run_llm(cfo, routed(cfo, query, today), client=client_for(fake.url, retries=0))
        sent = fake.requests[-1]["messages"][0]
        assert sent["role"] == "system" and sent["content"] == prompts[key], query
        assert all(w in sent["content"] for w in words), (key, words)


# ---------------------------------------------------------------- hardening round 3 (issue 23)


def test_a_retry_after_beyond_what_is_left_says_what_was_left(cfo, fake, today):
    fake.behaviour, fake.retry_after_s, fake.retry_after_times = "retry_after", 120, 5
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url, retries=2, timeout=1))
    message = result.error.message
    assert "were left of the call's 3 s bound" in message and "beyond" not in message, message


def test_credentials_in_the_endpoint_url_are_never_shown(cfo, fake, today):
    url = fake.url.replace("http://", "http://alice:hunter2@")
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(url))
    shown = json.dumps(result.to_dict())
    assert "hunter2" not in shown and "alice" not in shown
    assert result.llm["endpoint"] == fake.url.replace("http://", "http://***@")
    refused = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(refused_url().replace("http://", "http://bob:pw9@"), retries=0))
    assert refused.error.code == "UPSTREAM_DOWN" and "pw9" not in json.dumps(refused.to_dict())


def test_an_abandoned_request_stops_its_llm_call_and_tries_no_more(cfo, fake, today):
    """An SSE client that leaves sets the client's cancel event: the attempt in flight is dropped
    and no retry follows (it used to run timeout x attempts with nobody listening)."""
    import threading

    fake.behaviour, fake.delay_s = "slow", 3.0
    cancel = threading.Event()
    client = LLMClient(LLMConfig(api_key=SECRET, base_url=fake.url, timeout_s=2, max_retries=2, backoff_s=0.01), cancel=cancel)
    threading.Timer(0.5, cancel.set).start()
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client)
    assert result.error.code == "UPSTREAM_DOWN" and "abandoned" in result.error.message
    assert len(fake.requests) == 1 and result.llm["attempts"] == 1


def test_the_first_attempt_is_always_made(cfo, fake, today):
    """Loading the SDK is not the endpoint's time: even the smallest timeout gets one attempt."""
    result = run_llm(cfo, routed(cfo, DRILLDOWN, today), client=client_for(fake.url, retries=0, timeout=0.1))
    assert result.llm["attempts"] == 1 and "no attempt made" not in json.dumps(result.to_dict())
