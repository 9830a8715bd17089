"""Design `intent_tiers` (football): an intent tier fixes the allowed tools and the data depth.

Modules: config (tiers.yaml), data (fixtures), entities (player look-up), analysis (one query),
scoring (tier confidences), outcome (constraints, errors, result), prompts, replay (tools on
fixtures), guard (no network in replay), fields (the result fields), design (the router).
"""
from .design import IntentTiersRouter, build

__all__ = ["IntentTiersRouter", "build"]
