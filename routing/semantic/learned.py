"""The learned signal of design `tools`: a linear model trained on the domain's own example
questions, when it has enough of them (an imported, labelled data set has thousands).

Features of a text (language-agnostic: no word lists, only how text is written):
- word unigrams and bigrams, and character 2- to 5-grams inside words (with word boundaries),
  each block tf-idf weighted (sublinear tf) and L2-normalised;
- the text's embedding from the router's encoder (the static MiniLM table by default), so that a
  paraphrase with none of the examples' words still has something to go on.

A softmax over the tools is trained on them (L2-regularised cross-entropy, Adam on mini-batches,
a fixed seed: the same examples give the same model). `probabilities(text)` is P(tool | text)
over the tools that have examples; the router adds `weight x P` for the best few tools.

Training costs seconds on ten thousand examples, so a trained model is kept beside the domain
(`.learned.npz`, like calibration's `.calibration.json`) with a hash of everything it was trained
on (texts, labels, encoder, settings, version); the next build of the same examples loads it.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
import zipfile
from collections import Counter
from pathlib import Path
from typing import Sequence

import numpy as np

from routing.core.cachefile import write_cache
from routing.core.scoring import Signal

VERSION = 1
MIN_EXAMPLES = 200  # fewer examples than this in the whole domain: no model (too little to learn from)
MIN_TOOLS = 2
# Examples per tool (on average, over the tools that have any) below which there is nothing to
# learn that the examples' own words do not say: a softmax over 4,076 one-example classes took
# 19 minutes to train and then ranked below TF-IDF. Such a domain routes without the model.
MIN_PER_TOOL = 3.0
TOP = 5  # tools whose probability becomes a candidate signal
MIN_PROBABILITY = 0.02
WORD = re.compile(r"\w+")
CHAR_N = (3, 4)
L2 = 1e-5
LEARNING_RATE = 0.005
BATCH = 64
SEED = 0


def _steps_for(n: int) -> int:
    """Passes over the data: about 100,000 examples seen in all, 10 to 40 passes."""
    return min(40, max(10, math.ceil(100_000 / max(n, 1))))


def word_features(text: str) -> list[str]:
    words = WORD.findall(text.lower())
    return words + [f"{a} {b}" for a, b in zip(words, words[1:])]


def char_features(text: str) -> list[str]:
    lo, hi = CHAR_N
    out: list[str] = []
    for w in WORD.findall(text.lower()):
        padded = f" {w} "
        for n in range(lo, hi + 1):
            out.extend(padded[i:i + n] for i in range(len(padded) - n + 1))
    return out


class TfIdf:
    """One block of sparse features: vocabulary, idf, and a text -> (indices, values) reader."""

    def __init__(self, extract, vocab: dict[str, int], idf: np.ndarray):
        self.extract, self.vocab, self.idf = extract, vocab, idf

    @classmethod
    def fit(cls, extract, texts: Sequence[str], min_df: int) -> "TfIdf":
        df: Counter = Counter()
        for t in texts:
            df.update(set(extract(t)))
        keep = sorted(f for f, c in df.items() if c >= min_df)
        n = len(texts)
        idf = np.array([math.log((1 + n) / (1 + df[f])) + 1 for f in keep], dtype=np.float32)
        return cls(extract, {f: i for i, f in enumerate(keep)}, idf)

    def read(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        counts = Counter(f for f in self.extract(text) if f in self.vocab)
        idx = np.fromiter((self.vocab[f] for f in counts), np.int64, len(counts))
        return self._weighed(idx, np.fromiter((1.0 + math.log(c) for c in counts.values()), np.float32, len(counts)))

    def _weighed(self, idx: np.ndarray, tf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """tf x idf, L2-normalised (a text with no known feature stays empty)."""
        val = tf * self.idf[idx]
        norm = float(np.linalg.norm(val))
        return idx, (val / norm if norm else val)


class CharTfIdf(TfIdf):
    """The character block, read word by word: a word's n-gram ids are looked up once and kept
    (a query costs a few dictionary hits, not a hundred)."""

    CACHE = 100_000

    def __init__(self, extract, vocab, idf):
        super().__init__(extract, vocab, idf)
        self._ids: dict[str, np.ndarray] = {}

    def _word(self, word: str) -> np.ndarray:
        ids = self._ids.get(word)
        if ids is None:
            ids = np.array([self.vocab[g] for g in char_features(word) if g in self.vocab], dtype=np.int64)
            if len(self._ids) < self.CACHE:
                self._ids[word] = ids
        return ids

    def read(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        words = WORD.findall(text.lower())
        if not words:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        idx, counts = np.unique(np.concatenate([self._word(w) for w in words]), return_counts=True)
        return self._weighed(idx, (1.0 + np.log(counts)).astype(np.float32))


class Features:
    """All sparse blocks side by side, plus the dense embedding."""

    def __init__(self, blocks: list[TfIdf], encoder):
        self.blocks, self.encoder = blocks, encoder
        self.offsets = np.cumsum([0] + [len(b.vocab) for b in blocks])
        self.sparse_dim = int(self.offsets[-1])

    def sparse(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        parts = [b.read(text) for b in self.blocks]
        return (np.concatenate([p[0] + o for p, o in zip(parts, self.offsets)]),
                np.concatenate([p[1] for p in parts]))

    def rows(self, texts: Sequence[str]):
        """CSR arrays (indptr, indices, values) for many texts."""
        ind, val, ptr = [], [], [0]
        for t in texts:
            i, v = self.sparse(t)
            ind.append(i)
            val.append(v)
            ptr.append(ptr[-1] + len(i))
        return np.array(ptr, dtype=np.int64), np.concatenate(ind) if ind else np.zeros(0, np.int64), \
            np.concatenate(val) if val else np.zeros(0, np.float32)


class LearnedModel:
    """P(tool | text) for the tools with examples (`tools[j]` is column j)."""

    def __init__(self, features: Features, W: np.ndarray, V: np.ndarray, b: np.ndarray, tools: np.ndarray, examples: int):
        self.features, self.W, self.V, self.b, self.tools, self.examples = features, W, V, b, tools, examples

    def probabilities(self, text: str, sparse: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        idx, val = sparse if sparse is not None else self.features.sparse(text)
        z = val @ self.W[idx] + self.features.encoder.encode([text])[0] @ self.V + self.b
        z -= z.max()
        p = np.exp(z)
        return p / p.sum()

    def score(self, a) -> dict[int, Signal]:
        """The router's hook: P(tool | query) for the best TOP tools (those above MIN_PROBABILITY).
        A query none of whose words or letter groups the examples use says nothing: the model's
        answer would be its prior alone ("???" must not lean to the biggest tool)."""
        if not a.text.strip():
            return {}
        sparse = self.features.sparse(a.text)
        if not len(sparse[0]):
            return {}
        p = self.probabilities(a.text, sparse)
        best = np.argpartition(-p, min(TOP, len(p)) - 1)[:TOP]
        return {t: Signal(value=v, parts={"learned": v}, evidence=[f"p {v:.2f}, model of {self.examples} examples"])
                for t, v in zip(self.tools[best].tolist(), p[best].tolist()) if v >= MIN_PROBABILITY}


def _train(features: Features, texts: list[str], labels: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ptr, ind, val = features.rows(texts)
    E = features.encoder.encode(texts).astype(np.float32)
    n, d = len(texts), features.sparse_dim
    rng = np.random.default_rng(SEED)
    W = np.zeros((d, k), np.float32)
    V = np.zeros((E.shape[1], k), np.float32)
    b = np.zeros(k, np.float32)
    mW, vW = np.zeros_like(W), np.zeros_like(W)
    dense = [(V, np.zeros_like(V), np.zeros_like(V)), (b, np.zeros_like(b), np.zeros_like(b))]
    onehot = np.eye(k, dtype=np.float32)
    lens = np.diff(ptr)
    t = 0
    for _ in range(_steps_for(n)):
        perm = rng.permutation(n)
        for s in range(0, n, BATCH):
            rows = perm[s:s + BATCH]
            t += 1
            rl = lens[rows]
            total = int(rl.sum())
            starts = np.concatenate([[0], np.cumsum(rl)[:-1]])
            sel = np.arange(total) + np.repeat(ptr[rows] - starts, rl)  # the rows' nonzeros
            # the batch as a small dense matrix over the features it uses: two BLAS products
            uniq, col = np.unique(ind[sel], return_inverse=True)
            B = np.zeros((len(rows), len(uniq)), np.float32)
            B[np.repeat(np.arange(len(rows)), rl), col] = val[sel]
            Wu = W[uniq]
            Z = B @ Wu + E[rows] @ V + b
            Z -= Z.max(axis=1, keepdims=True)
            P = np.exp(Z)
            P /= P.sum(axis=1, keepdims=True)
            G = (P - onehot[labels[rows]]) / len(rows)
            c1, c2 = 1 - 0.9 ** t, 1 - 0.999 ** t
            g = B.T @ G + L2 * Wu  # lazy Adam on the feature rows this batch touched
            m = mW[uniq] * 0.9 + 0.1 * g
            v = vW[uniq] * 0.999 + 0.001 * g * g
            mW[uniq], vW[uniq] = m, v
            W[uniq] = Wu - LEARNING_RATE * (m / c1) / (np.sqrt(v / c2) + 1e-8)
            for p, g, (m, v) in ((V, E[rows].T @ G + L2 * V, dense[0][1:]), (b, G.sum(axis=0), dense[1][1:])):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= LEARNING_RATE * (m / c1) / (np.sqrt(v / c2) + 1e-8)
    return W, V, b


CACHE_FILE = ".learned.npz"


def _key(texts: list[str], labels: list[int], encoder) -> str:
    h = hashlib.sha256(json.dumps([VERSION, CHAR_N, L2, LEARNING_RATE, BATCH, SEED, encoder.name, encoder.dimension,
                                   texts, labels], ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()[:32]


def training_set(domain) -> tuple[list[str], list[int]]:
    texts, labels = [], []
    for t, tool in enumerate(domain.tools):
        for _, text in tool.examples:
            if text and text.strip():
                texts.append(text)
                labels.append(t)
    return texts, labels


def enough_to_learn(examples: int, tools: int) -> bool:
    """Whether a domain with this many examples over this many tools (with examples) gets a model."""
    return examples >= MIN_EXAMPLES and tools >= MIN_TOOLS and examples >= MIN_PER_TOOL * tools


def train(domain, encoder, *, cache: Path | None = None, force: bool = False) -> LearnedModel | None:
    """The domain's model, from its cache file (`cache`, else beside the domain) when the same
    examples were trained on before; None when the domain has too few examples (or tools with
    examples) to learn from. `force`: trained whatever the count (the dense calibration's model of a
    domain that has one, with an example of each tool held out: routing.semantic.dense_calibration)."""
    texts, labels = training_set(domain)
    tools = np.unique(np.array(labels, dtype=np.int64))
    if not (force and len(tools) >= MIN_TOOLS) and not enough_to_learn(len(texts), len(tools)):
        return None
    column = {int(t): j for j, t in enumerate(tools)}
    y = np.array([column[t] for t in labels], dtype=np.int64)
    min_df = 2 if len(texts) >= 1000 else 1
    blocks = [TfIdf.fit(word_features, texts, 1), CharTfIdf.fit(char_features, texts, min_df)]
    features = Features(blocks, encoder)
    path = cache or Path(domain.root) / CACHE_FILE
    key = _key(texts, labels, encoder)
    try:
        with np.load(path) as z:
            W, V, b = z["W"], z["V"], z["b"]
            if str(z["key"]) != key or W.shape != (features.sparse_dim, len(tools)):
                raise ValueError("trained on other examples")
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):  # none yet, stale or unreadable: train
        with _one_blas_thread():
            W, V, b = _train(features, texts, y, len(tools))
        _save(path, key=np.array(key), W=W, V=V, b=b)
    return LearnedModel(features, W, V, b, tools, len(texts))


def _one_blas_thread():
    """Training does thousands of small matrix products: a multi-threaded BLAS on a busy machine
    spins its threads and runs them up to ten times slower than one thread does."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a requirement; without it training is only slower
        from contextlib import nullcontext

        return nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _save(path: Path, **arrays) -> None:
    """Atomic (routing.core.cachefile): a half-written model is never read, two builds saving at
    once each write their own temporary file, and a read-only or full disk only costs a retrain."""
    write_cache(path, lambda f: np.savez(f, **arrays))
