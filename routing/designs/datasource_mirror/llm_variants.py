"""LLM paraphrases of the sample questions (mirror.yaml `llm_variants: true`), cached beside the domain.

With an OpenAI-compatible endpoint, the model is asked once per sample question for N paraphrases
(N = `variants`); the reply is parsed leniently (a JSON list, also inside a code fence or under one
key; else numbered or bulleted lines) and cleaned (empties, repeats, the sample itself and lines
over MAX_CHARS dropped, at most N kept). Paraphrases are kept in `.llm_variants.json` beside the
domain, keyed by model name + a hash of the sample text, written atomically, so a rebuild makes no
call for a sample already there. Nothing here raises: no endpoint, an upstream error or a reply with
nothing usable leaves the sample with its deterministic variants, and the report says why.
After the first upstream error no further calls are made for that build (an unreachable endpoint
would otherwise cost its timeout once per sample)."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from routing.core.cachefile import write_cache as write_cache_file

CACHE_FILE = ".llm_variants.json"
DEFAULT_MODEL = "gpt-4o-mini"
MAX_CHARS = 200  # a paraphrase longer than this is not a paraphrase of a short question

_FENCE = re.compile(r"```[a-zA-Z]*\s*(.*?)```", re.S)
_MARKER = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*\u2022])\s+(.*\S)\s*$")


def prompt(n: int) -> str:
    return (f"Rewrite the user's question in {n} different ways people at work might ask it: everyday words, "
            f"slang, short forms, the same meaning. Answer with a JSON list of {n} strings only.")


def parse_paraphrases(text: str | None, n: int, sample: str = "") -> list[str]:
    """At most `n` distinct, non-empty paraphrases of `sample` from a model's reply; [] for junk."""
    if not isinstance(text, str) or n <= 0:
        return []
    body = text.strip()
    fenced = _FENCE.search(body)
    if fenced:
        body = fenced.group(1).strip()
    items: list = []
    try:
        parsed = json.loads(body)
    except ValueError:
        start, end = body.find("["), body.rfind("]")
        try:
            parsed = json.loads(body[start:end + 1]) if 0 <= start < end else None
        except ValueError:
            parsed = None
    if isinstance(parsed, dict):  # {"paraphrases": [...]}: the one list it holds
        lists = [v for v in parsed.values() if isinstance(v, list)]
        parsed = lists[0] if len(lists) == 1 else None
    if isinstance(parsed, list):
        items = [p for p in parsed if isinstance(p, str)]
    elif parsed is None:
        items = [m.group(1) for m in map(_MARKER.match, body.splitlines()) if m]
    out: list[str] = []
    seen = {_key(sample)} if sample else set()
    for item in items:
        line = " ".join(item.strip().strip("\"'").split())
        key = _key(line)
        if not key or len(line) > MAX_CHARS or key in seen:
            continue
        seen.add(key)
        out.append(line)
        if len(out) >= n:
            break
    return out


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]+", " ", text.casefold()).split())


def cache_key(model: str, sample: str) -> str:
    return f"{model}:{hashlib.sha256(sample.strip().encode()).hexdigest()[:16]}"


def read_cache(path: Path) -> dict:
    """The cache's entries; a missing, unreadable or malformed file is an empty cache."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    entries = data.get("entries") if isinstance(data, dict) else None
    return {k: v for k, v in entries.items() if isinstance(v, dict) and isinstance(v.get("paraphrases"), list)} if isinstance(entries, dict) else {}


def write_cache(path: Path, entries: dict) -> str | None:
    """Write atomically (routing.core.cachefile); the error text on failure."""
    text = json.dumps({"version": 1, "entries": entries}, ensure_ascii=False, indent=1, sort_keys=True)
    return write_cache_file(path, lambda f: f.write(text.encode("utf-8")))


def make_client(llm_client=None, environ=None):
    """The injected client, or one from the environment (OPENAI_BASE_URL / OPENAI_API_KEY)."""
    if llm_client is not None:
        return llm_client
    from routing.paths.llm import LLMClient, LLMConfig

    return LLMClient(LLMConfig.from_env(environ))


def paraphrase_samples(samples: list[str], n: int, *, client, cache_path: Path) -> tuple[dict[str, list[str]], dict]:
    """({sample: [paraphrase, ...]}, report). report: enabled, model, used (paraphrases returned),
    samples (with at least one), cached (samples served from the cache), calls, reason (why some or
    all samples have none), cache (the file) and cache_error (when it could not be written)."""
    config = getattr(client, "config", None)
    model = config.model_name("cheap", DEFAULT_MODEL) if hasattr(config, "model_name") else DEFAULT_MODEL
    report = {"enabled": True, "model": model, "used": 0, "samples": 0, "cached": 0, "calls": 0, "reason": None,
              "cache": str(cache_path), "cache_error": None}
    cache = read_cache(cache_path)
    out: dict[str, list[str]] = {}
    missing: list[str] = []
    for sample in dict.fromkeys(samples):
        hit = cache.get(cache_key(model, sample))
        if hit is not None:
            out[sample] = parse_paraphrases(json.dumps(hit["paraphrases"]), n, sample)
            report["cached"] += 1
        else:
            missing.append(sample)
    reasons: list[str] = []
    if missing and not getattr(config, "configured", True):
        reasons.append("no LLM endpoint configured (set OPENAI_BASE_URL or OPENAI_API_KEY)")
        missing = []
    if missing:
        from routing.paths.llm import ChatRequest

        fresh, junk = 0, 0
        for i, sample in enumerate(missing):
            request = ChatRequest(model=model, messages=({"role": "system", "content": prompt(n)}, {"role": "user", "content": sample}))
            reply = client.complete(request)
            report["calls"] += 1
            if not reply.ok:
                left = len(missing) - i
                reasons.append(f"upstream error: {reply.reason} (no further calls; {left} sample(s) without LLM variants)")
                break
            got = parse_paraphrases(reply.text, n, sample)
            if not got:
                junk += 1
                continue
            out[sample] = got
            cache[cache_key(model, sample)] = {"sample": sample, "paraphrases": got}
            fresh += 1
        if junk:
            reasons.append(f"bad reply: {junk} reply(s) held no usable paraphrase (a JSON list of strings was asked for)")
        if fresh:
            report["cache_error"] = write_cache(cache_path, cache)
    report["used"] = sum(len(v) for v in out.values())
    report["samples"] = sum(1 for v in out.values() if v)
    report["reason"] = "; ".join(reasons) or None
    return out, report


def disabled_report() -> dict:
    return {"enabled": False, "used": 0, "samples": 0, "cached": 0, "calls": 0,
            "reason": "off (mirror.yaml llm_variants: false)", "cache": None, "cache_error": None}
