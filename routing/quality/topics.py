"""Topics of what is not covered: the not_found and weak questions of a coverage run, grouped by
meaning, named by their distinctive words, each with the fix that would cover it.

1. The distinct questions (case folded) are embedded with the domain's encoder (routing.semantic:
   the router's own, else the default static MiniLM table).
2. At most `MAX_SAMPLE` questions of the traffic (repeats included) are grouped by scikit-learn's
   AgglomerativeClustering (Ward linkage on the unit vectors, cut at `DISTANCE`); groups smaller
   than `min_size` are dissolved. Every distinct question is then given to the nearest topic centre when it is within `ASSIGN` cosine (the
   sample's members keep their group), so a million lines cost one embedding each, never a
   million-square distance matrix.
3. Each topic is named by class-based TF-IDF (as BERTopic): a topic's word counts over the words'
   counts in all topics, weighted log(1 + average words per topic / the word's count). Stop words
   come from lexicons/_shared/words.yaml (every language), never from code.
4. The fix: the nearest tool (cosine of the topic centre to the tool's examples' centre) when it is
   at least `NEAR_TOOL` alike, with the words the lexicon does not know (most frequent first) to
   add as synonyms and the most typical questions to add as examples; else "a new tool".
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

LINKAGE = "ward"  # average linkage chained Banking77's uncovered questions into one topic of 84 %
MAX_SAMPLE = 4000  # questions clustered (agglomerative clustering is quadratic in memory)
# Ward distance at which groups stop merging (unit vectors). Chosen on Banking77's *train* split
# routed by a half-intent domain (49 topics for 38 unknown intents, none over 9 % of the
# questions); the figures in the README are on its test split.
DISTANCE = 2.5
ASSIGN = 0.55  # cosine to a topic centre for a question outside the sample to join it
NEAR_TOOL = 0.75  # cosine of a topic centre to a tool's centre to call that tool near
MAX_TOPICS = 200  # listed in the summary (the rest counted as "other")
EXAMPLES = 5
WORDS = 6


@dataclass
class Grouping:
    labels: np.ndarray  # topic index per distinct text, -1 for none
    centres: np.ndarray  # one L2-normalised row per topic
    vectors: np.ndarray  # the distinct texts' embeddings


def shared_stopwords(root: str | Path) -> list[str]:
    """Every language's stop words of lexicons/_shared/words.yaml (a phrase adds each of its words)."""
    import yaml

    path = Path(root) / "_shared" / "words.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError:
        return []
    words: set[str] = set()
    for lang in data.values():
        if isinstance(lang, dict):
            for w in lang.get("stopwords") or []:
                words.update(str(w).casefold().split())
    return sorted(words)


def domain_encoder(router):
    """The encoder the router embeds with (its semantic index's), else the default one."""
    enc = getattr(router, "encoder", None)
    if enc is not None and not hasattr(enc, "encode"):  # a semantic index holding the encoder
        enc = getattr(enc, "encoder", None)
    if enc is None or not hasattr(enc, "encode"):
        from routing.semantic.encoders import get_encoder

        enc = get_encoder()
    return enc


def group(texts: list[str], weights: list[int], encoder, *, min_size: int | None = None, seed: int = 0) -> Grouping:
    """Cluster distinct texts (see the module doc). `weights`: how often each was asked."""
    from sklearn.cluster import AgglomerativeClustering

    n = len(texts)
    vectors = np.asarray(encoder.encode(texts), dtype=np.float32) if n else np.zeros((0, 1), np.float32)
    labels = np.full(n, -1, dtype=np.int64)
    if n < 2:
        return Grouping(labels, np.zeros((0, vectors.shape[1]), np.float32), vectors)
    rng = np.random.default_rng(seed)
    # The sample is of the traffic, repeats included (a question asked 50 times weighs 50): Ward
    # keeps big groups apart and merges small ones, so volume is what makes a topic.
    w = np.asarray(weights, dtype=np.int64)
    total = int(w.sum())
    draws = rng.choice(n, size=MAX_SAMPLE, replace=True, p=w / total) if total > MAX_SAMPLE else np.repeat(np.arange(n), w)
    draws = np.sort(draws)
    if LINKAGE == "ward":
        model = AgglomerativeClustering(n_clusters=None, distance_threshold=DISTANCE, linkage="ward")
    else:
        model = AgglomerativeClustering(n_clusters=None, distance_threshold=DISTANCE, metric="cosine", linkage=LINKAGE)
    raw = model.fit_predict(vectors[draws])
    min_size = min_size or max(3, int(math.ceil(0.003 * len(draws))))
    sizes = Counter(int(x) for x in raw)
    kept = [lab for lab, c in sizes.most_common() if c >= min_size]
    if not kept:
        return Grouping(labels, np.zeros((0, vectors.shape[1]), np.float32), vectors)
    remap = {lab: k for k, lab in enumerate(kept)}
    centres = np.zeros((len(kept), vectors.shape[1]), dtype=np.float32)
    for i, lab in zip(draws, raw):
        k = remap.get(int(lab))
        if k is not None:
            labels[i] = k
            centres[k] += vectors[i]
    centres /= np.maximum(np.linalg.norm(centres, axis=1, keepdims=True), 1e-9)
    # Everything else (outside the sample, or in a dissolved group) joins its nearest centre if near.
    rest = np.where(labels < 0)[0]
    for s in range(0, len(rest), 20000):
        idx = rest[s:s + 20000]
        sims = vectors[idx] @ centres.T
        best = sims.argmax(axis=1)
        ok = sims[np.arange(len(idx)), best] >= ASSIGN
        labels[idx[ok]] = best[ok]
    return Grouping(labels, centres, vectors)


def ctfidf_words(docs: list[list[tuple[str, int]]], stopwords: list[str], top: int = WORDS) -> list[list[str]]:
    """Class-based TF-IDF: per topic (a list of (text, weight)), its most distinctive words."""
    from sklearn.feature_extraction.text import CountVectorizer

    if not docs:
        return []
    vec = CountVectorizer(stop_words=stopwords or None, token_pattern=r"(?u)\b[^\W\d_]{2,}\b", lowercase=True)
    flat = [t for d in docs for t, _ in d]
    try:
        x = vec.fit_transform(flat)
    except ValueError:  # only stop words
        return [[] for _ in docs]
    weights = np.asarray([w for d in docs for _, w in d], dtype=np.float64)
    owner = np.repeat(np.arange(len(docs)), [len(d) for d in docs])
    counts = np.zeros((len(docs), x.shape[1]))
    x = x.tocoo()
    np.add.at(counts, (owner[x.row], x.col), x.data * weights[x.row])
    tf = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
    avg = counts.sum() / len(docs)
    idf = np.log(1.0 + avg / np.maximum(counts.sum(axis=0), 1.0))
    scores = tf * idf
    vocab = np.asarray(vec.get_feature_names_out())
    out = []
    for row in scores:
        order = np.argsort(-row, kind="stable")[:top]
        out.append([str(vocab[i]) for i in order if row[i] > 0])
    return out


def tool_centres(router, encoder) -> tuple[list[str], np.ndarray]:
    names, rows = [], []
    for tool in router.domain.tools:
        texts = [t for _, t in tool.examples] or [tool.description or tool.name]
        v = np.asarray(encoder.encode(texts), dtype=np.float32).mean(axis=0)
        rows.append(v / max(float(np.linalg.norm(v)), 1e-9))
        names.append(tool.name)
    return names, (np.stack(rows) if rows else np.zeros((0, 1), np.float32))


def suggest_fix(router, centre: np.ndarray, words: list[str], unknown: Counter, examples: list[str], tools: tuple[list[str], np.ndarray]) -> dict:
    """The nearest tool and what to add to it, or a new tool (see the module doc)."""
    from routing.quality.gaps import editor_prefill, nearest_term, synonym_forms

    names, matrix = tools
    add_words = [w for w, _ in unknown.most_common(5)] or words[:3]
    best, sim = None, 0.0
    if len(names):
        sims = matrix @ centre
        i = int(np.argmax(sims))
        best, sim = names[i], float(sims[i])
    query = examples[0] if examples else ""
    gap = nearest_term(add_words[0], synonym_forms(router)) if add_words else None
    near = best is not None and sim >= NEAR_TOOL
    canonical = None
    if near:  # the word goes under a canonical term the near tool is about
        tool = router.domain.tool(best)
        known = {c for c, _ in router.domain.synonyms}
        canonical = next((k for k in (tool.keywords if tool else ()) if k in known), None)
    canonical = canonical or (gap.canonical if gap else None)
    prefill = editor_prefill(router.domain.name, query, gap, canonical)
    if near:
        said = ", ".join(f"“{w}”" for w in add_words[:3])
        return {"kind": "tool", "tool": best, "similarity": round(sim, 3), "words": add_words, "examples": examples[:3],
                "summary": f"add {said} to {best} as synonyms, and these questions as its examples", "prefill": prefill}
    return {"kind": "new_tool", "tool": best, "similarity": round(sim, 3), "words": add_words, "examples": examples[:3],
            "summary": f"a new tool (nearest: {best}, {sim:.2f} alike)" if best else "a new tool", "prefill": prefill}


def build_topics(router, rows: dict[str, list], *, period: str = "day", total_rows: int | None = None, root: str | Path | None = None) -> tuple[list[dict], np.ndarray]:
    """Topics of the uncovered rows (columns text, status, day, label, unknown_words, top).
    Returns the topics (largest first) and each row's topic id (-1: none)."""
    from routing.quality.coverage_summary import period_of

    texts = rows["text"]
    keys = [t.casefold().strip() for t in texts]
    distinct: dict[str, int] = {}
    first: list[int] = []
    for i, k in enumerate(keys):
        if k not in distinct:
            distinct[k] = len(first)
            first.append(i)
    weights = Counter(distinct[k] for k in keys)
    uniq = [texts[i] for i in first]
    w = [weights[j] for j in range(len(uniq))]
    encoder = domain_encoder(router)
    g = group(uniq, w, encoder)
    row_topic = np.asarray([g.labels[distinct[k]] for k in keys], dtype=np.int64)
    n_topics = len(g.centres)
    stop = shared_stopwords(root or router.domain.root.parent)
    docs = [[] for _ in range(n_topics)]
    for j, lab in enumerate(g.labels):
        if lab >= 0:
            docs[lab].append((uniq[j], w[j]))
    words = ctfidf_words(docs, stop)
    tools = tool_centres(router, encoder)
    n_uncovered = len(texts)
    topics = []
    for k in range(n_topics):
        members = np.where(row_topic == k)[0]
        size = len(members)
        uniq_members = np.where(g.labels == k)[0]
        sims = g.vectors[uniq_members] @ g.centres[k]
        examples = [uniq[j] for j in uniq_members[np.argsort(-sims, kind="stable")][:EXAMPLES]]
        unknown = Counter(u for i in members for u in (rows["unknown_words"][i] or "").split())
        trend = Counter(period_of(rows["day"][i], period) for i in members if rows["day"][i])
        tiers = Counter(rows["status"][i] for i in members)
        labels = Counter(rows["label"][i] for i in members if rows["label"][i])
        topic = {
            "id": k,
            "name": " · ".join(words[k][:3]) if words[k] else examples[0][:40],
            "words": words[k],
            "size": size,
            "share": round(size / n_uncovered, 4) if n_uncovered else 0.0,
            "share_all": round(size / total_rows, 5) if total_rows else None,
            "tiers": dict(tiers),
            "trend": [{"period": p, "n": trend[p]} for p in sorted(trend)],
            "examples": examples,
            "fix": suggest_fix(router, g.centres[k], words[k], unknown, examples, tools),
        }
        if labels:
            topic["labels"] = dict(labels.most_common(3))
        topics.append(topic)
    topics.sort(key=lambda t: -t["size"])
    new_id = {t["id"]: i for i, t in enumerate(topics)}
    for t in topics:
        t["id"] = new_id[t["id"]]
    row_topic = np.asarray([new_id.get(int(x), -1) for x in row_topic], dtype=np.int64)
    return topics, row_topic


def topics_for_run(out: str | Path, router, summary: dict) -> dict:
    """Topics of a finished run folder: read its uncovered rows, group them, write topics.parquet
    (row -> topic) and return the summary's topic fields."""
    import os

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from routing.quality.coverage_run import _load_manifest, iter_parts
    from routing.quality.coverage_summary import UNCOVERED

    out = Path(out)
    manifest = _load_manifest(out)
    cols = ["row", "text", "status", "day", "label", "unknown_words", "top"]
    tables = []
    for table in iter_parts(out, manifest, columns=cols):
        tables.append(table.filter(pc.is_in(table["status"], value_set=pa.array(list(UNCOVERED)))))
    table = pa.concat_tables(tables) if tables else pa.table({c: [] for c in cols})
    rows = {c: table[c].to_pylist() for c in cols}
    if not rows["text"]:
        return {"topics": [], "topics_other": 0}
    topics, row_topic = build_topics(router, rows, period=summary["over_time"]["period"], total_rows=summary["rows"])
    tmp = out / ".topics.parquet.tmp"
    pq.write_table(pa.table({"row": rows["row"], "topic": row_topic.tolist()}), tmp)
    os.replace(tmp, out / "topics.parquet")
    listed = topics[:MAX_TOPICS]
    return {
        "topics": listed,
        "topics_other": int(len(rows["text"]) - sum(t["size"] for t in listed)),
        "topics_method": {"clustering": f"agglomerative ({LINKAGE})", "distance": DISTANCE, "assign": ASSIGN,
                          "sample": MAX_SAMPLE, "encoder": getattr(domain_encoder(router), "name", "?"), "naming": "c-TF-IDF"},
    }
