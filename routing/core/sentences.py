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

import re
from bisect import bisect_left

import regex

from routing.core.units import unit_features

# Seal-Tools dev, top-1 / top-5 by the tool document alone: 1 37.6 % / 94.6 %, 2 37.6 / 94.6, 4 37.6 / 94.5,
# 8 37.6 / 94.5 (indifferent there); with 1, in a question whose first sentence names six tools of one
# subject, that sentence's runners-up kept the second sentence's only tool out of the first five.
SHARE_POWER = 4


# A sentence ends at a sentence terminal of any script (Unicode's Sentence_Terminal: . ? ! 。 ...)
# or a semicolon, followed by a space; a decimal point ("37.5") or a dot inside a word never does.
_SENTENCE_END = regex.compile(r"[\p{Sentence_Terminal};]\s")


# The same in an ASCII text: Sentence_Terminal's ASCII members, and the ASCII White_Space `regex` reads as \s.
_ASCII_SENTENCE_END = re.compile(r"[!.;?][\t\n\x0b\x0c\r ]")


def split_sentences(units, tokens, text: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Per sentence of a question of two or more, its (keys, extras); () for a single sentence.
    A unit belongs to the sentence of its first token (RouterIndex.analyze, enriched domains)."""
    return split_features(units, tokens, text)[2]


def split_features(units, tokens, text: str) -> tuple[list[str], list[str], tuple]:
    """unit_features() of the whole question and split_sentences() of it, each unit read once."""
    cuts = _sentence_cuts(units, tokens, text)
    if not cuts:
        keys, extras = unit_features(units, tokens, text)
        return keys, extras, ()
    keys: list[str] = []
    extras: list[str] = []
    out = []
    for a, b in zip([0, *cuts], [*cuts, len(units)]):
        k, e = unit_features(units[a:b], tokens, text)
        keys += k
        extras += e
        if k:
            out.append((tuple(k), tuple(dict.fromkeys(e))))
    return keys, extras, (tuple(out) if len(out) > 1 else ())


def _sentence_cuts(units, tokens, text: str) -> list[int]:
    """The index of the first unit of each sentence after the first ([] for a single sentence)."""
    if len(tokens) < 2:
        return []
    # A sentence starts at the first token after a sentence end that lies between two tokens
    # (a match is a terminal and a space: two never overlap).
    ends = [m.start() for m in (_ASCII_SENTENCE_END if text.isascii() else _SENTENCE_END).finditer(text)]
    if not ends:
        return []
    starts = [t.start for t in tokens]
    breaks = set()
    for e in ends:
        i = bisect_left(starts, e + 2)
        if 0 < i < len(tokens) and tokens[i - 1].end <= e:
            breaks.add(i)
    if not breaks:
        return []
    firsts = [u.first for u in units]
    return sorted({c for c in (bisect_left(firsts, b) for b in breaks) if 0 < c < len(units)})


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


class FusedScores:
    """fuse_arrays' scores, made for the tools read: the k+1 best (`best_of`), any tool alone (`at`), or
    every tool (`array`). The fourth power of every tool's share in every sentence was most of the
    fusion's cost (Seal-Tools: four sentences of 4,076 tools), and only the leaders' are read."""

    def __init__(self, full, sentences: list):
        self.full, self.sentences = full, sentences
        self.best = float(full.max()) if len(full) else 0.0
        self.fused = bool(sentences) and self.best > 0  # else the whole question's scores, as fuse_arrays
        self.ratios = [s / top for s in sentences for top in [float(s.max())] if top > 0] if self.fused else []
        self._array = None if self.fused else full
        self._known: dict[int, float] = {}

    def array(self):
        if self._array is None:
            self._array = fuse_arrays(self.full, self.sentences)
        return self._array

    def at(self, t: int) -> float:
        """array()[t], with the same operations on the one tool (a one-element power is the array's)."""
        if self._array is not None:
            return float(self._array[t])
        v = self._known.get(t)
        if v is None:
            share = 0.0
            for r in self.ratios:
                share = max(share, float((r[t:t + 1] ** SHARE_POWER)[0]))
            v = self._known[t] = (float(self.full[t]) + self.best * share) / 2
        return v

    def many(self, ts: list[int]) -> list[float]:
        """[at(t) for t in ts], the array's values read in one go where it is made."""
        if self._array is not None:
            return self._array[ts].tolist()
        known = self._known
        return [v if v is not None else self.at(t) for t, v in zip(ts, map(known.get, ts))]

    def best_of(self, k: int):
        """(tools, their scores) holding the k+1 best and every tool tied with the (k+1)-th, or None
        (few tools, or no sentence to fuse: then array()). Each score is array()'s: the powers of
        those tools' shares alone. Which tools: the share's fourth power taken as the product
        (m * m) ** 2 of the best share m errs by far less than 1e-9 of the best score (so does any
        power function), so a tool under the (k+1)-th best of these approximations by twice that
        is under the (k+1)-th best score."""
        import numpy as np

        n = len(self.full)
        if self._array is not None or not self.ratios or n <= 4 * (k + 1):
            return None
        rs = self.ratios
        m = np.maximum(rs[0], rs[1]) if len(rs) > 1 else rs[0].copy()
        for r in rs[2:]:
            np.maximum(m, r, out=m)
        np.multiply(m, m, out=m)
        np.multiply(m, m, out=m)
        np.multiply(m, self.best, out=m)
        approx = np.add(m, self.full, out=m)  # twice the approximation (halving is exact): the cut doubled too
        ids = np.flatnonzero(approx >= np.partition(approx, n - k - 1)[n - k - 1] - 4e-9 * self.best)
        share = np.zeros(len(ids))
        for r in self.ratios:
            np.maximum(share, r[ids] ** SHARE_POWER, out=share)
        values = (self.full[ids] + self.best * share) / 2
        self._known.update(zip(ids.tolist(), values.tolist()))
        return ids, values
