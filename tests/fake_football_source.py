"""A local HTTP data source for the football domain's data mode live (tests and demos).

    with FakeFootballSource(roster) as src:       # roster: {"players": [...]} as in players.yaml
        ROUTING_LIVE_DATA_URL=src.url             # GET /roster?until=YYYY-MM-DD
        src.requests                               # every path asked, in order

Run by hand (serves the bundled fixtures plus one later game per player, so live differs from replay):
    python tests/fake_football_source.py --port 8652
"""
from __future__ import annotations

import argparse
import copy
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import yaml

FIXTURES = Path(__file__).resolve().parent.parent / "lexicons" / "football" / "fixtures" / "players.yaml"


def fixtures_roster(extra_game: dict | None = None) -> dict:
    """The bundled players; with `extra_game`, each player gets that game appended (dates as given)."""
    data = yaml.safe_load(FIXTURES.read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    for p in data["players"]:
        for g in p.get("games") or []:
            g["date"] = str(g["date"])
        if extra_game:
            p.setdefault("games", []).append(dict(extra_game))
    return {"players": data["players"]}


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:
        return

    def do_GET(self) -> None:  # noqa: N802
        src = self.server.source
        src.requests.append(self.path)
        url = urllib.parse.urlsplit(self.path)
        if src.status:
            return self._send(src.status, {"error": "failing on purpose"})
        if url.path.rstrip("/") != "/roster":
            return self._send(404, {"error": f"no route {url.path}"})
        until = (urllib.parse.parse_qs(url.query).get("until") or ["9999-12-31"])[0]
        players = [dict(p, games=[g for g in p.get("games") or [] if g["date"] <= until]) for p in src.roster["players"]]
        self._send(200, {"players": players})

    def _send(self, status: int, payload: dict) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class FakeFootballSource:
    def __init__(self, roster: dict | None = None, *, port: int = 0, status: int | None = None):
        self.roster = roster or fixtures_roster()
        self.status = status
        self.requests: list[str] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
        self._server.daemon_threads = True
        self._server.source = self
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "FakeFootballSource":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


LATE_GAME = {"date": "2026-01-10", "opponent": "Live Data XI", "minutes": 90, "goals": 4, "assists": 1, "shots": 7, "shots_on_target": 5,
             "xg": 2.5, "xa": 0.4, "key_passes": 3, "passes": 30, "passes_completed": 25, "rating": 9.9,
             "detail": {"shots_in_box": 6, "big_chances": 4, "touches_in_box": 15, "pressures": 10, "progressive_carries": 5}}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="A local football data source for data mode live.")
    ap.add_argument("--port", type=int, default=8652)
    args = ap.parse_args()
    with FakeFootballSource(fixtures_roster(LATE_GAME), port=args.port) as src:
        print(src.url, flush=True)
        while True:
            time.sleep(3600)
