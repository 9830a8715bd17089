"""The analyst's tools run for real on the bundled fixtures (data mode `replay`).

Each tool is a small function of the roster; `run_plan` runs a tier's allowed tools in order for
the resolved players, inside `no_network()`: replay reads files already in memory and can reach
nothing else. Numbers are computed from the per-game records, never stored answers.
"""
from __future__ import annotations

from datetime import date
from statistics import fmean

from .data import Game, Player, Roster
from .guard import no_network

PER90 = ("goals", "assists", "shots", "shots_on_target", "xg", "xa", "key_passes")
DETAIL = ("shots_in_box", "big_chances", "touches_in_box", "pressures", "progressive_carries")
LAST_N = 5
MIN_LEAGUE_GAMES = 3


def _r(x: float, n: int = 2) -> float:
    return round(x, n)


def search_player(player: Player) -> dict:
    return player.to_dict()


def get_recent_games(player: Player, today: date, last_n: int = LAST_N) -> list[dict]:
    return [
        {"date": g.date, "opponent": g.opponent, **{k: (int(v) if float(v).is_integer() and k != "rating" and k != "xg" else v) for k, v in g.stats.items()}}
        for g in player.games_before(today, last_n)
    ]


def per90(games: list[Game]) -> dict:
    minutes = sum(g.stats["minutes"] for g in games)
    if not minutes:
        return {"minutes": 0, "games": len(games)}
    out = {k: _r(sum(g.stats[k] for g in games) * 90 / minutes) for k in PER90}
    return {"minutes": int(minutes), "games": len(games), **out}


def calculate_per90(player: Player, today: date, last_n: int = LAST_N) -> dict:
    return per90(player.games_before(today, last_n))


def compare_to_league(player: Player, roster: Roster, today: date, last_n: int = LAST_N) -> dict:
    """Per-90 against the other players of the same league and position (average and percentile)."""
    mine = calculate_per90(player, today, last_n)
    peers = [
        per90(p.games_before(today, last_n))
        for p in roster.players
        if p.id != player.id and p.league == player.league and p.position == player.position
        and len(p.games_before(today, last_n)) >= MIN_LEAGUE_GAMES
    ]
    metrics = {}
    for k in ("goals", "assists", "shots", "xg", "key_passes"):
        values = [q[k] for q in peers if k in q]
        if not values or k not in mine:
            continue
        below = sum(v < mine[k] for v in values) + 0.5 * sum(v == mine[k] for v in values)
        metrics[k] = {"player": mine[k], "league_avg": _r(fmean(values)), "percentile": round(100 * below / len(values))}
    return {"league": player.league, "position": player.position, "peers": len(peers), "metrics": metrics}


def get_detailed_stats(player: Player, today: date, last_n: int = LAST_N) -> dict:
    games = player.games_before(today, last_n)
    minutes = sum(g.stats["minutes"] for g in games) or 1
    return {k + "_per90": _r(sum(float(g.detail.get(k, 0)) for g in games) * 90 / minutes) for k in DETAIL}


def _slope(values: list[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mx, my = (n - 1) / 2, fmean(values)
    den = sum((i - mx) ** 2 for i in range(n))
    return sum((i - mx) * (v - my) for i, v in enumerate(values)) / den


def calculate_derived(player: Player, today: date, last_n: int = LAST_N) -> dict:
    games = player.games_before(today, last_n)
    earlier = player.games_before(today)[:-last_n] if len(player.games_before(today)) > last_n else []
    s = lambda k, gs=games: sum(g.stats[k] for g in gs)  # noqa: E731
    shots, passes = s("shots"), s("passes")
    out = {
        "shot_conversion": _r(s("goals") / shots, 3) if shots else None,
        "goals_minus_xg": _r(s("goals") - s("xg")),
        "xg_per_shot": _r(s("xg") / shots, 3) if shots else None,
        "pass_completion": _r(s("passes_completed") / passes, 3) if passes else None,
        "rating_trend_per_game": _r(_slope([g.stats["rating"] for g in games]), 3),
        "xg_trend_per_game": _r(_slope([g.stats["xg"] for g in games]), 3),
    }
    if earlier:  # the recent games against the ones before them
        out["xg_per90_change"] = _r(per90(games).get("xg", 0) - per90(earlier).get("xg", 0))
        out["rating_change"] = _r(fmean(g.stats["rating"] for g in games) - fmean(g.stats["rating"] for g in earlier))
    trend = out["rating_trend_per_game"]
    out["form"] = "improving" if trend > 0.1 else "declining" if trend < -0.1 else "steady"
    return out


def show_form_chart(player: Player, today: date, last_n: int = 10) -> dict:
    games = player.games_before(today, last_n)
    return {
        "player": player.name,
        "games": [{"date": g.date, "opponent": g.opponent, "xg": g.stats["xg"], "goals": int(g.stats["goals"]), "rating": g.stats["rating"]} for g in games],
    }


def step_call(tool: str, player: Player, roster: Roster, today: date):
    if tool == "search_player":
        return {"name": player.name}, search_player(player)
    if tool == "get_recent_games":
        return {"player_id": player.id, "last_n": LAST_N}, get_recent_games(player, today)
    if tool == "calculate_per90":
        return {"player_id": player.id}, calculate_per90(player, today)
    if tool == "compare_to_league":
        return {"player_id": player.id}, compare_to_league(player, roster, today)
    if tool == "get_detailed_stats":
        return {"player_id": player.id}, get_detailed_stats(player, today)
    if tool == "calculate_derived":
        return {"player_id": player.id}, calculate_derived(player, today)
    if tool == "show_form_chart":
        return {"player_id": player.id}, show_form_chart(player, today)
    raise KeyError(f"no replay implementation for tool {tool!r}")


def plan_steps(tools: tuple[str, ...] | list[str], players: list[Player]) -> list[dict]:
    """The plan without running it: each allowed tool, for each player."""
    return [{"tool": t, "player_id": p.id} for p in players for t in tools]


def run_plan(tools: tuple[str, ...] | list[str], players: list[Player], roster: Roster, today: date) -> list[dict]:
    """Run every allowed tool for every player on the fixtures, with the network shut."""
    steps = []
    with no_network():
        for p in players:
            for t in tools:
                params, output = step_call(t, p, roster, today)
                steps.append({"tool": t, "player_id": p.id, "params": params, "output": output})
    return steps
