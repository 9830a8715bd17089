"""What the tiers mean on labelled questions: how many come back in each tier, and how often the
top tool is right in each (the share right among activated / multiple / weak / ...), plus how many
come back not_found although the right tool was ranked first. One function, used by the zero-shot
benchmark (`python -m routing bench --zero-shot`) and scripts/dense_fewshot_bench.py."""
from __future__ import annotations

from collections import Counter
from typing import Iterable

ORDER = ("activated", "multiple_matches", "weak_matches", "needs_clarification", "not_found")


def tier_report(outcomes: Iterable[tuple[str, bool]]) -> dict:
    """From (tier, whether the top candidate is the right tool) per question:
    tiers        how many questions in each tier
    precision    per tier, the share whose top candidate is right (None for an empty tier)
    right_first  how many have the right tool first, in all
    not_found_when_right_first  of those, the share that came back not_found (an answer lost)
    """
    tiers: Counter = Counter()
    right: Counter = Counter()
    for tier, ok in outcomes:
        tiers[tier] += 1
        right[tier] += bool(ok)
    names = [t for t in ORDER if t in tiers] + sorted(t for t in tiers if t not in ORDER)
    total_right = sum(right.values())
    return {
        "tiers": {t: tiers[t] for t in names},
        "precision": {t: round(right[t] / tiers[t], 4) for t in names},
        "right_first": total_right,
        "not_found_when_right_first": round(right["not_found"] / total_right, 4) if total_right else None,
    }
