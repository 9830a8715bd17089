"""001 (football): data mode live reads the configured HTTP source (a local fake here); no source
answering is UPSTREAM_DOWN; replay never touches the network."""
from __future__ import annotations

import pytest

from routing.designs import load_router
from tests.fake_football_source import LATE_GAME, FakeFootballSource, fixtures_roster
from tests.fake_openai import refused_url

TODAY = "2026-01-22"
LIVE = {"data_mode": "live"}
Q = "how is Okafor doing"


def _per90(result: dict, part: str) -> dict:
    steps = (result[part] or {}).get("steps") or []
    return next(s["output"] for s in steps if s["tool"] == "calculate_per90")


def test_live_mode_reads_the_configured_source():
    with FakeFootballSource(fixtures_roster(LATE_GAME)) as src:
        router = load_router("football", environ={"ROUTING_LIVE_DATA_URL": src.url})
        live = router.route(Q, today=TODAY, context=LIVE).to_dict()
        assert src.requests == [f"/roster?until={TODAY}"]
    replayed = router.route(Q, today=TODAY, context={"data_mode": "replay"}).to_dict()
    assert live["error"] is None and live["live"]["source"] == src.url
    # The later game exists only at the source: the live per-90 counts it, the replay does not.
    assert _per90(live, "live")["goals"] > _per90(replayed, "replay")["goals"]
    recent = next(s["output"] for s in live["live"]["steps"] if s["tool"] == "get_recent_games")
    assert recent[-1]["opponent"] == "Live Data XI"
    assert any(e["type"] == "live_ran" for e in live["events"])


def test_the_second_source_answers_when_the_first_is_down():
    with FakeFootballSource() as src:
        router = load_router("football", environ={"ROUTING_LIVE_DATA_URL": f"{refused_url()},{src.url}"})
        r = router.route(Q, today=TODAY, context=LIVE).to_dict()
    assert r["error"] is None and r["live"]["source"] == src.url and len(r["live"]["tried"]) == 1


@pytest.mark.parametrize("setup", ["none", "refused", "http_500"])
def test_no_source_answering_is_upstream_down(setup):
    if setup == "http_500":
        with FakeFootballSource(status=500) as src:
            router = load_router("football", environ={"ROUTING_LIVE_DATA_URL": src.url})
            r = router.route(Q, today=TODAY, context=LIVE).to_dict()
    else:
        env = {"ROUTING_LIVE_DATA_URL": refused_url()} if setup == "refused" else {}
        r = load_router("football", environ=env).route(Q, today=TODAY, context=LIVE).to_dict()
    assert r["error"]["code"] == "UPSTREAM_DOWN"
    assert r["live"]["steps"] == [] and r["live"]["reason"]
    if setup == "http_500":
        assert "HTTP 500" in r["error"]["message"]


def test_replay_never_touches_the_network():
    with FakeFootballSource() as src:
        router = load_router("football", environ={"ROUTING_LIVE_DATA_URL": src.url})
        r = router.route(Q, today=TODAY, context={"data_mode": "replay"}).to_dict()
        assert src.requests == [] and r["live"] is None and r["replay"]["steps"]
