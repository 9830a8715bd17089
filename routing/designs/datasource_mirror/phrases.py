"""Which datasource a question's canonical phrases name: the mirror's reading of its own rewrite table.

A canonical phrase (a key of mirror.yaml `rewrites`: "breakdown", "stock level", "overtime hours") that
the sample questions of one datasource alone use, canonicalised, belongs to that datasource. A question
whose canonical form holds such phrases of one datasource only, and none of another, names it: "mesin
press 2 rusak lagi, kapan terakhir diservis?" reads "... breakdown ..." (maintenance), whatever its
nearest entry in the index ("press", "line" and "shift" pull towards production). A phrase several
datasources' samples use ("production lines": output per line, scrap per line) names none, nor does one
the dates read as a date ("next week" is when, whatever one sample asks it of), and one question naming
two datasources ("repairs work orders") is left to the index. A close entry (L1) is overruled only by
two phrases or more: one word of two senses ("breakdown" of a count by shift, "machines running on line
4") does not outweigh it. Nothing here knows a language: the phrases are the lexicon's.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Mapping

from routing.designs.datasource_mirror.canonical import canonicalise
from routing.designs.datasource_mirror.config import MirrorConfig

L1_OVERRULED_BY = 2  # owned phrases of one datasource it takes to overrule a close entry (L1)


@lru_cache(maxsize=4096)
def _bounded(phrase: str) -> re.Pattern:
    return re.compile(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)")


def _holds(text: str, phrase: str) -> bool:
    """`phrase` as whole words of `text` (a substring test first: this runs for every phrase on every route)."""
    return phrase in text and _bounded(phrase).search(text) is not None


def phrase_owners(cfg: MirrorConfig, is_date: Callable[[str], bool] = lambda phrase: False) -> dict[str, str]:
    """Canonical phrase -> the one datasource whose sample questions use it (phrases of several
    datasources or none, and those `is_date` says are dates, left out)."""
    canon = {ds: [canonicalise(q, cfg) for q in qs] for ds, qs in cfg.samples.items()}
    out: dict[str, str] = {}
    for phrase in cfg.rewrites:
        if is_date(phrase):
            continue
        users = {ds for ds, texts in canon.items() if any(_holds(t, phrase) for t in texts)}
        if len(users) == 1:
            out[phrase] = users.pop()
    return out


def named_datasource(canonical: str, owners: Mapping[str, str]) -> tuple[str | None, list[str]]:
    """(the datasource the canonical question's owned phrases all name, those phrases), or (None, [])."""
    found = [p for p in owners if _holds(canonical, p)]
    named = {owners[p] for p in found}
    return (named.pop(), sorted(found)) if len(named) == 1 else (None, [])
