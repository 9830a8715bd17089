"""The bound on a router's per-word caches (typo corrections, real words, word readings), and the
one way an entry is added: the oldest is dropped when a cache is full."""
from __future__ import annotations

WORD_CACHE_LIMIT = 20_000  # per-router word caches (typo corrections, real words): oldest dropped first


def remember(cache: dict, key, value):
    """Keep `value` for `key` in a per-router word cache, dropping the oldest entry when it is full."""
    if len(cache) >= WORD_CACHE_LIMIT:
        try:
            cache.pop(next(iter(cache)), None)
        except (RuntimeError, StopIteration):  # another thread changed it meanwhile: it stays bounded all the same
            pass
    cache[key] = value
    return value
