"""Live powers from synchronous code (the app's BlockingPool): a child started, called, reaped."""
from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from routing import load_router
from routing.mcp.proxy import BlockingPool, ProxyError


def tagged(tag: str) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if tag.encode() in (entry / "cmdline").read_bytes() and (entry / "stat").read_text().split(") ", 1)[1][:1] != "Z":
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


def test_blocking_pool_starts_calls_and_reaps_children():
    tag = f"pool-test-{uuid.uuid4().hex[:10]}"
    pool = BlockingPool(load_router("powers"), instance=tag)
    try:
        out = pool.activate("sqlite")
        assert out["status"] == "activated" and out["live"] is True
        assert [t["name"] for t in out["tools"]] == ["sqlite__list_tables", "sqlite__describe_table", "sqlite__query_database"]
        listing = pool.call("sqlite__list_tables", {})
        assert not listing.is_error and '"orders"' in listing.content[0].text
        assert pool.live_powers() == ["sqlite"] and len(tagged(tag)) == 1
        assert pool.activate("nope")["error"]["code"] == "POWER_NOT_FOUND"
        pool.activate("jira")
        with pytest.raises(ProxyError) as err:
            pool.call("jira__jira_search", {"jql": "status = Open"})
        assert err.value.code == "NO_SERVER_CONFIGURED"
    finally:
        pool.close()
    deadline = time.monotonic() + 15
    while tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert tagged(tag) == []
    pool.close()  # closing twice is harmless


def test_idle_children_of_the_app_are_stopped():
    tag = f"pool-idle-{uuid.uuid4().hex[:10]}"
    pool = BlockingPool(load_router("powers"), instance=tag, idle_seconds=1.0)
    try:
        assert pool.activate("sqlite")["live"] is True and len(tagged(tag)) == 1
        deadline = time.monotonic() + 20
        while tagged(tag) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert tagged(tag) == [] and pool.live_powers() == []
        assert pool.activate("sqlite")["status"] == "activated" and len(tagged(tag)) == 1  # restarts on demand
    finally:
        pool.close()
    deadline = time.monotonic() + 15
    while tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert tagged(tag) == []
