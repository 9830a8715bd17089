"""HTTP API of the routing contract (shared/CONTRACT.md):

    POST /route          {"query": ..., "domain": ..., "today"?, "thresholds"?, "context"?,
                          "data_mode"?, "max_depth"?, "llm"?}  -> the route result (JSON)
    POST /route/stream   the same body -> Server-Sent Events: one `event: <type>` per route event as it
                          happens, then `event: result` with the route result
    GET  /domains        [{name, description, design, languages, tool_count, tools}]
    GET  /healthz        {"ok": true, "domains": N}

Bad input is a 4xx whose body is {"error": {"code", "message"}}: INVALID_QUERY (422, with the full
result) for a query that cannot be routed, BAD_ARGUMENTS (400 / 404 / 413) for a bad request field or
an unknown domain, LEXICON_INVALID (503) when a domain never loaded. Routers come from a
RouterRegistry: a broken lexicon edit keeps the last good router in service."""
from __future__ import annotations

import asyncio
import inspect
import json
import threading
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from routing.core.clock import parse_today
from routing.core.errors import ErrorCode, LexiconError
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, load_domain
from routing.core.router import validate_query
from routing.registry import RouterRegistry

BAD_ARGUMENTS = "BAD_ARGUMENTS"  # the command line's code for a bad argument, same meaning here
MAX_BODY_BYTES = 64 * 1024  # a query is at most 1,000 characters; anything near this is not a request
FIELDS = {"query", "domain", "today", "thresholds", "context", "data_mode", "max_depth", "llm"}
DEFAULT_DOMAIN = "accounting"
THRESHOLDS = {"high", "medium", "low", "margin"}


MAX_NESTING = 32  # a request is a flat object with small maps inside; deeper is not a request


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (iterative: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            if level > MAX_NESTING:
                return level
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


class BadRequest(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def create_app(root: Path | str = DEFAULT_LEXICON_ROOT, *, llm_client_factory=None) -> FastAPI:
    """The API over the domains in `root`. `llm_client_factory()` builds the LLM client for "llm": true
    (default: routing.paths.llm.LLMClient from the environment)."""
    registry = RouterRegistry(root)
    app = FastAPI(title="routing", description=__doc__, version="1")
    app.state.registry = registry

    @app.exception_handler(BadRequest)
    async def _bad(_request, exc: BadRequest):
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request, exc: RequestValidationError):
        return _error(400, BAD_ARGUMENTS, str(exc.errors()[:3]))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request, exc: StarletteHTTPException):
        return _error(exc.status_code, BAD_ARGUMENTS if exc.status_code < 500 else "INTERNAL", str(exc.detail))

    @app.exception_handler(Exception)
    async def _internal(_request, exc: Exception):  # a bug, still answered in the contract's shape
        return _error(500, "INTERNAL", f"the router failed on this request ({type(exc).__name__}); it is a bug, please report it")

    @app.get("/healthz")
    async def healthz():
        return {"ok": True, "domains": len(registry.domains())}

    @app.get("/domains")
    async def domains():
        out = []
        for name in registry.domains():
            try:
                out.append(load_domain(name, registry.root).describe())
            except LexiconError as exc:
                out.append({"name": name, "error": {"code": exc.code.value, "message": str(exc)}})
        return out

    async def _request(request: Request) -> dict:
        body = await request.body()
        if len(body) > MAX_BODY_BYTES:
            raise BadRequest(413, BAD_ARGUMENTS, f"the request body is {len(body):,} bytes; the limit is {MAX_BODY_BYTES:,}")
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadRequest(400, BAD_ARGUMENTS, f"the body must be a JSON object: {exc}") from None
        except RecursionError:
            raise BadRequest(400, BAD_ARGUMENTS, f"the body is nested more than {MAX_NESTING} levels deep") from None
        if _depth(data) > MAX_NESTING:
            raise BadRequest(400, BAD_ARGUMENTS, f"the body is nested more than {MAX_NESTING} levels deep")
        if not isinstance(data, dict):
            raise BadRequest(400, BAD_ARGUMENTS, 'the body must be a JSON object, e.g. {"query": "outstanding invoices"}')
        unknown = sorted(set(data) - FIELDS)
        if unknown:
            raise BadRequest(400, BAD_ARGUMENTS, f"unknown field(s) {unknown}; known: {', '.join(sorted(FIELDS))}")
        return data

    def _prepare(data: dict):
        domain = data.get("domain") or DEFAULT_DOMAIN
        if not isinstance(domain, str) or domain not in registry.domains():
            raise BadRequest(404, BAD_ARGUMENTS, f"unknown domain {domain!r}; known: {', '.join(registry.domains())}")
        try:
            router = registry.router(domain)
        except LexiconError as exc:
            raise BadRequest(503, ErrorCode.LEXICON_INVALID.value, str(exc)) from None
        try:
            today = parse_today(data.get("today")) if isinstance(data.get("today"), (str, type(None))) else None
        except ValueError:
            today = None
        if today is None:
            raise BadRequest(400, BAD_ARGUMENTS, f"today must be a date as YYYY-MM-DD, not {data.get('today')!r}")
        context = data.get("context")
        if context is not None and not isinstance(context, dict):
            raise BadRequest(400, BAD_ARGUMENTS, "context must be a JSON object")
        context = dict(context or {})
        for key, allowed in (("data_mode", ("live", "replay")), ("max_depth", ("L1", "L2"))):
            if data.get(key) is not None:
                if data[key] not in allowed:
                    raise BadRequest(400, BAD_ARGUMENTS, f"{key} must be one of {', '.join(allowed)}")
                context[key] = data[key]
        thresholds = data.get("thresholds")
        if thresholds is not None:
            if not isinstance(thresholds, dict) or set(thresholds) - THRESHOLDS or not all(
                v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1) for v in thresholds.values()
            ):
                raise BadRequest(400, BAD_ARGUMENTS, "thresholds must be a JSON object of high / medium / low / margin, each between 0 and 1")
        if not isinstance(data.get("llm", False), bool):
            raise BadRequest(400, BAD_ARGUMENTS, "llm must be true or false")
        return router, today, thresholds, context or None

    def _run(router, data: dict, today, thresholds, context, on_event=None, cancel: threading.Event | None = None) -> dict:
        kwargs = {"on_event": on_event} if on_event is not None and "on_event" in inspect.signature(router.route).parameters else {}
        try:
            result = router.route(data.get("query"), today=today, thresholds=thresholds, context=context, **kwargs)
        except ValueError as exc:  # thresholds out of range
            raise BadRequest(400, BAD_ARGUMENTS, str(exc)) from None
        if data.get("llm") and result.error is None:
            run_llm = getattr(router, "run_llm", None)
            if run_llm is None:
                raise BadRequest(400, BAD_ARGUMENTS, f"the {router.design} design has no LLM path")
            printed = len(result.events)
            from routing.paths.llm import LLMClient

            client = llm_client_factory() if llm_client_factory else LLMClient()
            if cancel is not None and hasattr(client, "cancel"):
                client.cancel = cancel  # a stream whose client left stops its LLM call
            result = run_llm(result, client=client)
            if on_event is not None:
                for event in result.events[printed:]:
                    on_event(event)
        return result.to_dict()

    def _status(out: dict) -> int:
        code = (out.get("error") or {}).get("code")
        return 422 if code == ErrorCode.INVALID_QUERY.value else 200

    @app.post("/route")
    async def route(request: Request):
        data = await _request(request)
        router, today, thresholds, context = _prepare(data)
        out = await asyncio.to_thread(_run, router, data, today, thresholds, context)
        return JSONResponse(out, status_code=_status(out))

    @app.post("/route/stream")
    async def route_stream(request: Request):
        data = await _request(request)
        router, today, thresholds, context = _prepare(data)  # bad input: a 4xx before any stream starts
        if validate_query(data.get("query")):
            out = await asyncio.to_thread(_run, router, data, today, thresholds, context)
            return JSONResponse(out, status_code=_status(out))
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        gone = threading.Event()

        def on_event(event: dict) -> None:
            if not gone.is_set():
                loop.call_soon_threadsafe(queue.put_nowait, ("event", event))

        def work() -> None:
            try:
                out = _run(router, data, today, thresholds, context, on_event, cancel=gone)
                item: tuple[str, Any] = ("result", out)
            except BadRequest as exc:
                item = ("error", {"error": {"code": exc.code, "message": exc.message}})
            except Exception as exc:  # noqa: BLE001 - reported in the stream, never a dropped connection
                item = ("error", {"error": {"code": "INTERNAL", "message": type(exc).__name__}})
            if not gone.is_set():
                loop.call_soon_threadsafe(queue.put_nowait, item)

        async def stream():
            loop.run_in_executor(None, work)  # bounded: the LLM call has a wall-clock deadline
            try:
                while True:
                    kind, payload = await queue.get()
                    name = payload.get("type", "event") if kind == "event" else kind
                    yield f"event: {name}\ndata: {json.dumps(payload, ensure_ascii=False)}\n\n"
                    if kind != "event":
                        break
            finally:
                gone.set()  # the client left or the stream ended: the worker stops reporting

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    return app
