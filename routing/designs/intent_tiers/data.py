"""The bundled fixtures (lexicons/<domain>/fixtures/players.yaml): players and per-game records.

Read once per built router, read-only afterwards. Replay-mode tools read only this object.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from routing.core.errors import LexiconError, Problem
from routing.core.yamlio import read_yaml

FIXTURES = Path("fixtures") / "players.yaml"
NUMERIC = ("minutes", "goals", "assists", "shots", "shots_on_target", "xg", "xa", "key_passes", "passes", "passes_completed", "rating")


@dataclass(frozen=True)
class Game:
    date: str
    opponent: str
    stats: dict  # NUMERIC fields
    detail: dict  # L2 event-level fields


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    team: str
    position: str
    league: str
    games: tuple[Game, ...]

    def to_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "team": self.team, "position": self.position, "league": self.league}

    def games_before(self, today: date, last_n: int | None = None) -> list[Game]:
        """Games played on or before `today`, oldest first; the last `last_n` of them."""
        played = [g for g in self.games if g.date <= today.isoformat()]
        return played[-last_n:] if last_n else played


@dataclass(frozen=True)
class Roster:
    players: tuple[Player, ...]

    def by_id(self, pid: str) -> Player | None:
        return next((p for p in self.players if p.id == pid), None)


def load_roster(domain_root: Path) -> Roster:
    path = domain_root / FIXTURES
    label = f"{domain_root.name}/{FIXTURES.as_posix()}"
    if not path.exists():
        raise LexiconError([Problem(label, None, "file is missing (the players the football analyst knows)")])
    return parse_roster(read_yaml(path, label, root=Path(domain_root).parent), label)


def parse_roster(data, label: str) -> Roster:
    """A roster from its data ({players: [...]}, as in players.yaml or a live source's JSON);
    LexiconError naming `label` for anything malformed."""
    problems = []
    raw = data.get("players") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise LexiconError([Problem(label, 1, "must have a top-level 'players:' list")])
    players, seen = [], set()
    for i, p in enumerate(raw):
        line = raw.line_of(i) if hasattr(raw, "line_of") else 0
        if not isinstance(p, dict) or not p.get("id") or not p.get("name"):
            problems.append(Problem(label, line, f"player {i + 1} needs id: and name:"))
            continue
        if p["id"] in seen:
            problems.append(Problem(label, line, f"player id {p['id']!r} is listed twice"))
        seen.add(p["id"])
        games = []
        for g in p.get("games") or []:
            if not isinstance(g, dict) or "date" not in g:
                problems.append(Problem(label, line, f"player {p['id']}: every game needs a date"))
                continue
            try:
                stats = {k: float(g.get(k) or 0) for k in NUMERIC}
            except (TypeError, ValueError):
                problems.append(Problem(label, line, f"player {p['id']}: game {g.get('date')} has a non-number stat"))
                continue
            games.append(Game(str(g["date"]), str(g.get("opponent", "")), stats, dict(g.get("detail") or {})))
        games.sort(key=lambda g: g.date)
        players.append(Player(str(p["id"]), str(p["name"]), str(p.get("team", "")), str(p.get("position", "")), str(p.get("league", "")), tuple(games)))
    if problems:
        raise LexiconError(problems)
    return Roster(tuple(players))
