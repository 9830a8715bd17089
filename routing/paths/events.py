"""Events of one route, stamped with `t_ms` since the route started and handed to a listener as they
happen (the CLI's --events, the HTTP API's stream, the playground's thinking panel)."""
from __future__ import annotations

import time
from typing import Callable

Listener = Callable[[dict], None]


class EventLog:
    def __init__(self, listener: Listener | None = None, *, started: float | None = None):
        self.started = time.perf_counter() if started is None else started
        self.events: list[dict] = []
        self.listener = listener

    def emit(self, type_: str, **fields) -> dict:
        event = {"type": type_, **fields, "t_ms": round((time.perf_counter() - self.started) * 1000, 3)}
        self.events.append(event)
        if self.listener is not None:
            self.listener(event)
        return event
