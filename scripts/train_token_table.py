"""Train the dense list's token table (routing/semantic/data/minilm-tokenlearn/) from our numpy MiniLM.

    python -m routing build-encoder                     # the transformer (once)
    python scripts/train_token_table.py [--work DIR]    # ~20 min on 2 busy cores; DIR keeps the steps

1. Distil: every WordPiece token through the transformer as [CLS] token [SEP], mean-pooled
   (sentence-transformers' pooling): one 384-d vector a token (~1 min).
2. A training corpus that is NOT any evaluation set: random word sequences (2-14 words) drawn
   from wordfreq's top words by frequency^0.4 (English 3 in 4, Indonesian 1 in 4), seeds 1 and 2,
   40,000 each; their transformer sentence vectors are the targets (~7 min per 40,000).
3. Fit (tokenlearn-style, in closed form): the table E minimising
   sum_s || mean of s's token rows - y_s ||^2 + lam || E - E0 ||^2  (E0: step 1's vectors),
   solved by conjugate gradients on the normal equations, all 384 columns at once (scipy.sparse).
   Tokens the corpus never shows keep their step-1 vector.
4. Centre (remove the table's mean row: the common component) and store as int8 with a float
   scale a row (routing.semantic.tokentable.save_table), beside MiniLM's tokenizer.json.
5. Token weights a / (a + p) (SIF; p: the whole-word token's wordfreq frequency, English or
   Indonesian; word pieces 1), a = 0.003, in weights.safetensors (read with the table).
   `--weights-only` writes just this step beside an existing table.

Chosen on HWU64 valid and Seal-Tools dev (cosine alone; README "The dense list"): lam 0.01, 80,000
sentences, a 0.003. scipy comes with scikit-learn (a requirement); routing/ itself needs only numpy.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from routing.semantic import minilm, tokentable  # noqa: E402


def distil(enc: minilm.TransformerEncoder) -> np.ndarray:
    vocab = enc.word.shape[0]
    cls, sep = enc.tokenizer.token_to_id("[CLS]"), enc.tokenizer.token_to_id("[SEP]")
    out = np.zeros((vocab, enc.dimension), np.float32)
    for s in range(0, vocab, 1024):
        ids = np.arange(s, min(vocab, s + 1024))
        x = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], 1)
        out[s:s + len(ids)] = enc._forward(x, np.ones_like(x))
    return out


def corpus(n: int, seed: int) -> list[str]:
    import wordfreq

    rng = np.random.default_rng(seed)

    def lang(code: str, top: int):
        words = [w for w in wordfreq.top_n_list(code, top) if w.isalpha()]
        f = np.array([wordfreq.word_frequency(w, code) for w in words]) ** 0.4
        return words, f / f.sum()

    en, idn = lang("en", 60000), lang("id", 30000)
    out = []
    for _ in range(n):
        words, p = en if rng.random() < 0.75 else idn
        length = int(rng.integers(2, 15))
        out.append(" ".join(words[j] for j in rng.choice(len(words), length, p=p)))
    return out


def design(tokenizer, sents: list[str], vocab: int):
    import scipy.sparse as sp

    rows, cols, vals = [], [], []
    for i, e in enumerate(tokenizer.encode_batch(sents, add_special_tokens=False)):
        for t in e.ids:
            rows.append(i)
            cols.append(t)
            vals.append(1.0 / len(e.ids))
    return sp.csr_matrix((vals, (rows, cols)), shape=(len(sents), vocab))


def fit(a, y: np.ndarray, e0: np.ndarray, lam: float, iters: int = 60) -> np.ndarray:
    """(A^T A + lam I) E = A^T Y + lam E0 by conjugate gradients, every column at once."""
    at = a.T.tocsr()

    def op(x):
        return at @ (a @ x) + lam * x

    b = at @ y + lam * e0
    x = e0.astype(np.float64).copy()
    r = b - op(x)
    p = r.copy()
    rs = (r * r).sum(0)
    for _ in range(iters):
        ap = op(p)
        alpha = rs / np.maximum((p * ap).sum(0), 1e-30)
        x += p * alpha
        r -= ap * alpha
        rn = (r * r).sum(0)
        if np.sqrt(rn.max()) < 1e-6:
            break
        p = r + p * (rn / rs)
        rs = rn
    return x.astype(np.float32)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/tmp/token-table-work", help="keeps each step's output (rerun resumes)")
    ap.add_argument("--sentences", type=int, default=40000, help="per seed")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--lam", type=float, default=0.01)
    ap.add_argument("--out", default=str(tokentable.DEFAULT_TABLE_DIR))
    ap.add_argument("--sif", type=float, default=0.003, help="a of the a / (a + p) token weights (0: none)")
    ap.add_argument("--weights-only", action="store_true", help="only (re)write the token weights beside the table in --out")
    args = ap.parse_args()
    if args.weights_only:
        from tokenizers import Tokenizer

        out = Path(args.out)
        tokentable.save_weights(out, tokentable.sif_weights(Tokenizer.from_file(str(out / "tokenizer.json")), args.sif))
        print(f"wrote {out / tokentable.WEIGHTS_FILE} (a = {args.sif})")
        return 0
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    enc = minilm.dense_encoder()
    if enc is None:
        sys.exit("the transformer is not built: python -m routing build-encoder")
    t0 = time.time()
    raw_path = work / "raw.npy"
    if not raw_path.is_file():
        np.save(raw_path, distil(enc))
    raw = np.load(raw_path)
    print(f"distilled {raw.shape} ({time.time() - t0:.0f} s)", flush=True)
    sents, ys = [], []
    for seed in (int(s) for s in args.seeds.split(",")):
        sp_, yp = work / f"S_{seed}.json", work / f"Y_{seed}.npy"
        if not yp.is_file():
            s = corpus(args.sentences, seed)
            y = np.concatenate([enc.encode(s[i:i + 2000]) for i in range(0, len(s), 2000)])
            sp_.write_text(json.dumps(s), encoding="utf-8")
            np.save(yp, y)
        sents += json.loads(sp_.read_text(encoding="utf-8"))
        ys.append(np.load(yp))
        print(f"corpus seed {seed} ({time.time() - t0:.0f} s)", flush=True)
    tok = enc.tokenizer.__class__.from_file(str(enc.path / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    table = fit(design(tok, sents, raw.shape[0]), np.concatenate(ys), raw, args.lam)
    table -= table.mean(axis=0)
    print(f"fitted ({time.time() - t0:.0f} s)", flush=True)
    out = Path(args.out)
    tmp = out.with_name(out.name + ".building")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    tokentable.save_table(tmp, table, meta={
        "model": "sentence-transformers/all-MiniLM-L6-v2 (numpy, routing.semantic.minilm), sha256 " + enc.sha256,
        "method": "per-token distillation, then tokenlearn-style least squares on wordfreq word sequences, centred",
        "sentences": len(sents), "seeds": args.seeds, "lam": args.lam, "tokens": int(table.shape[0]),
        "dimension": int(table.shape[1]), "storage": "int8 + float32 scale a row", "pooling": "mean",
        "token_weights": f"weights.safetensors: a / (a + p), a = {args.sif}, p from wordfreq (en, id)" if args.sif > 0 else "none",
        "command": "python scripts/train_token_table.py"})
    shutil.copyfile(enc.path / "tokenizer.json", tmp / "tokenizer.json")
    if args.sif > 0:
        tokentable.save_weights(tmp, tokentable.sif_weights(tok, args.sif))
    minilm.swap_folder(tmp, out)
    print(f"wrote {out} ({sum(f.stat().st_size for f in out.iterdir()) / 1e6:.1f} MB, {time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
