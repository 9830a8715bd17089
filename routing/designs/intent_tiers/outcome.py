"""From a classified analysis to the contract's result: constraints, errors, prompt, plan, replay.

Status mapping (README "Football analyst"):
  a tier chosen with confidence            -> activated (fast path: the tier's plan runs as is)
  tiers close together / only one weak     -> multiple_matches / weak_matches (LLM path decides)
  AMBIGUOUS_ENTITY (one name, 2+ players)  -> multiple_matches, the matches are the players
  INSUFFICIENT_CONTEXT (pronoun, nobody)   -> needs_clarification, error set, plan aborted
  a tier but no player at all              -> needs_clarification (which player?)
  PLAYER_NOT_FOUND (a name, no player)     -> not_found, error set
  INSUFFICIENT_DATA (player, 0 games)      -> the tier's status, error set, plan aborted
  INSUFFICIENT_GAMES (1-2 games)           -> the tier's status, a warning, the plan runs
  no trigger and no player                 -> not_found (not a football question)
"""
from __future__ import annotations

from datetime import date

from routing.core.errors import ErrorCode
from routing.core.model import Thresholds
from routing.core.schema import ErrorInfo, Match, Path, RouteResult, Status

from . import prompts, replay
from .live import fetch_roster
from .analysis import TierAnalysis
from .fields import TierFields

MAX_MATCHES = {Status.ACTIVATED: 1, Status.MULTIPLE_MATCHES: 3, Status.WEAK_MATCHES: 5}
FEW_GAMES = 2


def _player_desc(p) -> str:
    return f"{p.position} · {p.team} ({p.league})"


def build_outcome(router, query: str, ref: date, th: Thresholds, a: TierAnalysis, cands, status: Status) -> RouteResult:
    cfg = router.config
    names = router.names
    tiers_ranked = [c for c in cands if names[c.tool] in cfg.tiers]
    if a.ambiguous is not None or not tiers_ranked:
        # the tier is still decided (for the fields), on the tier scores alone
        from .scoring import downgraded, tier_scores

        scores, _ = downgraded(cfg, a, tier_scores(cfg, a))
        intent = max(scores, key=lambda n: (sum(scores[n].values()), -cfg.precedence.index(n) if n in cfg.precedence else 0), default=None) if scores else None
    else:
        intent = names[tiers_ranked[0].tool]
    requested = next((f.tier for f in a.fired), None)
    if requested is not None:
        requested = next(t for t in cfg.precedence if t in a.tiers_fired)
    elif intent:
        requested = intent
    tier = cfg.tiers.get(intent) if intent else None

    # ---- hard constraints: allowed and excluded tools
    allowed = list(tier.tools) if tier else []
    excluded = []
    for t in router.domain.tools:
        if t.name in allowed:
            continue
        deeper = cfg.tool_depth.get(t.name) == "L2"
        if tier and requested and requested != intent and deeper and t.name in cfg.tiers[requested].tools:
            reason = f"removed by max depth {a.max_depth}: it reads L2 data"
        elif tier:
            reason = f"not a tool of the {tier.label} tier"
        else:
            reason = "no tier chosen"
        excluded.append({"name": t.name, "reason": reason})

    # ---- entities, errors, warnings
    players = list(a.players)
    entities = [{**p.to_dict(), "confidence": 1.0, "via": "pronoun" if a.pronoun else "conversation", "mention": a.pronoun or ""} for p in a.carried]
    for m in a.mentions:
        if not m.ambiguous and m.candidates[0].player.id not in {e["id"] for e in entities}:
            entities.append(m.candidates[0].to_dict())
    error, warnings, clarifying, abort = None, [], None, False
    if a.vague and a.vague[0] == a.pronoun:
        error = ErrorInfo(ErrorCode.INSUFFICIENT_CONTEXT.value, f"'{a.pronoun}' refers to a player, but no player was named earlier in this conversation.")
        clarifying = router.domain.settings.clarifying_question
        abort = True
    elif a.vague:
        clarifying = router.domain.settings.clarifying_question
        abort = True
    elif a.unknown_names and a.fired:
        names = list(a.unknown_names)
        who = " or ".join(f"'{n}'" for n in names)
        error = ErrorInfo(ErrorCode.PLAYER_NOT_FOUND.value, f"No player called {who} in the data ({len(router.roster.players)} players).",
                          {"name": names[0], "names": names})
        abort = True
    elif a.ambiguous is not None:
        m = a.ambiguous
        listed = ", ".join(f"{c.player.name} ({c.player.team})" for c in m.candidates)
        error = ErrorInfo(ErrorCode.AMBIGUOUS_ENTITY.value, f"'{m.surface}' could be {listed}. Which one?", {"candidates": [c.to_dict() for c in m.candidates]})
        clarifying = f"Which {m.surface.title()} do you mean: " + " or ".join(c.player.name for c in m.candidates) + "?"
        abort = True
    elif tier is not None and players:
        for p in players:
            n = len(p.games_before(ref))
            if n == 0:
                error = ErrorInfo(ErrorCode.INSUFFICIENT_DATA.value, f"{p.name} has no games on record up to {ref.isoformat()}.", {"player_id": p.id})
                abort = True
            elif n <= FEW_GAMES:
                warnings.append({"code": ErrorCode.INSUFFICIENT_GAMES.value, "message": f"Only {n} game{'s' if n != 1 else ''} found for {p.name}: per-90 numbers are shaky.", "player_id": p.id})
    if tier is None and not error and not clarifying:
        abort = True

    # ---- prompt, plan, replay
    pronoun_of = " and ".join(p.name for p in a.carried) if a.pronoun and a.carried else None
    prompt = prompts.system_prompt(tier, players=[p.name for p in players], tools=allowed, depth=tier.depth, pronoun_of=pronoun_of) if tier else ""
    plan = tuple(replay.plan_steps(allowed, players)) if tier and not abort else ()
    replay_out = None
    events = [{"type": "route_started"}, {"type": "route_classified", "status": status.value}]
    if error:
        events.append({"type": "route_aborted", "code": error.code})
    live_out = None
    if plan and a.data_mode == "replay":
        steps = replay.run_plan(allowed, players, router.roster, ref)
        replay_out = {"today": ref.isoformat(), "steps": steps}
        events.append({"type": "replay_ran", "steps": len(steps)})
    elif plan and a.data_mode == "live":
        # The request asked for live data: one read of the configured HTTP source, then the same tools.
        roster, report = fetch_roster(router.live, ref)
        live_out = {"today": ref.isoformat(), **report, "steps": []}
        if roster is None:
            events.append({"type": "live_failed", "reason": report["reason"]})
            error = error or ErrorInfo(ErrorCode.UPSTREAM_DOWN.value, report["reason"], {"tried": report["tried"]})
        else:
            known = [roster.by_id(p.id) for p in players]
            missing = [p.name for p, q in zip(players, known) if q is None]
            if missing:
                warnings.append({"code": ErrorCode.INSUFFICIENT_DATA.value, "message": f"The live source has no record of {', '.join(missing)}."})
            live_out["steps"] = replay.run_plan(allowed, [q for q in known if q is not None], roster, ref)
            events.append({"type": "live_ran", "steps": len(live_out["steps"]), "source": report["source"]})

    # ---- matches and message
    count = MAX_MATCHES.get(status, 0)
    matches = [_match(router, c) for c in cands[:count]]
    if status is Status.MULTIPLE_MATCHES and len(matches) < 2 and len(cands) >= 2:
        matches = [_match(router, c) for c in cands[:2]]
    precedence = ""
    if len(a.tiers_fired) > 1 and requested:
        others = [cfg.tiers[t].label for t in a.tiers_fired if t != requested]
        precedence = f"{cfg.tiers[requested].label} wins over {', '.join(others)}: precedence is {' > '.join(cfg.tiers[t].label for t in cfg.precedence)} (tiers.yaml)."
    message = _message(status, tier, players, error, intent, requested, cfg, a)
    fast = status is Status.ACTIVATED and error is None
    fields = TierFields(
        intent=intent if tier else None,
        depth=tier.depth if tier else None,
        allowed_tools=tuple(allowed),
        excluded_tools=tuple(excluded),
        triggers_fired=tuple(f.to_dict() for f in a.fired),
        system_prompt=prompt,
        entities=tuple(entities),
        warnings=tuple(warnings),
        max_depth=a.max_depth,
        data_mode=a.data_mode,
        requested_intent=requested if tier else None,
        precedence=precedence,
        plan=plan,
        replay=replay_out,
        live=live_out,
        tier_label=tier.label if tier else None,
        role=tier.role if tier else None,
    )
    candidates = [{"name": names[c.tool], "confidence": c.confidence, "score_breakdown": dict(c.breakdown)} for c in cands[:5]]
    return RouteResult(
        query=query,
        domain=router.name,
        today=ref.isoformat(),
        normalized=a.normalized,
        corrections=list(a.corrections),
        status=status,
        message=message,
        clarifying_question=clarifying,
        path=Path.FAST if fast else Path.LLM,
        path_reason="a tier was chosen with confidence: its plan runs as is" if fast else "not confident or aborted: the model (or the user) decides",
        matches=matches,
        dates=[],
        error=error,
        events=events,
        timing_ms=0.0,
        available=router.available if status is Status.NOT_FOUND else [],
        thresholds=th.to_dict(),
        tokens=[{"text": u.surface, "role": u.role, "key": u.key, "via": u.via} for u in a.base.units],
        category=intent if tier else None,
        pipeline=[{"tool": s["tool"], "params": {"player_id": s["player_id"]}} for s in plan] if fast else [],
        tools_sent=list(allowed) if not fast else [],
        candidates=candidates,
        design="intent_tiers",
        design_fields=fields,
    )


def _match(router, c) -> Match:
    name = router.names[c.tool]
    tier = router.config.tiers.get(name)
    if tier is not None:
        return Match(name=name, confidence=c.confidence, match_type=c.match_type, description=f"{tier.label} ({tier.depth}): {tier.description}",
                     kind="tier", key_params=[], suggested_params={}, score_breakdown=dict(c.breakdown), evidence=list(c.evidence), raw_score=c.raw)
    player = next(p for p in router.roster.players if p.name == name)
    return Match(name=name, confidence=c.confidence, match_type=c.match_type, description=_player_desc(player), kind="player",
                 key_params=["player_id"], suggested_params={"player_id": player.id}, score_breakdown=dict(c.breakdown), evidence=list(c.evidence), raw_score=c.raw)


def _message(status, tier, players, error, intent, requested, cfg, a) -> str:
    if error is not None:
        return error.message
    if a.vague:
        return "Which player do you mean?"
    if tier is None:
        return "This does not look like a question about a player: no tier fits."
    who = " and ".join(p.name for p in players) or "a player"
    lowered = f" (asked for {cfg.tiers[requested].label}, lowered by max depth {a.max_depth})" if requested and requested != intent else ""
    if status is Status.ACTIVATED:
        return f"{tier.label} tier ({tier.depth}) for {who}{lowered}."
    if status is Status.MULTIPLE_MATCHES:
        return f"Probably the {tier.label} tier for {who}{lowered}, but another tier is close."
    return f"Only a weak guess: the {tier.label} tier for {who}{lowered}. Could you say what you want to know?"
