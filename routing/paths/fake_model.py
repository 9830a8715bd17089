"""A local stand-in for an OpenAI-compatible model: offline, deterministic, for tests and demos.

    python -m routing fake-llm --port 8651 [--delay 2] [--fail-first 1] [--status 500]
    OPENAI_BASE_URL=http://127.0.0.1:8651/v1 python -m routing route "..." --domain cfo --llm

It is not a language model. It answers POST /v1/chat/completions by a small policy over what it was
sent, so that a test can tell a good request from a bad one:
  * tools sent -> it calls the tool whose name, description and enum values share the most words
    with the user's question, each word weighted by how rare it is among the tools sent (so words
    every tool has count for little; no word list of any language is involved); no shared word ->
    it answers in text instead of calling a tool;
  * arguments are filled from the question: an enum takes its value with the most shared words,
    a date field takes the ISO dates written in the question (in order), a number the first number;
  * `response_format` with a JSON schema -> a JSON object whose string fields take the schema's
    `examples` entry closest to the question and whose string lists take the closest few;
  * otherwise a one-line text that says it is the local stand-in.
`usage` counts tokens as characters / 4 and reports `prompt_tokens_details.cached_tokens` when a
request starts with a prefix an earlier request had (in blocks of CACHE_BLOCK tokens once the
prefix reaches CACHE_MIN tokens, as OpenAI's prompt cache does). `"stream": true` answers as
server-sent events. `delay_s`, `fail_first` and `status` make it slow or broken on purpose.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NAME = "local-stand-in"
CACHE_MIN = 1024  # tokens: a shorter prefix is never cached
CACHE_BLOCK = 128  # tokens: a cached prefix counts in whole blocks
CHARS_PER_TOKEN = 4
_WORD = re.compile(r"\w+", re.UNICODE)
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_NUMBER = re.compile(r"(?<![\w-])\d+(?:\.\d+)?(?![\w-])")
PREFIX = 5  # words match on their first PREFIX letters (profit / profits), whatever the language


def words(text: str) -> list[str]:
    """Lower-case word keys: split on non-word characters and underscores, cut to PREFIX letters."""
    out = []
    for w in _WORD.findall(str(text or "").casefold().replace("_", " ")):
        if len(w) >= 3 and not w.isdigit():
            out.append(w[:PREFIX])
    return out


def _tool_words(tool: dict) -> set[str]:
    fn = tool.get("function") or {}
    bag = set(words(fn.get("name", ""))) | set(words(fn.get("description", "")))
    for prop in ((fn.get("parameters") or {}).get("properties") or {}).values():
        for value in prop.get("enum") or ():
            bag |= set(words(str(value)))
    return bag


def score_tools(question: str, tools: list[dict]) -> list[tuple[str, float]]:
    """(name, score) for every tool sent, in the order sent: the rarity-weighted words it shares with the question."""
    bags = [_tool_words(t) for t in tools]
    n = len(bags)
    q = set(words(question))
    scores = []
    for tool, bag in zip(tools, bags):
        s = sum(math.log(1 + n / sum(1 for b in bags if w in b)) for w in q & bag)
        scores.append(((tool.get("function") or {}).get("name", ""), round(s, 4)))
    return scores


def choose_tool(question: str, tools: list[dict]) -> str | None:
    """The best-scoring tool (the first sent on a tie), or None when no tool shares a word."""
    scores = score_tools(question, tools)
    best = max((s for _, s in scores), default=0.0)
    return next(name for name, s in scores if s == best) if best > 0 else None


def _closest(question: str, options: list[str], top: int = 1) -> list[str]:
    """The options sharing the most words with the question, each word weighted by how rare it is
    among the options (ties: the shorter first, then as given); none when no word is shared."""
    q = set(words(question))
    bags = [set(words(str(opt))) for opt in options]
    df: dict[str, int] = {}
    for bag in bags:
        for w in bag & q:
            df[w] = df.get(w, 0) + 1
    ranked = []
    for i, (opt, bag) in enumerate(zip(options, bags)):
        shared = bag & q
        if shared:
            score = sum(math.log(1 + len(options) / df[w]) for w in shared)
            ranked.append((-round(score, 6), len(str(opt)), i, str(opt)))
    return [r[3] for r in sorted(ranked)[:top]]


def fill_arguments(question: str, parameters: dict) -> dict:
    """Arguments for a tool's JSON-schema parameters, taken from the question (nothing invented)."""
    props = (parameters or {}).get("properties") or {}
    dates = _ISO.findall(question)
    numbers = [n for n in _NUMBER.findall(_ISO.sub(" ", question))]
    out: dict = {}
    for name, prop in props.items():
        if prop.get("enum"):
            best = _closest(question, [str(v) for v in prop["enum"]])
            if best:
                out[name] = best[0]
        elif prop.get("format") == "date" and dates:
            out[name] = dates.pop(0)
        elif prop.get("type") in ("integer", "number") and numbers:
            value = numbers.pop(0)
            out[name] = int(float(value)) if prop["type"] == "integer" else float(value)
    return out


def fill_schema(question: str, schema: dict):
    """A value for a JSON schema from its `examples` (the closest to the question)."""
    kind = schema.get("type")
    if kind == "object":
        return {k: fill_schema(question, v) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        item = schema.get("items") or {}
        options = schema.get("examples") or item.get("examples") or []
        return _closest(question, [str(x) for x in options], top=int(schema.get("maxItems") or 3))
    if kind == "string":
        best = _closest(question, [str(x) for x in (schema.get("enum") or schema.get("examples") or [])])
        return best[0] if best else ""
    if kind in ("integer", "number"):
        found = _NUMBER.findall(question)
        return (int(float(found[0])) if kind == "integer" else float(found[0])) if found else 0
    if kind == "boolean":
        return False
    return None


def _question(messages: list[dict]) -> str:
    for m in reversed(messages or []):
        if m.get("role") == "user":
            content = m.get("content")
            if isinstance(content, list):
                return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
            return str(content or "")
    return ""


def answer(body: dict) -> dict:
    """The assistant message the policy gives for a request body: {content, tool_calls?}."""
    question = _question(body.get("messages") or [])
    tools = [t for t in body.get("tools") or [] if isinstance(t, dict)]
    if tools:
        name = choose_tool(question, tools)
        if name is not None:
            tool = next(t for t in tools if (t.get("function") or {}).get("name") == name)
            args = fill_arguments(question, (tool.get("function") or {}).get("parameters") or {})
            return {"role": "assistant", "content": None,
                    "tool_calls": [{"id": "call_0", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") if fmt.get("type") == "json_schema" else None
    if isinstance(schema, dict):
        return {"role": "assistant", "content": json.dumps(fill_schema(question, schema), ensure_ascii=False)}
    what = "none of the tools sent shares a word with the question" if tools else "asked to word an answer"
    return {"role": "assistant", "content": f"[{NAME}] {what}: {question[:120]}"}


class PrefixCache:
    """Earlier prompts, to count how much of a new prompt's start was seen before (in tokens)."""

    def __init__(self, keep: int = 64):
        self.keep = keep
        self.prompts: list[str] = []
        self.lock = threading.Lock()

    def cached_tokens(self, prompt: str) -> int:
        with self.lock:
            common = max((_common_prefix(prompt, p) for p in self.prompts), default=0)
            self.prompts.append(prompt)
            del self.prompts[:-self.keep]
        tokens = common // CHARS_PER_TOKEN
        return 0 if tokens < CACHE_MIN else tokens // CACHE_BLOCK * CACHE_BLOCK


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def prompt_text(body: dict) -> str:
    """What the model reads, in the order a provider caches it: tools, then messages."""
    return json.dumps(body.get("tools") or [], ensure_ascii=False) + json.dumps(body.get("messages") or [], ensure_ascii=False)


class FakeModel:
    """The server: `with FakeModel() as fake: fake.url`; `fake.requests` holds every body received."""

    def __init__(self, *, port: int = 0, host: str = "127.0.0.1", delay_s: float = 0.0, fail_first: int = 0, status: int | None = None):
        self.delay_s = delay_s  # slow on purpose: seconds before each answer
        self.fail_first = fail_first  # broken on purpose: the first N chat requests get a 500
        self.status = status  # broken on purpose: every chat request gets this HTTP status
        self.requests: list[dict] = []
        self.cache = PrefixCache()
        self.lock = threading.Lock()
        self._server = _Server((host, port), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> "FakeModel":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "FakeModel":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def completion(self, body: dict, n: int) -> dict:
        message = answer(body)
        prompt = prompt_text(body)
        completion_text = message.get("content") or json.dumps(message.get("tool_calls"))
        prompt_tokens = max(1, len(prompt) // CHARS_PER_TOKEN)
        completion_tokens = max(1, len(completion_text) // CHARS_PER_TOKEN)
        return {
            "id": f"chatcmpl-fake-{n}", "object": "chat.completion", "created": 1768000000, "model": f"{NAME}:{body.get('model') or 'default'}",
            "system_fingerprint": NAME,
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens,
                      "prompt_tokens_details": {"cached_tokens": self.cache.cached_tokens(prompt)}},
        }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeModel


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args) -> None:
        return

    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self) -> None:  # noqa: N802
        if self.path.rstrip("/").endswith("/models"):
            return self._json(200, {"object": "list", "data": [{"id": NAME, "object": "model", "owned_by": "local"}]})
        return self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:  # noqa: N802
        fake = self.server.fake
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        except ValueError:
            return self._json(400, {"error": {"message": "the body is not JSON", "type": "invalid_request_error"}})
        if not self.path.rstrip("/").endswith("/chat/completions"):
            return self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
        with fake.lock:
            fake.requests.append(body)
            n = len(fake.requests)
        if fake.delay_s:
            time.sleep(fake.delay_s)
        if fake.status:
            return self._json(fake.status, {"error": {"message": f"{NAME}: answering {fake.status} on purpose", "type": "server_error"}})
        if n <= fake.fail_first:
            return self._json(500, {"error": {"message": f"{NAME}: failing request {n} of the first {fake.fail_first} on purpose", "type": "server_error"}})
        out = fake.completion(body, n)
        if not body.get("stream"):
            return self._json(200, out)
        self._stream(out, bool((body.get("stream_options") or {}).get("include_usage")))

    def _stream(self, out: dict, include_usage: bool) -> None:
        """Server-sent events: the role, the content in pieces (or the tool call), the finish, [DONE]."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        choice = out["choices"][0]
        message = choice["message"]
        base = {k: out[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
        deltas = [{"role": "assistant", "content": ""}]
        if message.get("tool_calls"):
            deltas.append({"tool_calls": [dict(message["tool_calls"][0], index=0)]})
        else:
            text = message.get("content") or ""
            deltas += [{"content": text[i:i + 16]} for i in range(0, len(text), 16)]
        chunks = [dict(base, choices=[{"index": 0, "delta": d, "finish_reason": None}]) for d in deltas]
        chunks.append(dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]))
        if include_usage:
            chunks.append(dict(base, choices=[], usage=out["usage"]))
        try:
            for chunk in chunks:
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m routing fake-llm", description=__doc__.splitlines()[0])
    add_arguments(p)
    return run(p.parse_args(argv))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8651)
    p.add_argument("--delay", type=float, default=0.0, help="seconds before each answer (slow on purpose)")
    p.add_argument("--fail-first", type=int, default=0, help="answer 500 to the first N requests (broken on purpose)")
    p.add_argument("--status", type=int, default=None, help="answer every request with this HTTP status (broken on purpose)")


def run(args) -> int:
    fake = FakeModel(port=args.port, host=args.host, delay_s=args.delay, fail_first=args.fail_first, status=args.status).start()
    print(json.dumps({"url": fake.url, "model": NAME, "note": "a local stand-in, not a language model"}), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        fake.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
