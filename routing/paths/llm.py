"""The LLM call of the LLM path: OpenAI chat completions (any OpenAI-compatible server).

    config = LLMConfig.from_env()               # OPENAI_API_KEY, OPENAI_BASE_URL, ROUTING_LLM_*
    reply = LLMClient(config).complete(ChatRequest(model, messages, tools))
    reply.ok, reply.tool_call, reply.text, reply.reason

`complete` never raises: connection refused, timeout, 429, 5xx, a tool call naming a tool that was
not sent and arguments that are not JSON all come back as `ok=False` with a plain reason. The API
key is never part of a request dict, a reason, a repr or a log line.

Environment:
  OPENAI_API_KEY        the key (a local server may need none: OPENAI_BASE_URL alone is enough)
  OPENAI_BASE_URL       e.g. http://127.0.0.1:8000/v1 for a local OpenAI-compatible server
  ROUTING_MODEL_CHEAP / ROUTING_MODEL_CAPABLE   override the model names of the domain's YAML
  ROUTING_LLM_TIMEOUT   seconds per attempt (default 20)
  ROUTING_LLM_RETRIES   extra attempts after a retryable fault (default 2)
"""
from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

log = logging.getLogger("routing.llm")

# A local server ignores the key, but the SDK insists on one.
PLACEHOLDER_KEY = "not-needed"
MAX_BACKOFF_S = 4.0


@dataclass(frozen=True)
class LLMConfig:
    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None
    timeout_s: float = 20.0
    max_retries: int = 2
    backoff_s: float = 0.5
    model_overrides: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "LLMConfig":
        env = os.environ if environ is None else environ
        overrides = {
            tier: env[var]
            for tier, var in (("cheap", "ROUTING_MODEL_CHEAP"), ("capable", "ROUTING_MODEL_CAPABLE"))
            if env.get(var, "").strip()
        }
        return cls(
            api_key=env.get("OPENAI_API_KEY", "").strip() or None,
            base_url=env.get("OPENAI_BASE_URL", "").strip() or None,
            timeout_s=_bounded_seconds(env.get("ROUTING_LLM_TIMEOUT"), 20.0),
            # Bounded whatever the environment says (inf, nan, -3): 0 to 5 retries.
            max_retries=_bounded_int(env.get("ROUTING_LLM_RETRIES"), 2, 0, 5),
            model_overrides=overrides,
        )

    @property
    def configured(self) -> bool:
        return bool(self.api_key or self.base_url)

    def model_name(self, tier: str | None, default: str) -> str:
        return self.model_overrides.get(tier or "", default)

    @property
    def endpoint(self) -> str:
        """Where requests go, for display: never the key, never a user:password@ of the URL."""
        return _without_userinfo(self.base_url) if self.base_url else "https://api.openai.com/v1 (the SDK default)"


def _without_userinfo(url: str) -> str:
    """The URL with any user:password@ part replaced by ***@ (OPENAI_BASE_URL may carry credentials)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", url
    host, slash, path = rest.partition("/")
    if "@" in host:
        host = "***@" + host.rpartition("@")[2]
    return f"{scheme}{sep}{host}{slash}{path}"


def _bounded_seconds(value: str | None, default: float) -> float:
    """A timeout between 0.1 s and 10 minutes; NaN, infinite or nonsense gives the default."""
    number = _float(value, default)
    if number != number or number in (float("inf"), float("-inf")) or number <= 0:
        return default
    return min(number, 600.0)


def _bounded_int(value: str | None, default: int, lo: int, hi: int) -> int:
    number = _float(value, float(default))
    if number != number or number in (float("inf"), float("-inf")):  # NaN or infinite
        return default
    return max(lo, min(hi, int(number)))


def _float(value: str | None, default: float) -> float:
    try:
        return float(value) if value not in (None, "") else default
    except ValueError:
        return default


@dataclass(frozen=True)
class ChatRequest:
    model: str
    messages: tuple[dict, ...]
    tools: tuple[dict, ...] = ()
    # "anthropic": the static prefix is marked cacheable (cache_control on the system prompt and the
    # last tool); "openai" (default): nothing to mark, the provider caches a long prefix by itself.
    cache_style: str = "openai"
    response_format: dict | None = None  # e.g. {"type": "json_schema", "json_schema": {...}} for a structured answer

    @property
    def tool_names(self) -> tuple[str, ...]:
        return tuple(t["function"]["name"] for t in self.tools)

    def to_dict(self) -> dict:
        """The request body as sent (or as it would have been sent)."""
        body: dict[str, Any] = {"model": self.model, "messages": [dict(m) for m in self.messages]}
        if self.tools:
            body["tools"] = [dict(t) for t in self.tools]
            body["tool_choice"] = "auto"
        if self.response_format:
            body["response_format"] = dict(self.response_format)
        if self.cache_style == "anthropic":
            mark = {"type": "ephemeral"}
            for m in body["messages"]:
                if m.get("role") == "system" and isinstance(m.get("content"), str):
                    m["content"] = [{"type": "text", "text": m["content"], "cache_control": mark}]
            if body.get("tools"):
                body["tools"][-1] = dict(body["tools"][-1], cache_control=mark)
        return body


@dataclass(frozen=True)
class LLMReply:
    ok: bool
    model: str
    tool_call: dict | None = None  # {"name": ..., "arguments": {...}}
    text: str | None = None
    reason: str | None = None  # why it failed, in plain words
    attempts: int = 0
    latency_ms: float = 0.0
    status_code: int | None = None
    # The reply's own accounting, when the server sent it: {prompt_tokens, completion_tokens,
    # total_tokens, cached_tokens} (cached_tokens from usage.prompt_tokens_details), else None.
    usage: dict | None = None


def _usage(response: Any) -> dict | None:
    """The usage block of a completion, flattened to plain ints; None when the server sent none."""
    usage = getattr(response, "usage", None)
    if usage is None:
        return None
    out = {}
    for name in ("prompt_tokens", "completion_tokens", "total_tokens"):
        value = getattr(usage, name, None)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            out[name] = value
    details = getattr(usage, "prompt_tokens_details", None)
    cached = details.get("cached_tokens") if isinstance(details, dict) else getattr(details, "cached_tokens", None)
    out["cached_tokens"] = cached if isinstance(cached, int) and not isinstance(cached, bool) and cached >= 0 else 0
    return out if "prompt_tokens" in out else None


class LLMClient:
    """Chat completions with a timeout and a bounded retry; the SDK's own retries are off."""

    def __init__(self, config: LLMConfig | None = None, *, cancel: threading.Event | None = None):
        self.config = config or LLMConfig.from_env()
        # Set by whoever asked (an SSE stream whose client left): the call in flight is dropped and
        # no further attempt is made.
        self.cancel = cancel

    def __repr__(self) -> str:
        return f"LLMClient(endpoint={self.config.endpoint!r})"

    def complete(self, request: ChatRequest) -> LLMReply:
        """One chat completion. Each attempt has a wall-clock deadline (timeout_s, whatever the server
        does: a server that drips bytes is cut off), and the whole call is bounded by timeout_s x
        attempts; Retry-After is respected within that bound."""
        cfg = self.config
        if not cfg.configured:
            return LLMReply(
                ok=False,
                model=request.model,
                reason="No LLM endpoint is configured: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server.",
            )
        try:
            import openai  # imported before the clock starts: loading the SDK is not the endpoint's time
        except ImportError:
            return LLMReply(ok=False, model=request.model, reason="The openai package is not installed.")
        started = time.perf_counter()
        max_attempts = max(0, cfg.max_retries) + 1
        deadline = started + cfg.timeout_s * max_attempts
        attempts = 0
        reason, status = "no attempt made", None
        body = request.to_dict()
        while attempts < max_attempts:
            budget = min(cfg.timeout_s, deadline - time.perf_counter())
            if budget <= 0:
                break
            if self.cancel is not None and self.cancel.is_set():
                reason = "The request was abandoned (its client left) before the LLM answered."
                break
            attempts += 1
            wait_hint: float | None = None
            try:
                response = self._attempt(openai, body, budget)
            except openai.APITimeoutError:
                reason, status, retry = f"The LLM endpoint did not answer within {cfg.timeout_s:g} s.", None, True
            except _Deadline:
                reason, status, retry = f"The LLM endpoint did not answer within {cfg.timeout_s:g} s (its wall-clock limit per attempt).", None, True
            except _Cancelled:
                reason, status = "The request was abandoned (its client left) before the LLM answered; the call was stopped.", None
                break
            except openai.APIConnectionError as exc:
                reason, status, retry = f"Could not connect to the LLM endpoint ({self._clean(exc)}).", None, True
            except openai.APIStatusError as exc:
                status = exc.status_code
                retry = status == 429 or status >= 500
                what = "rate limited (429)" if status == 429 else f"HTTP {status}"
                reason = f"The LLM endpoint answered {what}: {self._clean(exc)}"
                wait_hint = _retry_after(getattr(exc, "response", None))
            except Exception as exc:  # a malformed body or anything else the SDK raises: never propagate
                reason, status, retry = f"The LLM call failed: {type(exc).__name__}: {self._clean(exc)}", None, False
            else:
                reply = self._read(response, request, attempts, started)
                log.info("llm call model=%s attempts=%d ok=%s", self._clean(request.model), attempts, reply.ok)
                return reply
            log.warning("llm attempt %d failed: %s", attempts, reason)
            if not retry or attempts >= max_attempts:
                break
            pause = min(MAX_BACKOFF_S, cfg.backoff_s * (2 ** (attempts - 1)))
            if wait_hint is not None:
                pause = max(pause, wait_hint)
            left = deadline - time.perf_counter()
            if pause >= left:
                if wait_hint:
                    reason = (f"{reason} (the server asked to wait {pause:g} s; only {max(left, 0):.1f} s were left "
                              f"of the call's {cfg.timeout_s * max_attempts:g} s bound)")
                break
            time.sleep(pause)
        if attempts > 1:
            reason = f"{reason} (after {attempts} attempts)"
        return LLMReply(
            ok=False, model=self._clean(request.model), reason=reason, attempts=attempts, latency_ms=_ms(started), status_code=status
        )

    def _attempt(self, openai, body: dict, budget: float):
        """One request, given at most `budget` seconds of wall-clock time: it runs on a daemon thread,
        and past the budget its connection is closed and _Deadline raised (a read timeout alone
        restarts with every byte a slow server sends)."""
        cfg = self.config
        client = openai.OpenAI(api_key=cfg.api_key or PLACEHOLDER_KEY, base_url=cfg.base_url, timeout=budget, max_retries=0)
        box: dict[str, Any] = {}
        done = threading.Event()

        def call() -> None:
            try:
                box["response"] = client.chat.completions.create(**body)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
                box["error"] = exc
            finally:
                done.set()

        threading.Thread(target=call, name="llm-attempt", daemon=True).start()
        end = time.perf_counter() + budget
        cancelled = False
        while not done.wait(min(0.05, max(end - time.perf_counter(), 0)) if self.cancel is not None else budget):
            cancelled = self.cancel is not None and self.cancel.is_set()
            if cancelled or time.perf_counter() >= end:
                break
        if not done.is_set():
            try:
                client.close()  # drops the connection; the thread then ends with an error nobody reads
            except Exception:  # noqa: BLE001
                pass
            raise _Cancelled() if cancelled else _Deadline()
        if "error" in box:
            raise box["error"]
        return box["response"]

    def _read(self, response: Any, request: ChatRequest, attempts: int, started: float) -> LLMReply:
        def fail(reason: str) -> LLMReply:
            return LLMReply(ok=False, model=self._clean(request.model), reason=reason, attempts=attempts, latency_ms=_ms(started))

        try:
            message = response.choices[0].message
        except (AttributeError, IndexError, TypeError):
            return fail("The LLM endpoint answered without a message.")
        if message is None:
            return fail("The LLM endpoint answered without a message.")
        model = self._clean(getattr(response, "model", None) or request.model)
        text = self._mask(getattr(message, "content", None)) or None
        calls = getattr(message, "tool_calls", None) or []
        if not calls:
            if not (isinstance(text, str) and text.strip()):
                return fail("The LLM endpoint answered with neither a tool call nor text.")
            return LLMReply(ok=True, model=model, text=text, attempts=attempts, latency_ms=_ms(started), usage=_usage(response))
        fn = getattr(calls[0], "function", None)
        name = getattr(fn, "name", None)
        if name not in request.tool_names:
            sent = len(request.tool_names)
            return fail(f"The model called {self._clean(name)!r}, which was not among the {sent} tools sent.")
        raw = getattr(fn, "arguments", None) or "{}"
        try:
            arguments = json.loads(raw)
        except (TypeError, ValueError):
            return fail(f"The model's arguments for {name} are not JSON: {self._clean(raw)[:80]!r}")
        if not isinstance(arguments, dict):
            return fail(f"The model's arguments for {name} are not a JSON object.")
        return LLMReply(
            ok=True,
            model=model,
            tool_call={"name": name, "arguments": self.mask_deep(arguments)},
            text=text,
            attempts=attempts,
            latency_ms=_ms(started),
            usage=_usage(response),
        )

    def _mask(self, value: Any) -> Any:
        """The same text with the key masked, should a server echo it back in what it says: also
        when it is written with JSON escapes (\\u0073k-...), which are decoded before masking."""
        key = self.config.api_key
        if not (isinstance(value, str) and key):
            return value
        if "\\u" in value or "\\x" in value:
            decoded = _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), value)
            if key in decoded:
                value = decoded
        return value.replace(key, "***") if key in value else value

    def mask_deep(self, value: Any) -> Any:
        """_mask on every string of a decoded structure, keys included."""
        if isinstance(value, str):
            return self._mask(value)
        if isinstance(value, dict):
            return {self.mask_deep(k): self.mask_deep(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.mask_deep(v) for v in value]
        return value

    def _clean(self, value: Any) -> str:
        """A message safe to show: the key and the endpoint's credentials masked, the length bounded."""
        text = self._mask(str(value))
        base = self.config.base_url
        if base and base != self.config.endpoint and base in text:
            text = text.replace(base, self.config.endpoint)
        return text[:300]


class _Deadline(Exception):
    """An attempt ran past its wall-clock budget."""


class _Cancelled(Exception):
    """Whoever asked for the call is gone."""


_UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})")


def _retry_after(response: Any) -> float | None:
    """Seconds a 429 / 503 asks us to wait (Retry-After: seconds or an HTTP date), or None."""
    headers = getattr(response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        from email.utils import parsedate_to_datetime
        from datetime import datetime, timezone

        return max(0.0, (parsedate_to_datetime(value) - datetime.now(timezone.utc)).total_seconds())
    except (TypeError, ValueError, IndexError):
        return None


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
