"""The HTTP API over real HTTP: `python -m routing serve` on 127.0.0.1 (a free port, a child process
stopped by the test), driven with httpx. Bad input is a 4xx with the contract's error code."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.fake_openai import FakeOpenAI

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"
START_TIMEOUT_S = 30


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def fake():
    with FakeOpenAI("slow") as f:
        f.delay_s = 1.5
        yield f


@pytest.fixture(scope="module")
def server(fake):
    port = _free_port()
    env = dict(os.environ, OPENAI_BASE_URL=fake.url, OPENAI_API_KEY="sk-test-SECRET123", ROUTING_LLM_TIMEOUT="5", ROUTING_LLM_RETRIES="0")
    proc = subprocess.Popen([sys.executable, "-m", "routing", "serve", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {proc.stderr.read().decode()[-2000:]}")
            time.sleep(0.1)
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _sse(lines) -> list[tuple[str, dict]]:
    out, name = [], None
    for line in lines:
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            out.append((name, json.loads(line[6:])))
    return out


def test_route_answers_the_contract_result(server):
    base, _ = server
    r = httpx.post(f"{base}/route", json={"query": "pichle mahine ka P&L dikhao", "domain": "cfo", "today": TODAY, "data_mode": "replay"}, timeout=10)
    assert r.status_code == 200
    out = r.json()
    assert out["status"] == "activated" and out["matches"][0]["name"] == "profit_and_loss" and out["path"] == "fast"
    assert out["dates"][0]["start"] == "2025-12-01" and out["dates"][0]["end"] == "2025-12-31"
    trend = next(e for e in out["enrichment_results"] if e["name"] == "trend_analysis")
    assert trend["data"]["points"][-1]["period"] == "2025-12" and trend["data"]["direction"] == "up"


def test_stream_sends_events_as_sse_then_the_result(server):
    base, _ = server
    with httpx.stream("POST", f"{base}/route/stream", json={"query": "top expenses this month", "domain": "cfo", "today": TODAY, "data_mode": "replay"}, timeout=10) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        items = _sse(r.iter_lines())
    names = [n for n, _ in items]
    assert names[0] == "route_started" and names[-1] == "result"
    assert "pipeline_executing" in names and "enrichments_applying" in names
    result = items[-1][1]
    assert [e["type"] for e in result["events"]] == names[:-1]  # the same events, in order, before the result
    assert all(isinstance(d["t_ms"], float) for _, d in items[:-1])


def test_domains_and_health(server):
    base, _ = server
    names = {d["name"]: d for d in httpx.get(f"{base}/domains", timeout=10).json()}
    assert {"accounting", "cfo"} <= set(names) and names["cfo"]["design"] == "tools"
    assert httpx.get(f"{base}/healthz", timeout=5).json()["ok"] is True


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"query": "", "domain": "cfo"}, 422, "INVALID_QUERY"),
        ({"query": "x" * 1001, "domain": "cfo"}, 422, "INVALID_QUERY"),
        ({"query": 42, "domain": "cfo"}, 422, "INVALID_QUERY"),
        ({"query": "P&L", "domain": "../etc"}, 404, "BAD_ARGUMENTS"),
        ({"query": "P&L", "domain": "cfo", "today": "yesterday-ish"}, 400, "BAD_ARGUMENTS"),
        ({"query": "P&L", "domain": "cfo", "thresholds": {"high": 7}}, 400, "BAD_ARGUMENTS"),
        ({"query": "P&L", "domain": "cfo", "data_mode": "forever"}, 400, "BAD_ARGUMENTS"),
        ({"query": "P&L", "domain": "cfo", "context": [1]}, 400, "BAD_ARGUMENTS"),
        ({"query": "P&L", "surprise": 1}, 400, "BAD_ARGUMENTS"),
    ],
)
def test_bad_input_is_a_4xx_with_the_error_code(server, body, status, code):
    base, _ = server
    for path in ("/route", "/route/stream"):
        r = httpx.post(f"{base}{path}", json=body, timeout=10)
        assert r.status_code == status, (path, r.text)
        assert r.json()["error"]["code"] == code
        if status == 422:  # the whole result comes with it: the message says what to fix
            assert r.json()["status"] == "not_found" and r.json()["message"]


def test_bodies_that_are_not_json_objects_are_400(server):
    base, _ = server
    for raw in (b"{not json", b"[1, 2]", b"\xff\xfe", b"x" * 100_000):
        r = httpx.post(f"{base}/route", content=raw, headers={"Content-Type": "application/json"}, timeout=10)
        assert 400 <= r.status_code < 500 and r.json()["error"]["code"] == "BAD_ARGUMENTS"
    assert httpx.get(f"{base}/nowhere", timeout=5).status_code == 404


def test_a_client_that_leaves_mid_stream_does_not_hurt_the_server(server, fake):
    base, proc = server
    before = len(fake.requests)
    body = {"query": "why did expenses grow, compare with sales", "domain": "cfo", "today": TODAY, "llm": True}
    with httpx.stream("POST", f"{base}/route/stream", json=body, timeout=10) as r:
        first = next(r.iter_lines())
        assert first == "event: route_started"
    # Left while the (slow) LLM call was starting: the call is dropped (issue 23), at most the one in
    # flight reached the endpoint.
    time.sleep(1.0)
    assert len(fake.requests) - before <= 1
    assert proc.poll() is None
    again = httpx.post(f"{base}/route", json={"query": "gst summary", "domain": "cfo", "today": TODAY}, timeout=10)
    assert again.status_code == 200 and again.json()["status"] in ("activated", "multiple_matches")
    # The full stream of the same LLM question ends with the result, the key nowhere in it.
    with httpx.stream("POST", f"{base}/route/stream", json=body, timeout=20) as r:
        text = "\n".join(r.iter_lines())
    assert "event: result" in text and "SECRET123" not in text
