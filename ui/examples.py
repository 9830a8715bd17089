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


def _question(entry) -> str:
    return str(entry.get("q", "")) if isinstance(entry, dict) else str(entry)


def playground_examples(domain: Domain) -> list[str]:
    """The domain's demo queries; else the first example question of each tool."""
    listed = (_examples().get("playground") or {}).get(domain.name)
    if isinstance(listed, list) and listed:
        return [_question(q) for q in listed]
    firsts = [tool.examples[0][1] for tool in domain.tools if tool.examples]
    return firsts[:MAX_FALLBACK]


def example_needs(domain: Domain, question: str) -> str | None:
    """The question a follow-up example needs asked before it ("why is he declining" needs a player)."""
    for entry in (_examples().get("playground") or {}).get(domain.name) or []:
        if isinstance(entry, dict) and _question(entry) == question and entry.get("after"):
            return str(entry["after"])
    return None


def date_examples(languages=None) -> list[str]:
    """The dates page's worked examples; given a domain's languages, only English ones and those
    of its languages (cfo is offered romanised Hindi, not Indonesian)."""
    data = _examples()
    listed = [str(x) for x in data.get("dates") or [] if isinstance(data.get("dates"), list)]
    if languages is None:
        return listed
    more = [str(x) for x in data.get("dates_more") or [] if isinstance(data.get("dates_more"), list)]
    language = {str(k): str(v) for k, v in (data.get("dates_language") or {}).items()}
    wanted = {"en", *languages}
    return [x for x in dict.fromkeys(listed + more) if language.get(x, "en") in wanted]


def no_examples_hint(domain: Domain) -> str:
    """What the playground says where it has no example to offer (a catalog imported from descriptions)."""
    noun = "power" if domain.settings.design == "power_gateway" else "tool"
    n = len(domain.tools)
    first = next((t.description for t in domain.tools if t.description), "")
    hint = f"No example questions to try here: the {n} {noun}{'s' if n != 1 else ''} of **{domain.name}** are known by their descriptions (the Catalog page lists them)."
    return hint + (f" Ask in your own words for what one does, e.g. “{first}”." if first else " Ask in your own words.")
