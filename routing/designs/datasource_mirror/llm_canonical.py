"""The model's reading of a question, when a request asks for the LLM (`route --llm`, `"llm": true`,
the playground's "Run on the LLM"): one call returns the canonical form and L2's variations.

    read = ask_model(query, cfg, client=client, cache=router.llm_reads)
    read["canonical"], read["variations"], read["source"]  # source: "model", "cache" or "table"

The request carries the domain's vocabulary (the canonical phrases of the rewrite table and the
sample questions) in its system prompt and as `examples` of a JSON-schema response format, so a
model (or the local stand-in, routing.paths.fake_model) answers in the domain's own words. Replies
are cached by (model, cleaned question) in memory, bounded. Nothing here raises: no endpoint, an
upstream error or a reply with nothing usable gives source "table" and the reason, and the caller
keeps the rewrite table's canonical form and variations (the offline default and the fallback).
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict

from .canonical import clean
from .config import MirrorConfig

DEFAULT_MODEL = "gpt-4o-mini"
MAX_CHARS = 200
CACHE_SIZE = 2048


class ReadCache:
    """(model, cleaned question) -> the model's reading; least recently used out first."""

    def __init__(self, size: int = CACHE_SIZE):
        self.size = size
        self._items: OrderedDict[tuple[str, str], dict] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> dict | None:
        with self._lock:
            got = self._items.get(key)
            if got is not None:
                self._items.move_to_end(key)
            return got

    def put(self, key: tuple[str, str], value: dict) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


def vocabulary(cfg: MirrorConfig) -> list[str]:
    """The domain's own words: every sample question (cleaned), then the canonical phrases."""
    out = [clean(q) for qs in cfg.samples.values() for q in qs] + list(cfg.rewrites)
    return list(dict.fromkeys(x for x in out if x))


def build_request(query: str, cfg: MirrorConfig, model: str):
    from routing.paths.llm import ChatRequest

    vocab = vocabulary(cfg)
    n = max(1, cfg.votes)
    system = ("Rewrite the user's question into this domain's canonical wording, using only these phrases and "
              "questions where they fit: " + "; ".join(vocab) + f". Also give {n} different rewordings of it in the "
              "same vocabulary. Answer with JSON: {\"canonical\": string, \"variations\": [string, ...]}.")
    schema = {
        "type": "object",
        "properties": {
            "canonical": {"type": "string", "description": "the question in the domain's canonical wording", "examples": vocab},
            "variations": {"type": "array", "items": {"type": "string"}, "maxItems": n,
                           "description": "rewordings in the same vocabulary", "examples": vocab},
        },
        "required": ["canonical", "variations"],
        "additionalProperties": False,
    }
    messages = ({"role": "system", "content": system}, {"role": "user", "content": query})
    return ChatRequest(model=model, messages=messages,
                       response_format={"type": "json_schema", "json_schema": {"name": "canonical_question", "strict": False, "schema": schema}})


def parse_reply(text: str | None, n: int) -> tuple[str, list[str]]:
    """(canonical, variations) from the model's JSON; ("", []) for junk."""
    if not isinstance(text, str):
        return "", []
    body = text.strip().removeprefix("```json").removeprefix("```").removesuffix("```").strip()
    try:
        data = json.loads(body)
    except ValueError:
        return "", []
    if not isinstance(data, dict):
        return "", []
    canon = data.get("canonical")
    canon = clean(canon)[:MAX_CHARS] if isinstance(canon, str) else ""
    raw = data.get("variations") if isinstance(data.get("variations"), list) else []
    variations = [clean(v)[:MAX_CHARS] for v in raw if isinstance(v, str) and clean(v)]
    return canon, list(dict.fromkeys(v for v in variations if v != canon))[:n]


def ask_model(query: str, cfg: MirrorConfig, *, client, cache: ReadCache) -> dict:
    """{canonical, variations, source, model, reason, latency_ms, usage}; source "table" means: use the table."""
    config = getattr(client, "config", None)
    model = config.model_name("cheap", DEFAULT_MODEL) if hasattr(config, "model_name") else DEFAULT_MODEL
    key = (model, clean(query))
    hit = cache.get(key)
    if hit is not None:
        return {**hit, "source": "cache"}
    base = {"canonical": "", "variations": [], "model": model, "latency_ms": None, "usage": None}
    if not getattr(config, "configured", True):
        return {**base, "source": "table", "upstream_down": True, "reason": "no LLM endpoint configured (set OPENAI_BASE_URL or OPENAI_API_KEY)"}
    request = build_request(query, cfg, model)
    reply = client.complete(request)
    if not reply.ok:
        return {**base, "source": "table", "upstream_down": True, "reason": f"upstream error: {reply.reason}", "latency_ms": reply.latency_ms}
    canon, variations = parse_reply(reply.text, max(1, cfg.votes))
    if not canon:
        return {**base, "source": "table", "reason": "bad reply: no canonical form in the model's JSON", "latency_ms": reply.latency_ms}
    read = {"canonical": canon, "variations": variations, "model": reply.model, "reason": None,
            "latency_ms": reply.latency_ms, "usage": getattr(reply, "usage", None)}
    cache.put(key, read)
    return {**read, "source": "model"}
