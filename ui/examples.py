"""Demo examples for the pages (ui/examples.yaml): data, so the pages hold no language words."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from routing import Domain

EXAMPLES_FILE = Path(__file__).with_name("examples.yaml")
MAX_FALLBACK = 8


@lru_cache(maxsize=1)
def _examples() -> dict:
    try:
        data = yaml.safe_load(EXAMPLES_FILE.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return {}  # examples are a convenience: a broken file must not take a page down
    return data if isinstance(data, dict) else {}


def playground_examples(domain: Domain) -> list[str]:
    """The domain's demo queries; else the first example question of each tool."""
    listed = (_examples().get("playground") or {}).get(domain.name)
    if isinstance(listed, list) and listed:
        return [str(q) for q in listed]
    firsts = [tool.examples[0][1] for tool in domain.tools if tool.examples]
    return firsts[:MAX_FALLBACK]


def date_examples() -> list[str]:
    listed = _examples().get("dates")
    return [str(x) for x in listed] if isinstance(listed, list) else []
