"""The dense list's default encoder: a token table learned from our numpy MiniLM, shipped in the repo.

A text's vector is the mean of its WordPiece tokens' rows (MiniLM's own tokenizer), L2-normalised:
~20 us a question, a 4,076-tool catalog in well under a second, no transformer at run time.

The table (`routing/semantic/data/minilm-tokenlearn/`, made once by `python scripts/train_token_table.py`
with the built transformer, see there) was fitted so that the mean of a text's token rows matches
the transformer's sentence vector, on random word sequences drawn from wordfreq (English and
Indonesian; no evaluation data set), starting from each token's own transformer vector
([CLS] token [SEP], mean-pooled), then each whole-word token's row weighted a / (a + p), p its
wordfreq frequency (English or Indonesian, the larger; a = 0.003), in `weights.safetensors`. Stored as int8 with one float scale a row (11.8 MB for 30,522
tokens x 384), rounded to float16 and held in memory as float32 (47 MB: read without a conversion).

Loaded once per process (`token_table()`); `name` names the table and `sha256` its file, so a cache
of vectors made with it (the dense list's `.dense.npz`, the per-text SQLite cache) is never read
for another encoder.
"""
from __future__ import annotations

import hashlib
import json
import re
import threading
from pathlib import Path
from typing import Sequence

import numpy as np

TABLE_NAME = "minilm-tokenlearn"
DEFAULT_TABLE_DIR = Path(__file__).with_name("data") / TABLE_NAME
TABLE_FILE = "table.safetensors"
WEIGHTS_FILE = "weights.safetensors"  # optional: one weight a token (SIF a / (a + p(word)) from wordfreq)


def load_table(path: Path) -> np.ndarray:
    """The float32 table from `table.safetensors`: `table` (int8 or float) times `scale` (one a row)
    if given, times `weights.safetensors`' `weight` (one a token) where that file is there."""
    from safetensors.numpy import load_file

    t = load_file(str(path / TABLE_FILE))
    table = np.asarray(t["table"], dtype=np.float32)
    if "scale" in t:
        table *= np.asarray(t["scale"], dtype=np.float32).reshape(-1, 1)
    if (path / WEIGHTS_FILE).is_file():
        w = np.asarray(load_file(str(path / WEIGHTS_FILE))["weight"], dtype=np.float32)
        if w.shape != (table.shape[0],):
            raise ValueError(f"{path / WEIGHTS_FILE}: {w.shape[0]} weights for {table.shape[0]} tokens")
        table *= w.reshape(-1, 1)
    return table


def sif_weights(tokenizer, a: float = 0.003) -> np.ndarray:
    """a / (a + p) a token: p the wordfreq frequency of a whole-word token (English or Indonesian,
    the larger); word pieces (##...) and special tokens get 1."""
    import wordfreq

    vocab = tokenizer.get_vocab()
    w = np.ones(len(vocab), dtype=np.float32)
    for tok, i in vocab.items():
        if tok.startswith("##") or tok.startswith("["):
            continue
        p = max(wordfreq.word_frequency(tok, "en"), wordfreq.word_frequency(tok, "id"))
        w[i] = a / (a + p)
    return w


def save_weights(path: Path, weights: np.ndarray) -> None:
    from safetensors.numpy import save_file

    save_file({"weight": np.asarray(weights, dtype=np.float32)}, str(path / WEIGHTS_FILE))
    (path / WEIGHTS_FILE).chmod(0o644)


def save_table(path: Path, table: np.ndarray, *, meta: dict) -> None:
    """Write `table` as int8 rows with a float32 scale each (max |x| / 127) and config.json with
    `meta` into `path` (the caller copies the tokenizer and renames the folder into place).
    int8 lost nothing measurable against float32 (HWU64 valid, Seal-Tools dev: same top-1/top-3)."""
    from safetensors.numpy import save_file

    table = np.asarray(table, dtype=np.float32)
    scale = np.abs(table).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(table / scale[:, None]), -127, 127).astype(np.int8)
    save_file({"table": q, "scale": scale.astype(np.float32)}, str(path / TABLE_FILE))
    (path / TABLE_FILE).chmod(0o644)
    (path / "config.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")


class TokenTableEncoder:
    """Mean of the text's token rows, L2-normalised. Words are tokenised one at a time, their ids
    kept in a bounded cache (WordPiece splits each word on its own, so the ids are the whole
    text's)."""

    WORD = re.compile(r"\w+|[^\w\s]")
    CACHE = 200_000

    def __init__(self, path: str | Path | None = None):
        from tokenizers import Tokenizer

        path = Path(path) if path else DEFAULT_TABLE_DIR
        if not (path / TABLE_FILE).is_file():
            raise FileNotFoundError(f"no token table at {path} (python scripts/train_token_table.py makes it)")
        # The float16 values (the vectors' numbers), held as float32 (47 MB): a question's rows are read
        # with one take, no conversion (in a route, the float16 rows through a 65,536-entry float32 table
        # cost ~55-90 us more a question, most of it cache misses of the conversion).
        self.table = load_table(path).astype(np.float16).astype(np.float32)
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        self.dimension = int(self.table.shape[1])
        self.name = f"static:{path.name}"
        self.kind = "static"
        self.path = path
        h = hashlib.sha256()
        for name in (TABLE_FILE, WEIGHTS_FILE):  # the vectors depend on both
            if (path / name).is_file():
                with open(path / name, "rb") as f:
                    for chunk in iter(lambda: f.read(1 << 20), b""):
                        h.update(chunk)
        self.sha256 = h.hexdigest()
        self._ids: dict[str, list[int]] = {}
        self._lock = threading.Lock()
        self._last: tuple[str, np.ndarray] | None = None
        self._pieces = _plain_wordpiece(self.tokenizer)

    def _word_ids(self, word: str) -> list[int]:
        ids = self._ids.get(word)
        if ids is None:
            pieces = self._pieces
            if pieces is not None and word.isascii() and word.isalnum():
                ids = _wordpiece(word.lower(), *pieces)  # the tokenizer's own ids (see _plain_wordpiece)
            else:
                ids = self.tokenizer.encode(word, add_special_tokens=False).ids
            if len(self._ids) < self.CACHE:
                with self._lock:
                    self._ids[word] = ids
        return ids

    def token_ids(self, text: str) -> list[int]:
        out: list[int] = []
        known = self._ids.get  # the cache read inline: a method call a word cost a third of the question's encoding
        for w in self.WORD.findall(text or ""):
            ids = known(w)
            out += ids if ids is not None else self._word_ids(w)
        return out

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        last = self._last
        if len(texts) == 1 and last is not None and last[0] == texts[0]:
            return last[1].copy()
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            ids = self.token_ids(text)
            if ids:  # table[ids].sum(axis=0): the rows added in order, in float32
                out[i] = np.add.reduce(self.table.take(ids, axis=0), axis=0)
        norms = np.sqrt(np.add.reduce(out * out, axis=1, keepdims=True))  # np.linalg.norm's own sums, without its checks
        norms[norms == 0] = 1.0
        out /= norms
        if len(texts) == 1 and isinstance(texts[0], str):
            self._last = (texts[0], out.copy())
        return out


def _plain_wordpiece(tokenizer) -> tuple[dict, str, int, int] | None:
    """(vocabulary, continuing prefix, longest word, unknown id) where the tokenizer is BERT's plain
    WordPiece (BertNormalizer lowercasing, BertPreTokenizer, WordPiece), else None. A word of ASCII
    letters and digits then passes the normaliser as its lower case and the pre-tokenizer whole (no
    space, punctuation, accent, control or CJK character), and its ids are WordPiece's greedy longest
    match (_wordpiece): a question's new words (numbers, names, codes) without a call into the
    tokenizer (Seal-Tools dev's words: ~15 against ~45 us a word on a loaded machine; a new question
    has one or two). tests/test_scoring_speedups.py compares the two on the shipped domains' words,
    common words of the languages and made-up ones (and on Seal-Tools' 300,000 words when written: 0 differ)."""
    try:
        conf = json.loads(tokenizer.to_str())
    except (AttributeError, TypeError, ValueError):
        return None
    norm, pre, model = conf.get("normalizer") or {}, conf.get("pre_tokenizer") or {}, conf.get("model") or {}
    if (norm.get("type") != "BertNormalizer" or not norm.get("lowercase") or pre.get("type") != "BertPreTokenizer"
            or model.get("type") != "WordPiece" or not isinstance(model.get("vocab"), dict)):
        return None
    if any(t.get("content", "").isascii() and t.get("content", "").isalnum() for t in conf.get("added_tokens") or ()):
        return None  # an added token could match a plain word before the model
    vocab = model["vocab"]
    unk = vocab.get(model.get("unk_token"))
    if unk is None:
        return None
    return vocab, model.get("continuing_subword_prefix") or "", int(model.get("max_input_chars_per_word", 100)), unk


def _wordpiece(word: str, vocab: dict, prefix: str, longest: int, unk: int) -> list[int]:
    """WordPiece's ids of one pre-tokenized word: the longest known piece from the start, then from
    where it ends (a later piece with the continuing prefix); one unknown id for a word longer than
    `longest` characters or with a part no piece covers."""
    n = len(word)
    if n > longest:
        return [unk]
    out: list[int] = []
    start = 0
    while start < n:
        head = prefix if start else ""
        for end in range(n, start, -1):
            i = vocab.get(head + word[start:end])
            if i is not None:
                out.append(i)
                start = end
                break
        else:
            return [unk]
    return out


_SHARED: dict[str, TokenTableEncoder | None] = {}


def token_table(path: Path | None = None) -> TokenTableEncoder | None:
    """The shipped table, shared per process; None when its folder is missing (a broken checkout)."""
    path = Path(path) if path else DEFAULT_TABLE_DIR
    key = str(path)
    if key not in _SHARED:
        _SHARED[key] = TokenTableEncoder(path) if (path / TABLE_FILE).is_file() else None
    return _SHARED[key]
