"""A date said as the period another one is compared with, not a second period asked: "P&L for November 2025
with the previous month as a comparison column", "Q2, with the comparison against the prior quarter", "penjualan
Oktober dibanding bulan sebelumnya". A date whose own words hold one of words.yaml `comparison` ("previous",
"prior", "sebelumnya"), after a date that holds none, is the period before that one: dropped from the question's
dates and shown as set aside. "Last month" says when from today and holds no such word: "compare November with
last month" keeps both. Language-free: the words live in words.yaml."""
from __future__ import annotations


def compared(dates, date_at: list[tuple[int, int]], dropped: set, words: list[str], said: frozenset[str]) -> set:
    """The token ranges of the dates in `dates` (at `date_at`, those in `dropped` already set aside) that are a
    comparison period of a date said before them."""
    kept = [at for d, at in zip(dates, date_at) if at not in dropped and d.resolved]
    out: set = set()
    anchored = False  # a date holding no comparison word was said before
    for lo, hi in kept:
        if said.isdisjoint(words[lo:hi]):
            anchored = True
        elif anchored:
            out.add((lo, hi))
    return out
