"""Vector stores behind one interface: exact cosine over a numpy matrix (default) or ChromaDB.

    store.add(ids, vectors, metadatas)
    store.query(vector, k) -> [Hit(id, distance, metadata)], nearest first; distance = 1 - cosine
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np


@dataclass(frozen=True)
class Hit:
    id: str
    distance: float
    metadata: dict = field(default_factory=dict)


class NumpyStore:
    """Exact cosine: one matrix product. Right up to ~10^5-10^6 vectors on one machine."""

    def __init__(self, dimension: int):
        self.dimension = dimension
        self.matrix = np.zeros((0, dimension), dtype=np.float32)
        self.ids: list[str] = []
        self.metadatas: list[dict] = []

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, ids: Sequence[str], vectors: np.ndarray, metadatas: Sequence[dict] | None = None) -> None:
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(ids), self.dimension)
        self.matrix = np.vstack([self.matrix, vectors])
        self.ids += list(ids)
        self.metadatas += list(metadatas or [{} for _ in ids])

    def query(self, vector: np.ndarray, k: int = 1) -> list[Hit]:
        if not self.ids:
            return []
        sims = self.matrix @ np.asarray(vector, dtype=np.float32).reshape(-1)
        k = min(k, len(self.ids))
        top = np.argpartition(-sims, k - 1)[:k] if k < len(sims) else np.arange(len(sims))
        top = sorted(top, key=lambda i: (-sims[i], i))
        return [Hit(self.ids[i], round(float(1.0 - sims[i]), 6), self.metadatas[i]) for i in top]


class ChromaStore:
    """ChromaDB embedded (PersistentClient). Vectors are always ours: the collection gets our
    encoder as its embedding function, so Chroma's default one (which downloads a model) is never used."""

    def __init__(self, dimension: int, path: str, collection: str, encoder: Any = None):
        try:
            import chromadb
        except ImportError as exc:
            raise RuntimeError("chromadb is not installed (pip install -r requirements-extras.txt)") from exc
        self.dimension = dimension
        self.client = chromadb.PersistentClient(path=str(path))
        fn = _ChromaFunction(encoder) if encoder is not None else None
        self.collection = self.client.get_or_create_collection(
            collection, embedding_function=fn, metadata={"hnsw:space": "cosine"}
        )

    def __len__(self) -> int:
        return self.collection.count()

    def add(self, ids: Sequence[str], vectors: np.ndarray, metadatas: Sequence[dict] | None = None) -> None:
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(ids), self.dimension)
        metas = [_flat(m) for m in (metadatas or [{"_": ""} for _ in ids])]
        for i in range(0, len(ids), 4000):
            self.collection.upsert(ids=list(ids[i:i + 4000]), embeddings=vectors[i:i + 4000].tolist(), metadatas=metas[i:i + 4000])

    def query(self, vector: np.ndarray, k: int = 1) -> list[Hit]:
        if not len(self):
            return []
        r = self.collection.query(query_embeddings=[np.asarray(vector, np.float32).tolist()], n_results=k,
                                  include=["distances", "metadatas"])
        return [Hit(i, round(float(d), 6), dict(m or {})) for i, d, m in zip(r["ids"][0], r["distances"][0], r["metadatas"][0])]


def _flat(meta: dict) -> dict:
    """Chroma metadata holds scalars only: lists become comma-joined strings."""
    out = {k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v) for k, v in meta.items() if v is not None}
    return out or {"_": ""}


class _ChromaFunction:
    """Our encoder as a Chroma embedding function (so `query_texts` also uses our vectors)."""

    def __init__(self, encoder):
        self.encoder = encoder

    def __call__(self, input):  # noqa: A002 - Chroma's parameter name
        return [row.tolist() for row in self.encoder.encode(list(input))]

    @staticmethod
    def name() -> str:
        return "routing-encoder"

    def is_legacy(self) -> bool:
        return False

    def get_config(self) -> dict:
        return {}

    @staticmethod
    def build_from_config(config):  # pragma: no cover - we always pass our own
        raise NotImplementedError


def get_store(kind: str, dimension: int, **options) -> NumpyStore | ChromaStore:
    """`numpy` (default) or `chroma` (options: path, collection, encoder)."""
    if kind in (None, "", "numpy"):
        return NumpyStore(dimension)
    if kind == "chroma":
        return ChromaStore(dimension, options["path"], options.get("collection", "routing"), options.get("encoder"))
    raise ValueError(f"unknown vector store {kind!r}: use numpy or chroma")
