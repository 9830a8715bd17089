"""Routing designs, one module (or package) each, and the one place that picks a domain's design.

A domain's settings.yaml names its `design:` (default `tools`). Adding a design = a module here
with a `build(domain, **options)` function returning an object of `base.RoutingDesign`, plus one
line in DESIGNS. Modules are imported only when a domain of theirs is built, so an optional
dependency of one design never slows down or breaks another.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from routing.core.errors import LexiconError, Problem
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, load_domain
from routing.core.model import Domain
from routing.core.parse import register_design_keys

from .base import RoutingDesign

# design name -> "module:function" building it from a Domain
DESIGNS: dict[str, str] = {
    "tools": "routing.designs.tools:build",
    "power_gateway": "routing.designs.power_gateway:build",
    "intent_tiers": "routing.designs.intent_tiers:build",
    "datasource_mirror": "routing.designs.datasource_mirror:build",
}

# The keys each design reads beyond the shared ones (settings.yaml's top level, each tool in
# tools.yaml), declared here and not in the design's module, so that a misspelt key is refused when
# the lexicon loads, before any design is imported (`tools` reads none of its own).
DESIGN_FILE_KEYS: dict[str, dict[str, tuple[str, ...]]] = {
    "power_gateway": {"settings": ("gateway", "children"), "tool": ("hints",)},
    "intent_tiers": {"settings": ("model", "data_mode", "live_data"), "tool": ("depth",)},
    "datasource_mirror": {"settings": (), "tool": ("tables",)},
}
for _design, _keys in DESIGN_FILE_KEYS.items():
    register_design_keys(_design, **_keys)

__all__ = ["DESIGNS", "RoutingDesign", "build_router", "load_router"]


def build_router(domain: Domain, **options: Any) -> RoutingDesign:
    """The domain's design, built. An unknown design is a lexicon error naming settings.yaml."""
    design = domain.settings.design
    target = DESIGNS.get(design)
    if target is None:
        label = str(domain.root / "settings.yaml")
        known = ", ".join(sorted(DESIGNS))
        raise LexiconError([Problem(label, domain.settings.design_line, f"unknown design {design!r} (known: {known})")])
    module, _, func = target.partition(":")
    return getattr(importlib.import_module(module), func)(domain, **options)


def load_router(name: str, root: Path | str = DEFAULT_LEXICON_ROOT, **options: Any) -> RoutingDesign:
    """Load a domain's lexicon and build its design: the one entry point for every caller."""
    return build_router(load_domain(name, root), **options)
