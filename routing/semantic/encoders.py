"""Encoders: text -> L2-normalised float32 vectors. One interface, three back ends, one cache."""
from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import threading
from functools import lru_cache
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np

DEFAULT_STATIC_PATH = Path(__file__).with_name("data") / "minilm-static"
DEFAULT_OPENAI_MODEL = "text-embedding-3-small"


class Encoder(Protocol):
    name: str
    dimension: int

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def _normalise(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=np.float32)
    if m.ndim == 1:
        m = m[None, :]
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


class StaticEncoder:
    """A model2vec static table (distilled once from all-MiniLM-L6-v2, shipped in the repo): MiniLM's
    WordPiece tokenizer plus one vector per token, mean-pooled. No torch, no GPU, no download.

    Words are tokenised one at a time and their token ids kept in a bounded cache (WordPiece splits
    each word on its own, so this gives the same ids as the whole text): a query costs ~20 us."""

    WORD = re.compile(r"\w+|[^\w\s]")
    CACHE = 200_000

    def __init__(self, path: str | Path = DEFAULT_STATIC_PATH):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        path = Path(path)
        if not (path / "model.safetensors").exists():
            raise FileNotFoundError(f"no static embedding table at {path} (run scripts/distill_static.py)")
        tensors = load_file(str(path / "model.safetensors"))
        self.table = np.asarray(tensors.get("embeddings", next(iter(tensors.values()))), dtype=np.float32)
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.name = f"static:{path.name}"
        self.dimension = int(self.table.shape[1])
        self._ids: dict[str, list[int]] = {}
        self._last: tuple[str, np.ndarray] | None = None  # the last single text encoded, and its vector

    def _word_ids(self, word: str) -> list[int]:
        ids = self._ids.get(word)
        if ids is None:
            ids = self.tokenizer.encode(word, add_special_tokens=False).ids
            if len(self._ids) < self.CACHE:
                self._ids[word] = ids
        return ids

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        # A query is encoded by the semantic signal and again by the learned one: the second time
        # it is the first one's vector (a copy, so no caller can change the other's).
        last = self._last
        if len(texts) == 1 and last is not None and last[0] == texts[0]:
            return last[1].copy()
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            ids = [t for w in self.WORD.findall(text) for t in self._word_ids(w)]
            if ids:
                out[i] = self.table[ids].mean(axis=0)
        out = _normalise(out)
        if len(texts) == 1 and isinstance(texts[0], str):
            self._last = (texts[0], out.copy())
        return out


class SentenceTransformerEncoder:
    """sentence-transformers (optional extra). Loads from a local path or the local HF cache only."""

    def __init__(self, model: str = "sentence-transformers/all-MiniLM-L6-v2"):
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - depends on the extra
            raise RuntimeError("sentence-transformers is not installed (pip install -r requirements-extras.txt)") from exc
        self.model = SentenceTransformer(model, device="cpu", local_files_only=True)
        self.name = f"st:{model}"
        self.dimension = int(self.model.get_sentence_embedding_dimension())

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return _normalise(self.model.encode(texts, batch_size=64, show_progress_bar=False))


class OpenAIEncoder:
    """Any OpenAI-compatible /embeddings endpoint (OPENAI_BASE_URL, OPENAI_API_KEY)."""

    def __init__(self, model: str = DEFAULT_OPENAI_MODEL, *, client=None, base_url: str | None = None,
                 api_key: str | None = None, dimension: int | None = None, batch: int = 256):
        if client is None:
            from openai import OpenAI

            client = OpenAI(base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
                            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "none", timeout=30, max_retries=1)
        self.client = client
        self.model = model
        self.name = f"openai:{model}"
        self.batch = batch
        self.dimension = dimension or 0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        rows: list[list[float]] = []
        for i in range(0, len(texts), self.batch):
            reply = self.client.embeddings.create(model=self.model, input=texts[i:i + self.batch])
            rows += [d.embedding for d in sorted(reply.data, key=lambda d: d.index)]
        if not rows:
            return np.zeros((0, self.dimension), dtype=np.float32)
        m = _normalise(np.array(rows, dtype=np.float32))
        self.dimension = m.shape[1]
        return m


def default_cache_dir() -> Path:
    return Path(os.environ.get("ROUTING_EMBED_CACHE") or Path.home() / ".cache" / "routing-embeddings")


class CachedEncoder:
    """Wraps an encoder with an on-disk cache keyed by (model name, sha256 of the text): index builds
    and paid endpoints never embed the same text twice. SQLite: atomic writes, safe across processes."""

    def __init__(self, inner: Encoder, path: str | Path | None = None):
        self.inner = inner
        self.name = inner.name
        self.path = Path(path) if path else default_cache_dir() / "embeddings.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._connect() as db:
            db.execute("CREATE TABLE IF NOT EXISTS emb (model TEXT, hash TEXT, dim INTEGER, vec BLOB, PRIMARY KEY (model, hash))")
        self.hits = 0
        self.misses = 0

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def _connect(self):
        return sqlite3.connect(self.path, timeout=10)

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        keys = [self.key(t) for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._lock, self._connect() as db:
            for i in range(0, len(keys), 500):
                chunk = keys[i:i + 500]
                q = f"SELECT hash, vec FROM emb WHERE model=? AND hash IN ({','.join('?' * len(chunk))})"
                for h, blob in db.execute(q, [self.name, *chunk]):
                    found[h] = np.frombuffer(blob, dtype=np.float32)
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys) if k not in found))
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            vecs = self.inner.encode(missing)
            rows = [(self.name, self.key(t), int(v.shape[0]), np.asarray(v, np.float32).tobytes()) for t, v in zip(missing, vecs)]
            with self._lock, self._connect() as db:
                db.executemany("INSERT OR REPLACE INTO emb VALUES (?, ?, ?, ?)", rows)
            for (_, h, _, _), v in zip(rows, vecs):
                found[h] = np.asarray(v, np.float32)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([found[k] for k in keys]).astype(np.float32)


@lru_cache(maxsize=8)
def _static(path: str) -> StaticEncoder:
    return StaticEncoder(path)


def get_encoder(kind: str | None = None, **options) -> Encoder:
    """`static` (default; ROUTING_ENCODER overrides), `sentence-transformers` or `openai`.
    Remote/slow encoders are wrapped in the on-disk cache; the static one is shared per process."""
    kind = (kind or os.environ.get("ROUTING_ENCODER") or "static").lower()
    if kind == "static":
        return _static(str(options.get("path") or DEFAULT_STATIC_PATH))
    if kind in ("sentence-transformers", "st"):
        return CachedEncoder(SentenceTransformerEncoder(options.get("model") or "sentence-transformers/all-MiniLM-L6-v2"), options.get("cache"))
    if kind == "openai":
        return CachedEncoder(OpenAIEncoder(options.get("model") or DEFAULT_OPENAI_MODEL, client=options.get("client")), options.get("cache"))
    raise ValueError(f"unknown encoder {kind!r}: use static, sentence-transformers or openai")
