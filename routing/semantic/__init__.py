"""The embedding layer: encoders behind one interface, an on-disk cache, and vector stores.

    encoder.encode(texts) -> float32 matrix (len(texts) x encoder.dimension), rows L2-normalised
    encoder.name, encoder.dimension

`get_encoder()` picks one: the shipped static table (offline, no GPU, default), sentence-transformers
(optional extra) or any OpenAI-compatible embeddings endpoint. Nothing here downloads at run time.
"""
from __future__ import annotations

from .encoders import (
    DEFAULT_STATIC_PATH,
    CachedEncoder,
    Encoder,
    OpenAIEncoder,
    SentenceTransformerEncoder,
    StaticEncoder,
    get_encoder,
)
from .store import NumpyStore, get_store

__all__ = [
    "DEFAULT_STATIC_PATH", "CachedEncoder", "Encoder", "OpenAIEncoder", "SentenceTransformerEncoder",
    "StaticEncoder", "get_encoder", "NumpyStore", "get_store",
]
