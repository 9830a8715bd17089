"""The semantic signal of design `tools`: cosine between the query and each tool's example
questions and description, embedded once when the router is built (only if `scoring.semantic` > 0)."""
from __future__ import annotations

import numpy as np

from routing.core.enrich import enriched, tool_documents
from routing.core.scoring import Signal

# cosine at or below FLOOR says nothing; the value rises linearly to 1 at cosine 1.
FLOOR = 0.5
TOP = 8  # only the closest tools become candidates: the other signals decide among the rest
PRESELECT_ROWS = 1500  # above this many texts, tools are first ranked by centroid ...
PRESELECT = 16  # ... and only the best PRESELECT tools' texts are compared one by one


class SemanticIndex:
    """Every tool's examples (+ description) as rows of one matrix; `score` is the router's hook."""

    def __init__(self, domain, encoder):
        self.encoder = encoder
        texts: list[str] = []
        owners: list[int] = []
        enrich = enriched(domain)
        for t, tool in enumerate(domain.tools):
            derived = tool_documents(tool) if enrich else [tool.description]
            for text in [*derived, *(e for _, e in tool.examples)]:
                if text and text.strip():
                    texts.append(text)
                    owners.append(t)
        order = np.argsort(np.array(owners, dtype=np.int64), kind="stable")
        self.texts = [texts[i] for i in order]
        owners_sorted = np.array(owners, dtype=np.int64)[order]
        self.matrix = encoder.encode(self.texts) if self.texts else np.zeros((0, encoder.dimension), np.float32)
        self.tools, self.starts = np.unique(owners_sorted, return_index=True)
        self.ends = np.append(self.starts[1:], len(self.texts)).astype(np.int64)
        cents = np.stack([self.matrix[s:e].mean(axis=0) for s, e in zip(self.starts, self.ends)]) if len(self.texts) else np.zeros((0, encoder.dimension))
        norms = np.linalg.norm(cents, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        self.centroids = np.ascontiguousarray(cents / norms, dtype=np.float32)
        # Per tool, its rows (views of the matrix, cut once) and their first row's number.
        self.blocks = [(self.matrix[s:e], s) for s, e in zip(self.starts.tolist(), self.ends.tolist())]

    def nearest(self, text: str) -> tuple[dict[int, float], dict[int, int]]:
        """(best cosine per tool, row of that nearest text), for the tools worth looking at.

        A large index (over PRESELECT_ROWS rows) first ranks tools by their centroid and looks only
        at the rows of the best PRESELECT tools: a few small products instead of one big one, which
        under a busy multi-threaded BLAS costs milliseconds."""
        q = self.encoder.encode([text])[0]
        if len(self.texts) > PRESELECT_ROWS:
            near = np.einsum("ij,j->i", self.centroids, q)
            k = min(PRESELECT, len(near))
            chosen = np.argpartition(-near, k - 1)[:k]
        else:
            chosen = range(len(self.tools))
        best: dict[int, float] = {}
        rows: dict[int, int] = {}
        for i in chosen.tolist() if isinstance(chosen, np.ndarray) else chosen:
            block, s = self.blocks[i]
            sims = np.einsum("ij,j->i", block, q)
            j = int(sims.argmax())
            best[i] = float(sims[j])
            rows[i] = s + j
        return best, rows

    def score(self, a, index) -> dict[int, Signal]:
        if not len(self.texts) or not a.text.strip():
            return {}
        best, rows = self.nearest(a.text)
        out: dict[int, Signal] = {}
        for i in sorted(best, key=lambda i: -best[i])[:TOP]:
            cos = best[i]
            value = min((cos - FLOOR) / (1.0 - FLOOR), 1.0)
            if value <= 0:
                continue
            out[int(self.tools[i])] = Signal(value=value, parts={"semantic": value},
                                             evidence=[f'"{self.texts[rows[i]]}" (cos {cos:.2f})'])
        return out


def build_semantic(domain, encoder=None) -> SemanticIndex | None:
    """The router's semantic hook for a domain whose `scoring.semantic` weight is above zero."""
    if domain.settings.weights.semantic <= 0:
        return None
    if encoder is None:
        from .encoders import get_encoder

        encoder = get_encoder()
    return SemanticIndex(domain, encoder)
