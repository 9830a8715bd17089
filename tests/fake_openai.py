"""A small OpenAI-compatible chat-completions server on 127.0.0.1, for tests and demos.

    with FakeOpenAI() as fake:                 # a free port, a background thread
        fake.behaviour = "tool_call"           # or: text, status_429, status_500, slow, unknown_tool,
                                               #     bad_json, echo_auth (401 echoing the key),
                                               #     hostile* (the key in model, text, tool name and
                                               #     JSON-escaped in arguments), drip (one byte every
                                               #     drip_s), retry_after (429 + Retry-After), empty
        fake.fail_first = 1                    # answer 500 to the first N requests, then behave
        LLMConfig(api_key="k", base_url=fake.url)
        fake.reply = lambda body: "..."        # text replies chosen per request (else fake.text)
        fake.requests                          # every request body received, in order

Run it by hand for `python -m routing route ... --llm`:
    python tests/fake_openai.py --port 8639 &
    OPENAI_BASE_URL=http://127.0.0.1:8639/v1 python -m routing route "..." --domain cfo --llm
"""
from __future__ import annotations

import argparse
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BEHAVIOURS = ("tool_call", "text", "status_429", "status_500", "slow", "unknown_tool", "bad_json", "echo_auth", "echo_auth_ok",
              "hostile", "hostile_tool_name", "hostile_bad_json", "drip", "retry_after", "empty")


def refused_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"

    def log_message(self, *args) -> None:  # quiet test output
        return

    def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self) -> None:  # noqa: N802 (http.server naming)
        fake = self.server.fake
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            body = {"_unreadable": True}
        with fake.lock:
            fake.requests.append(body)
            fake.headers.append({k.lower(): v for k, v in self.headers.items()})
            n = len(fake.requests)
        if self.path.rstrip("/").endswith("/embeddings"):
            return self._send(200, _embeddings(body, fake.embedding_dim))
        if not self.path.rstrip("/").endswith("/chat/completions"):
            return self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
        if n <= fake.fail_first:
            return self._send(500, {"error": {"message": "temporary failure", "type": "server_error"}})
        behaviour = fake.behaviour
        key = self.headers.get("Authorization", "").removeprefix("Bearer ")
        if behaviour == "retry_after":  # 429 asking to wait fake.retry_after_s, then a tool call
            if n - fake.fail_first <= fake.retry_after_times:
                return self._send(429, {"error": {"message": "slow down", "type": "rate_limit"}}, {"Retry-After": str(fake.retry_after_s)})
            behaviour = "tool_call"
        if behaviour == "drip":  # headers at once, then the body one byte every drip_s: never a read timeout
            body = json.dumps({"id": "x", "object": "chat.completion", "created": 1, "model": "m", "choices": []}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for i in range(len(body)):
                    if fake.stopping.is_set():
                        return
                    self.wfile.write(body[i : i + 1])
                    self.wfile.flush()
                    time.sleep(fake.drip_s)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if behaviour == "empty":  # a 200 whose message is null
            return self._send(200, {"id": "x", "object": "chat.completion", "created": 1, "model": "m",
                                    "choices": [{"index": 0, "message": None, "finish_reason": "stop"}]})
        if behaviour.startswith("hostile"):  # a server that sends the key back in every field it can
            escaped = "".join(f"\\u{ord(c):04x}" for c in key)
            tools = [t["function"]["name"] for t in body.get("tools") or []]
            name = f"tool_{key}" if behaviour == "hostile_tool_name" else (tools[0] if tools else "none")
            args = '{"operation": "%s", "note": "%s", "%s": 1}' % (key, escaped, escaped)
            if behaviour == "hostile_bad_json":
                args = '{"note": "%s", broken' % escaped
            message = {"role": "assistant", "content": f"your key is {key}",
                       "tool_calls": [{"id": "c", "type": "function", "function": {"name": name, "arguments": args}}]}
            return self._send(200, {"id": "x", "object": "chat.completion", "created": 1, "model": f"gpt-{key}",
                                    "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]})
        if behaviour == "status_429":
            return self._send(429, {"error": {"message": "Rate limit reached", "type": "rate_limit"}}, {"Retry-After": "0"})
        if behaviour == "status_500":
            return self._send(500, {"error": {"message": "The server had an error", "type": "server_error"}})
        if behaviour == "echo_auth":
            auth = self.headers.get("Authorization", "")
            return self._send(401, {"error": {"message": f"Incorrect API key provided: {auth}", "type": "invalid_request_error"}})
        echo = self.headers.get("Authorization", "") if behaviour == "echo_auth_ok" else None
        if echo is not None:  # a 200 whose text and tool arguments repeat the key
            behaviour = "tool_call"
        if behaviour == "slow":
            time.sleep(fake.delay_s)
        tools = [t["function"]["name"] for t in body.get("tools") or []]
        message: dict = {"role": "assistant", "content": None}
        if behaviour == "text" or (not tools and behaviour in ("tool_call", "slow")):
            message["content"] = fake.reply(body) if fake.reply else fake.text
        else:
            name = fake.tool_name or (tools[0] if tools else "no_tool")
            if behaviour == "unknown_tool":
                name = "launch_rocket"
            arguments = "{not json" if behaviour == "bad_json" else json.dumps(fake.arguments if echo is None else {"note": echo})
            message["tool_calls"] = [{"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": arguments}}]
        if echo is not None:
            message["content"] = f"debug: {echo}"
        self._send(
            200,
            {
                "id": f"chatcmpl-{n}",
                "object": "chat.completion",
                "created": 1768000000,
                "model": body.get("model", "fake-model"),
                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if "tool_calls" in message else "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            },
        )


def _embeddings(body: dict, dim: int) -> dict:
    """/v1/embeddings: a deterministic bag of hashed words (shared words -> close vectors)."""
    import hashlib

    texts = body.get("input")
    texts = [texts] if isinstance(texts, str) else list(texts or [])
    data = []
    for i, text in enumerate(texts):
        vec = [0.0] * dim
        for word in str(text).lower().split():
            h = int(hashlib.md5(word.encode()).hexdigest(), 16)
            vec[h % dim] += 1.0 if (h >> 8) % 2 else -1.0
        data.append({"object": "embedding", "index": i, "embedding": vec})
    return {"object": "list", "data": data, "model": body.get("model", "fake-embed"), "usage": {"prompt_tokens": 1, "total_tokens": 1}}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: "FakeOpenAI"


class FakeOpenAI:
    def __init__(self, behaviour: str = "tool_call", *, port: int = 0):
        if behaviour not in BEHAVIOURS:
            raise ValueError(f"unknown behaviour {behaviour!r} (known: {', '.join(BEHAVIOURS)})")
        self.behaviour = behaviour
        self.embedding_dim = 64  # /v1/embeddings vector size
        self.fail_first = 0
        self.delay_s = 2.0
        self.drip_s = 0.5
        self.retry_after_s = 1
        self.retry_after_times = 1
        self.stopping = threading.Event()
        self.tool_name: str | None = None
        self.arguments: dict = {"operation": "get_profit_and_loss", "date_from": "2025-12-01", "date_to": "2025-12-31"}
        self.text = "Namaste! How can I help with your accounts today?"
        self.reply = None  # a function(request body) -> text, for a text reply that depends on the request
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.lock = threading.Lock()
        self._server = _Server(("127.0.0.1", port), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description="A fake OpenAI-compatible chat-completions server.")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--behaviour", choices=BEHAVIOURS, default="tool_call")
    args = parser.parse_args()
    fake = FakeOpenAI(args.behaviour, port=args.port).start()
    print(fake.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        fake.stop()


if __name__ == "__main__":
    main()
