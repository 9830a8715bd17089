"""A question's word the catalog never uses ("fly"), read also as the catalog's nearest word by the
dense list's own token table ("flight", cosine 0.65), when the two are close enough: a weak lexical
signal. The unknown word still counts against every tool (the lexical list's share of known words and
the example signal's unseen share are unchanged); the neighbour adds its own points. Built once per
router from the words of the catalog's texts; nothing read outside the shipped table."""
from __future__ import annotations

import numpy as np

MIN_COSINE = 0.6  # the nearest catalog word must be at least this close (measured: README, issue 22)
MIN_LETTERS = 3
# In the fusion, an unknown word with a neighbour counts as this much of a known word (the lexical
# list's weight follows the share of the question's words the catalog knows: routing.semantic.dense).
NEIGHBOUR_KNOWN = 0.5
# A look-up is one product with every catalog word's vector (~0.9 ms a word at 7,000 words on this
# machine): above this many words it is off. The 4,076-tool Seal-Tools catalog (7,027 words) paid
# +5.6 ms CPU p50 a question for one more of 600 right; HWU64 / Banking77 have a few hundred words.
MAX_VOCABULARY = 5000


class WordNeighbours:
    def __init__(self, table, vocabulary) -> None:
        """`table`: a routing.semantic.tokentable.TokenTableEncoder (token_ids, table); `vocabulary`:
        the catalog's words (the example signal's unigram features)."""
        self.table = table
        self.words = sorted(w for w in vocabulary if len(w) >= MIN_LETTERS and w.isalpha())
        self.matrix = self._vectors(self.words)
        self.cache: dict[str, str | None] = {}

    def _vectors(self, words: list[str]) -> np.ndarray:
        out = np.zeros((len(words), self.table.dimension), dtype=np.float32)
        for i, w in enumerate(words):
            ids = self.table.token_ids(w)
            if ids:
                out[i] = self.table.table[ids].sum(axis=0, dtype=np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms

    def nearest(self, word: str) -> str | None:
        """The catalog's nearest word to `word` at MIN_COSINE or more, else None."""
        if word in self.cache:
            return self.cache[word]
        found = None
        if len(self.words) and len(word) >= MIN_LETTERS and word.isalpha():
            sims = self.matrix @ self._vectors([word])[0]
            best = int(np.argmax(sims))
            found = self.words[best] if sims[best] >= MIN_COSINE else None
        if len(self.cache) > 20_000:
            self.cache.clear()
        self.cache[word] = found
        return found

    def extra_keys(self, keys, known) -> tuple[str, ...]:
        """The neighbours of the keys the catalog does not know (`known`: its words), new ones only."""
        out = []
        for k in keys:
            if k in known:
                continue
            n = self.nearest(k)
            if n is not None and n not in keys and n not in out:
                out.append(n)
        return tuple(out)


    def share(self, a, index) -> float:
        """The share of the question's content words that are unknown literals with a neighbour."""
        content = [u for u in a.units if u.role in ("concept", "literal", "action")]
        if not content:
            return 0.0
        found = sum(u.role == "literal" and u.key not in index.example_vocab and index._fold_example_key(u.key) is None
                    and self.nearest(u.key) is not None for u in content)
        return found / len(content)


def build_neighbours(dense, index) -> WordNeighbours | None:
    """Only where the dense list runs on a token table (a transformer has no word vectors to look up)."""
    table = getattr(dense, "encoder", None) if dense is not None else None
    if table is None or not hasattr(table, "token_ids") or not hasattr(table, "table"):
        return None
    words = [w for w in index.example_vocab if len(w) >= MIN_LETTERS and w.isalpha()]
    return WordNeighbours(table, words) if len(words) <= MAX_VOCABULARY else None
