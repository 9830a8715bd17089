"""Tier confidences from an analysis, every point in a named signal (the breakdown adds up).

  trigger      the tier's strongest trigger, plus `extra_trigger` for each other one (capped)
  entity       a player is named, or carried over by a pronoun
  second_entity  Compare only: a second player
  player_only  the tier tiers.yaml `defaults` guesses when players are named and no trigger fired
  overruled    a tier that fired but lost on precedence (negative)
  cap          what was cut to keep the confidence at most 1

When a mention is ambiguous the candidates are the players instead (signal `name_similarity`), so
the result lists them; with nothing to go on (a pronoun with no earlier player, a name found
nowhere) there are no candidates at all.
"""
from __future__ import annotations

from routing.core.scoring import Scored

from .analysis import TierAnalysis
from .config import TierConfig


def tier_scores(config: TierConfig, a: TierAnalysis) -> dict[str, dict[str, float]]:
    """tier -> breakdown, for every tier with any points, before a max-depth downgrade."""
    s = config.scoring
    n_players = len(a.players)
    fired = a.tiers_fired
    winner = next((t for t in config.precedence if t in fired), None)
    guess = None
    if not fired and n_players:
        guess = config.defaults.get("two_players" if n_players >= 2 else "one_player") or config.precedence[-1]
    out: dict[str, dict[str, float]] = {}
    for name in config.precedence:
        weights = sorted((f.weight for f in a.fired if f.tier == name), reverse=True)
        b: dict[str, float] = {}
        if weights:
            b["trigger"] = round(min(s.max_trigger, weights[0] + s.extra_trigger * (len(weights) - 1)), 4)
        elif name == guess:
            b["player_only"] = s.player_only
        if not b:
            continue
        if n_players:
            b["entity"] = s.entity
        if name == "compare" and n_players >= 2:
            b["second_entity"] = s.second_entity
        if weights and winner and name != winner:
            b["overruled"] = s.overruled
        total = round(sum(b.values()), 4)
        if total > 1:
            b["cap"] = round(1 - total, 4)
        out[name] = b
    return out


def downgraded(config: TierConfig, a: TierAnalysis, scores: dict[str, dict[str, float]]) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    """Apply max depth: a tier deeper than allowed becomes its shallower tier (keeping its points)."""
    mapping = config.downgrade.get(a.max_depth, {})
    moved: dict[str, str] = {}
    out: dict[str, dict[str, float]] = {}
    for name, b in scores.items():
        target = mapping.get(name, name)
        if target != name:
            moved[target] = name
        if target not in out or sum(b.values()) > sum(out[target].values()):
            out[target] = dict(b)
    return out, moved


def scored(config: TierConfig, a: TierAnalysis, names: list[str]) -> list[Scored]:
    """Candidates for classify and the result's matches: tiers, or the players of an ambiguous mention.
    `names` is the design's candidate name space (tiers, then players); Scored.tool indexes it."""
    if a.vague or (a.unknown_names and a.fired):
        return []
    where = {n: i for i, n in enumerate(names)}
    mention = a.ambiguous
    if mention is not None:
        out = [
            Scored(where[c.player.name], round(c.confidence, 4), c.confidence, {"name_similarity": round(c.confidence, 4)},
                   [f"'{c.surface}' matches {c.player.name} ({c.via})"], {"player_id": c.player.id}, "fuzzy" if c.via == "fuzzy" else "keyword")
            for c in mention.candidates
        ]
        return sorted(out, key=lambda s: (-s.confidence, names[s.tool]))
    scores, moved = downgraded(config, a, tier_scores(config, a))
    out = []
    for name, b in scores.items():
        conf = round(max(0.0, min(1.0, sum(b.values()))), 4)
        evidence = [f"{f.trigger} fired on '{f.text}'" for f in a.fired if f.tier == (moved.get(name) or name)]
        if name in moved:
            evidence.append(f"{config.tiers[moved[name]].label} lowered to {config.tiers[name].label} by max depth {a.max_depth}")
        match_type = "pattern" if any(f.trigger.startswith("regex") for f in a.fired if f.tier == name) else "keyword"
        if not evidence:
            match_type = "fuzzy" if any(c.via == "fuzzy" for m in a.mentions for c in m.candidates) else "keyword"
        out.append(Scored(where[name], conf, conf, b, evidence, {}, match_type))
    return sorted(out, key=lambda s: (-s.confidence, names[s.tool]))
