"""Cosine alone, three encoders on the same texts: the old static table (model2vec, PCA 128), the
dense list's token table and the MiniLM transformer (when built; its vectors through the per-text
cache). HWU64: the 64 intents known by their names (k0) or also by the first 1 or 3 train questions
(k1, k3; an intent's cosine is its best text's), top-1 / top-3 of the split's questions; Seal-Tools:
the 4,076 tool texts the dense list encodes, top-1 / top-5 of the first 600 questions of the split.

    python scripts/encoder_compare.py [--split valid|test]    # valid pairs with Seal-Tools dev, test with test
"""
import argparse, csv, json, shutil, sys, tempfile, time
from collections import defaultdict
from pathlib import Path
import numpy as np
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from routing.quality.importer import description_for

def rows(p):
    return [(r["text"], r["category"]) for r in csv.DictReader(open(p, encoding="utf-8-sig"))]

def build_sets(split='valid', seal_split='dev'):
    from routing.quality.zero_shot import default_data
    DATA = default_data().parent
    train = rows(DATA/'hwu64/train.csv'); ev = rows(DATA/f'hwu64/{split}.csv')
    labels = sorted({c for _, c in train})
    by = defaultdict(list)
    for t, c in train:
        if len(by[c]) < 3: by[c].append(t)
    from routing.quality.zero_shot import seal_tools_as_openai, load_questions
    from routing.quality.tool_import import import_tool_catalog
    from routing.core.lexicon import load_domain
    from routing.semantic.dense import tool_texts
    tmp = Path(tempfile.mkdtemp()); shutil.copytree(ROOT / 'lexicons' / '_shared', tmp / '_shared')
    (tmp/'c.json').write_text(json.dumps(seal_tools_as_openai(DATA/'seal-tools/tool.jsonl')))
    import_tool_catalog(tmp/'c.json', 'zs', root=tmp)
    dom = load_domain('zs', tmp)
    st, owners = tool_texts(dom)
    names = [t.name for t in dom.tools]
    qs = load_questions(DATA/'seal-tools', seal_split)
    s = {'labels': labels, 'descs': [description_for(c) for c in labels], 'ex': [by[c] for c in labels],
         'hq': [q for q, _ in ev], 'hgold': [labels.index(c) for _, c in ev],
         'stexts': st, 'sowners': owners, 'sq': [q for q, _ in qs[:600]], 'sgold': [names.index(g) for _, g in qs[:600]]}
    return s

def transformer():
    from routing.semantic.minilm import dense_encoder
    from routing.semantic.encoders import CachedEncoder
    enc = dense_encoder()
    class K:
        name = f"{enc.name}@{enc.sha256[:16]}"; dimension = enc.dimension; encode = staticmethod(enc.encode)
    return CachedEncoder(K())

def topk(S, owners, n, gold, ks):
    best = np.full((S.shape[0], n), -9.0, np.float32)
    for j, o in enumerate(owners):
        best[:, o] = np.maximum(best[:, o], S[:, j])
    order = np.argsort(-best, axis=1)
    g = np.array(gold)[:, None]
    return [round(float((order[:, :k] == g).any(1).mean()) * 100, 1) for k in ks]

def evaluate(enc, s, seal=True):
    out = {}
    Q = enc.encode(s['hq'])
    for k in (0, 1, 3):
        texts, own = [], []
        for i, (d, ex) in enumerate(zip(s['descs'], s['ex'])):
            for t in [d] + ex[:k]:
                texts.append(t); own.append(i)
        D = enc.encode(texts)
        out[f'hwu_k{k}'] = topk(Q @ D.T, own, len(s['labels']), s['hgold'], (1, 3))
    if seal:
        D = enc.encode(s['stexts']); Q = enc.encode(s['sq'])
        out['seal'] = topk(Q @ D.T, s['sowners'], max(s['sowners']) + 1, s['sgold'], (1, 5))
    return out

def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", choices=("valid", "test"), default="valid")
    args = ap.parse_args()
    s = build_sets(args.split, "dev" if args.split == "valid" else "test")
    from routing.semantic.encoders import StaticEncoder
    from routing.semantic.minilm import dense_encoder
    from routing.semantic.tokentable import token_table
    out = {"split": args.split, "old_static": evaluate(StaticEncoder(), s), "token_table": evaluate(token_table(), s)}
    if dense_encoder() is not None:
        out["transformer"] = evaluate(transformer(), s)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
