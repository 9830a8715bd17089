"""Replay mode may not touch the network: enforced with an audit hook, per thread.

`no_network()` marks the current thread; while it is marked, any socket connect, DNS look-up or
URL open raises NetworkBlocked before it happens (sys.addaudithook sees every such call, from any
library). Other threads (a Streamlit server's sockets) are untouched.
"""
from __future__ import annotations

import sys
import threading
from contextlib import contextmanager

BLOCKED_EVENTS = frozenset({"socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.sendto", "urllib.Request", "http.client.connect"})

_state = threading.local()
_installed = False
_lock = threading.Lock()


class NetworkBlocked(RuntimeError):
    """A network call was attempted in replay mode."""


def _hook(event: str, args) -> None:
    if event in BLOCKED_EVENTS and getattr(_state, "depth", 0) > 0:
        raise NetworkBlocked(f"replay mode: network call refused ({event})")


def _install() -> None:
    global _installed
    with _lock:
        if not _installed:
            sys.addaudithook(_hook)
            _installed = True


@contextmanager
def no_network():
    _install()
    _state.depth = getattr(_state, "depth", 0) + 1
    try:
        yield
    finally:
        _state.depth -= 1


def network_blocked() -> bool:
    return getattr(_state, "depth", 0) > 0
