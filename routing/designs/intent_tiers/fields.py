"""The design's own result fields (shared/CONTRACT.md, "Designs": intent_tiers)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TierFields:
    intent: str | None  # surface | deep | compare (after a max-depth downgrade); None when no tier fits
    depth: str | None  # L1 | L2
    allowed_tools: tuple[str, ...]
    excluded_tools: tuple[dict, ...]  # {name, reason}
    triggers_fired: tuple[dict, ...]  # {tier, trigger, text, start, end, weight}
    system_prompt: str
    entities: tuple[dict, ...]  # resolved players (and the pronoun they came from)
    warnings: tuple[dict, ...]  # {code, message}
    max_depth: str = "L2"
    data_mode: str = "replay"
    requested_intent: str | None = None  # the tier before a max-depth downgrade
    precedence: str = ""  # why the winning tier won, when several fired
    plan: tuple[dict, ...] = ()  # the steps the agent runs (tool, player), in order
    replay: dict | None = None  # data mode replay: every step's output, computed from the fixtures
    tier_label: str | None = None
    role: str | None = None
    live: dict | None = None  # data mode live: {today, source, url, tried, reason, steps} read from the HTTP source

    def to_dict(self) -> dict:
        return {
            "intent": self.intent,
            "depth": self.depth,
            "allowed_tools": list(self.allowed_tools),
            "excluded_tools": [dict(e) for e in self.excluded_tools],
            "triggers_fired": [dict(t) for t in self.triggers_fired],
            "system_prompt": self.system_prompt,
            "entities": [dict(e) for e in self.entities],
            "warnings": [dict(w) for w in self.warnings],
            "max_depth": self.max_depth,
            "data_mode": self.data_mode,
            "requested_intent": self.requested_intent,
            "precedence": self.precedence,
            "plan": [dict(p) for p in self.plan],
            "replay": self.replay,
            "tier_label": self.tier_label,
            "role": self.role,
            "live": self.live,
        }
