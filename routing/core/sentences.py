"""A question of several sentences asks for several tools: each sentence's best tool is brought up.

Agents and people put several requests in one message ("Find the SLA of the compute service.
Then back up /home/user/data. Finally update shipment ZzRpnklbRL."). Scored as one bag of words,
the longest request outvotes the others and their tools fall out of the first five. So in an
enriched domain (a tool catalog) the tool document's score of each tool is

    (score over the whole question + best whole score x best lift over its sentences) / 2

where a tool's lift in a sentence is (its score there / that sentence's best) ** SHARE_POWER. A tool
that leads one sentence ranks level with the whole question's leader, a sentence's runners-up are
lifted far less (at 0.8 of its best, 0.41), and a one-sentence question keeps its score. Sentences are found by RouterIndex.analyze (routing.core.index.sentence_features): no word
of any language, only sentence punctuation. Seal-Tools dev (4,076 tools; 500 of its 700 questions
ask for 2-6 tools): top-5 90.0 % -> 94.5 % (see README, "Zero-shot").
"""
from __future__ import annotations

import regex

from routing.core.units import unit_features

# Seal-Tools dev, top-1 / top-5 by the tool document alone: 1 37.6 % / 94.6 %, 2 37.6 / 94.6, 4 37.6 / 94.5,
# 8 37.6 / 94.5 (indifferent there); with 1, in a question whose first sentence names six tools of one
# subject, that sentence's runners-up kept the second sentence's only tool out of the first five.
SHARE_POWER = 4


# A sentence ends at a sentence terminal of any script (Unicode's Sentence_Terminal: . ? ! 。 ...)
# or a semicolon, followed by a space; a decimal point ("37.5") or a dot inside a word never does.
_SENTENCE_END = regex.compile(r"[\p{Sentence_Terminal};]\s")


def split_sentences(units, tokens, text: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Per sentence of a question of two or more, its (keys, extras); () for a single sentence.
    A unit belongs to the sentence of its first token (RouterIndex.analyze, enriched domains)."""
    if len(tokens) < 2:
        return ()
    sentence = [0] * len(tokens)
    n = 0
    # Each sentence end once (a match is a terminal and a space: two never overlap), then the gaps
    # between tokens that hold one, as a search of each gap would find them.
    ends = [m.start() for m in _SENTENCE_END.finditer(text)]
    k = 0
    for i in range(1, len(tokens)):
        lo, hi = tokens[i - 1].end, tokens[i].start
        while k < len(ends) and ends[k] < lo:
            k += 1
        if k < len(ends) and ends[k] + 2 <= hi:
            n += 1
        sentence[i] = n
    if n == 0:
        return ()
    groups: list[list] = [[] for _ in range(n + 1)]
    for u in units:
        groups[sentence[u.first]].append(u)
    out = []
    for g in groups:
        keys, extras = unit_features(g, tokens, text)
        if keys:
            out.append((tuple(keys), tuple(dict.fromkeys(extras))))
    return tuple(out) if len(out) > 1 else ()


def sentence_features(a, index) -> list[list[str]]:
    """The example features of each sentence of the question (empty for a single sentence)."""
    return [list(dict.fromkeys(index.example_features(keys, extras))) for keys, extras in a.segments]


def fuse(full: dict[int, float], sentences: list[dict[int, float]]) -> dict[int, float]:
    """The formula above over dicts (tool -> score); `full` unchanged without sentences."""
    best = max(full.values(), default=0.0)
    if not sentences or best <= 0:
        return full
    share: dict[int, float] = {}
    for scores in sentences:
        top = max(scores.values(), default=0.0)
        if top > 0:
            for t, v in scores.items():
                lift = (v / top) ** SHARE_POWER
                if lift > share.get(t, 0.0):
                    share[t] = lift
    return {t: (v + best * share.get(t, 0.0)) / 2 for t, v in full.items()}


def fuse_arrays(full, sentences: list):
    """The same over numpy vectors (one score per tool)."""
    import numpy as np

    best = float(full.max()) if len(full) else 0.0
    if not sentences or best <= 0:
        return full
    share = np.zeros_like(full)
    for scores in sentences:
        top = float(scores.max())
        if top > 0:
            np.maximum(share, (scores / top) ** SHARE_POWER, out=share)
    return (full + best * share) / 2
