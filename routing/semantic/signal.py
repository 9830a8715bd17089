"""The semantic signal of design `tools`: cosine between the query and each tool's example
questions and description, embedded once when the router is built (only if `scoring.semantic` > 0)."""
from __future__ import annotations

import numpy as np

from routing.core.scoring import Signal

# cosine at or below FLOOR says nothing; the value rises linearly to 1 at cosine 1.
FLOOR = 0.3
TOP = 8  # only the closest tools become candidates: the other signals decide among the rest


class SemanticIndex:
    """Every tool's examples (+ description) as rows of one matrix; `score` is the router's hook."""

    def __init__(self, domain, encoder):
        self.encoder = encoder
        texts: list[str] = []
        owners: list[int] = []
        for t, tool in enumerate(domain.tools):
            for text in [tool.description, *(e for _, e in tool.examples)]:
                if text and text.strip():
                    texts.append(text)
                    owners.append(t)
        order = np.argsort(np.array(owners, dtype=np.int64), kind="stable")
        self.texts = [texts[i] for i in order]
        owners_sorted = np.array(owners, dtype=np.int64)[order]
        self.matrix = encoder.encode(self.texts) if self.texts else np.zeros((0, encoder.dimension), np.float32)
        self.tools, self.starts = np.unique(owners_sorted, return_index=True)

    def nearest(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """(best cosine per tool with rows, row index of that nearest text)."""
        q = self.encoder.encode([text])[0]
        sims = self.matrix @ q
        best = np.maximum.reduceat(sims, self.starts)
        return best, sims

    def score(self, a, index) -> dict[int, Signal]:
        if not len(self.texts) or not a.text.strip():
            return {}
        best, sims = self.nearest(a.text)
        k = min(TOP, len(best))
        top = np.argpartition(-best, k - 1)[:k] if k < len(best) else np.arange(len(best))
        out: dict[int, Signal] = {}
        ends = list(self.starts[1:]) + [len(sims)]
        for i in top:
            cos = float(best[i])
            value = (cos - FLOOR) / (1.0 - FLOOR)
            if value <= 0:
                continue
            s, e = int(self.starts[i]), int(ends[i])
            row = s + int(np.argmax(sims[s:e]))
            out[int(self.tools[i])] = Signal(value=min(value, 1.0), parts={"semantic": min(value, 1.0)},
                                             evidence=[f'"{self.texts[row]}" (cos {cos:.2f})'])
        return out


def build_semantic(domain, encoder=None) -> SemanticIndex | None:
    """The router's semantic hook for a domain whose `scoring.semantic` weight is above zero."""
    if domain.settings.weights.semantic <= 0:
        return None
    if encoder is None:
        from .encoders import get_encoder

        encoder = get_encoder()
    return SemanticIndex(domain, encoder)
