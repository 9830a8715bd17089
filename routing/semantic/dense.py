"""The dense list: a domain's tools ranked by an encoder's cosine to the question, fused with the
lexical list by z-scores (Router.score), for domains with few examples.

Which encoder (`dense_encoder` in a domain's settings.yaml): `static` (the default) is the token
table learned from our MiniLM and shipped in the repo (routing.semantic.tokentable: ~20 us a
question, a 4,076-tool catalog encoded in about a second); `transformer` is the real MiniLM
(routing.semantic.minilm, built by `python -m routing build-encoder`: ~15-30 ms a question, minutes
for a large catalog's first encoding; a few points better). A domain asking for the transformer
where it is not built gets the table, and describe() says which encoder carried and why.
ROUTING_DENSE_ENCODER sets the default for domains that do not say (benchmarks compare the two).

Which domains: decided by data, never by name. A domain whose tools have on average fewer than
DENSE_MAX_PER_TOOL example questions (a catalog known by its descriptions, a few-shot domain)
gets the dense list (from the shipped token table: no build step); a domain with
plenty of examples keeps its lexical and learned signals alone (they beat the dense retrievers
there: CLINC150, Banking77). `dense: false` in a domain's settings turns it off; `dense: true`
turns it on whatever the examples; ROUTING_DENSE=off turns it off everywhere, and describe() says so.

Each tool is known by one text (its name's words, description and parameters: routing.core.enrich)
plus each of its example questions; a tool's cosine is its best text's. The tool vectors are
encoded once and cached beside the domain (`.dense.npz`, keyed by the encoder's name, its weights
and the texts), so only the first build of a catalog pays the encoder (4,076 tools: about a second
with the table, minutes with the transformer on a busy 2-core machine); the question is encoded
once per route.
"""
from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from routing.core.calibration import known_share, knows_a_word  # noqa: F401  (one count, shared)

from routing.core.cachefile import write_cache
from routing.core.enrich import tool_documents
from routing.semantic.dense_topk import TopRows

VERSION = 1
# Examples per tool (on average) below this: the dense list is fused in. Measured at 0, 1 and 3
# examples per intent (HWU64: +10-20 points top-1); the shipped tools domains (5.8-7.4 a tool) keep
# their tuned lexical routing, and Banking77-size imports their learned model.
DENSE_MAX_PER_TOOL = 4.0
DEPTH = 20  # how many of each list take part in the fusion
# Which list leads, per catalog (FusionPolicy, chosen at build by routing.semantic.dense_calibration
# from the synthetic questions it makes anyway: no labelled question). Lexical-led: the lexical list
# weighs 1 and the dense list WEIGHT_LEXICAL_LED (Seal-Tools: questions written with the descriptions'
# words, a 4,076-tool catalog where the token table is 11 points below BM25F). Dense-led: the dense list
# weighs WEIGHT_DENSE_LED, the lexical list the share of the question's content words the catalog knows
# (a question in words the catalog never uses is the dense list's alone). Between the two, by how close
# the dense list comes to the lexical one on pseudo-questions made of the tools' own words, which favour
# the lexical list: at or below RATIO_LEXICAL the lexical list leads, at or above RATIO_DENSE the dense
# list, log-linear between. Chosen on dev sets (HWU64 valid, Banking77 odd test rows, Seal-Tools dev,
# `python scripts/fusion_study.py`): README "Fusion: which list leads".
WEIGHT_LEXICAL_LED = 0.3
WEIGHT_DENSE_LED = 5.0
RATIO_LEXICAL = 0.7
RATIO_DENSE = 0.9
MIN_FRAGMENTS = 10  # fewer pseudo-questions than this to judge by: the domain's examples decide (dense-led with some)
CAP_OF_MEDIUM = 0.8  # the dense list alone gives at most 0.8 x the domain's `medium` (Router.dense_cap)
# The dense value of a cosine: 0 at or below FLOOR (unrelated texts: MiniLM gives -0.1..0.15), rising
# linearly to 1 at CEILING (a question and its tool's description rarely pass 0.65).
FLOOR = 0.15
CEILING = 0.65
CACHE_FILE = ".dense.npz"


@dataclass(frozen=True)
class Fusion:
    """One question's two lists and their fusion: (tool, lexical sum) and (tool, cosine), best
    first; the fused z-score of each tool in either list; the tools in fused order, best first."""
    lexical: list[tuple[int, float]]
    ranked: list[tuple[int, float]]
    fused: dict[int, float]
    order: list[int]
    known: float = 1.0  # the share of the question's content words the catalog knows (known_share)
    knows_word: bool = True  # whether it knows a term or literal of it (knows_a_word): the floor's condition


@dataclass(frozen=True)
class FusionPolicy:
    """How the two lists are fused: the dense list's weight, and how far the lexical list's weight
    follows the question's known share (0: always 1; 1: equal to it). `lead` in [0, 1]: 0 lexical-led,
    1 dense-led; `why`: how it was chosen."""
    lead: float
    why: str = ""
    fragments: int = 0  # pseudo-questions it was judged on, and each list's top-1 there
    lexical_top1: float | None = None
    dense_top1: float | None = None

    @property
    def dense_weight(self) -> float:
        return round(WEIGHT_LEXICAL_LED * (WEIGHT_DENSE_LED / WEIGHT_LEXICAL_LED) ** self.lead, 4)

    def lexical_weight(self, known: float) -> float:
        return max(known, 0.0) ** self.lead

    def fuse(self, lexical, ranked, known: float) -> dict[int, float]:
        return zfuse([(self.lexical_weight(known), lexical), (self.dense_weight, ranked)])

    def to_dict(self) -> dict:
        return {"lead": round(self.lead, 4), "dense_weight": self.dense_weight, "why": self.why, "fragments": self.fragments,
                "lexical_top1": self.lexical_top1, "dense_top1": self.dense_top1}

    @classmethod
    def from_dict(cls, d: dict) -> "FusionPolicy":
        return cls(lead=float(d["lead"]), why=str(d.get("why", "")), fragments=int(d.get("fragments", 0)),
                   lexical_top1=d.get("lexical_top1"), dense_top1=d.get("dense_top1"))

    def describe(self) -> str:
        lexical = "1" if self.lead == 0 else ("the share of the question's words the catalog knows" if self.lead == 1
                                              else f"the share of the question's words the catalog knows ^ {self.lead:.2f}")
        return (f"z-scores summed: each list's best {DEPTH} scores standardised, the dense list weighted {self.dense_weight}, "
                f"the lexical list {lexical}; a tool missing from a list counted at its lowest. {self.why}")


def default_policy(domain) -> FusionPolicy:
    """Before the synthetic questions are routed (or where they are not: a labelled calibration), by
    what the domain has: with example questions the dense list compares a question with questions
    (HWU64, Banking77 with 1-3 examples: it leads on every set); with descriptions only, the lexical list."""
    if any(t.examples for t in domain.tools):
        return FusionPolicy(1.0, "The tools have example questions (a question compared with questions): the dense list leads.")
    return FusionPolicy(0.0, "Descriptions only, not judged on synthetic questions: the lexical list leads.")


def choose_policy(fragments: int, lexical_right: int, dense_right: int, fallback: FusionPolicy) -> FusionPolicy:
    """Which list leads, from pseudo-questions made of the tools' own words (`fragments` of them, each
    list's top-1 alone right `lexical_right` / `dense_right` times): such questions favour the lexical
    list, so the dense list leads where it comes within RATIO_DENSE of it even there."""
    if fragments < MIN_FRAGMENTS:
        return replace(fallback, why=fallback.why + f" (only {fragments} pseudo-questions to judge by)")
    ratio = dense_right / lexical_right if lexical_right else float("inf")
    lead = min(max((ratio - RATIO_LEXICAL) / (RATIO_DENSE - RATIO_LEXICAL), 0.0), 1.0) if math.isfinite(ratio) else 1.0
    who = "the dense list leads" if lead == 1 else "the lexical list leads" if lead == 0 else "between the two"
    return FusionPolicy(round(lead, 4), (f"On {fragments} pseudo-questions made of the tools' own words the dense list alone "
                                         f"ranks {dense_right} first against the lexical list's {lexical_right} "
                                         f"(ratio {ratio:.2f}; lexical-led at {RATIO_LEXICAL} or below, dense-led at "
                                         f"{RATIO_DENSE} or above): {who}."),
                        fragments, round(lexical_right / fragments, 4), round(dense_right / fragments, 4))


def refuse(f: Fusion, policy: FusionPolicy, names) -> Fusion:
    """The same two lists fused under another policy."""
    fused = policy.fuse(f.lexical, f.ranked, f.known)
    return Fusion(lexical=f.lexical, ranked=f.ranked, fused=fused, order=fused_order(fused, names), known=f.known,
                  knows_word=f.knows_word)


def fused_order(fused: dict[int, float], names) -> list[int]:
    """Best fused score first (to 9 decimals), then by name (names differ: no two keys are equal).
    Sorted by the score itself, then re-sorted by the rounded score only within runs closer than
    2e-9 (round is monotone, and scores further apart round apart): most questions round none."""
    ranked = sorted([(-z, names[t].name, t) for t, z in fused.items()])
    if ranked and not max(abs(ranked[0][0]), abs(ranked[-1][0])) < 1e6:  # doubles there are further apart than 1e-9
        return [t for _, _, t in sorted([(-round(-z, 9), name, t) for z, name, t in ranked])]
    out: list[int] = []
    i, n = 0, len(ranked)
    while i < n:
        j = i + 1
        while j < n and ranked[j][0] - ranked[j - 1][0] <= 2e-9:
            j += 1
        if j == i + 1:
            out.append(ranked[i][2])
        else:
            out += [t for _, _, t in sorted([(-round(-z, 9), name, t) for z, name, t in ranked[i:j]])]
        i = j
    return out


def wants_dense(domain) -> bool:
    """Whether this domain's data calls for the dense list (the settings may say so outright)."""
    setting = domain.settings.extra.get("dense")
    if setting is not None:
        return bool(setting)
    tools = [t for t in domain.tools]
    if not tools:
        return False
    examples = sum(len(t.examples) for t in tools)
    return examples < DENSE_MAX_PER_TOOL * len(tools)


def tool_texts(domain) -> tuple[list[str], list[int]]:
    texts, owners = [], []
    for t, tool in enumerate(domain.tools):
        docs = tool_documents(tool)
        whole = " ; ".join(docs) if docs else tool.name
        for text in [whole, *(e for _, e in tool.examples)]:
            if text and text.strip():
                texts.append(text)
                owners.append(t)
    return texts, owners


class DenseList:
    def __init__(self, domain, encoder, *, cache: Path | None = None, why: str = ""):
        self.encoder = encoder
        self.why = why
        texts, owners = tool_texts(domain)
        self.texts = texts
        self.owners = np.array(owners, dtype=np.int64)
        self.n_tools = len(domain.tools)
        digest = hashlib.sha256(json.dumps([VERSION, encoder.name, getattr(encoder, "sha256", ""), texts],
                                           ensure_ascii=False).encode("utf-8")).hexdigest()[:32]
        key = f"{encoder.name}:{digest}"  # the key names the encoder: another encoder's vectors are never read
        self.key = key
        path = cache or (Path(domain.root) / CACHE_FILE if getattr(domain, "root", None) else None)
        self.matrix = _load(path, key, len(texts), encoder.dimension)
        self.cached = self.matrix is not None
        if self.matrix is None:
            self.matrix = encode_cached(encoder, texts) if texts else np.zeros((0, encoder.dimension), np.float32)
            if path is not None and path.parent.is_dir():  # beside a domain on disk; an in-memory one (bench) makes no folder
                write_cache(path, lambda f: np.savez(f, key=np.array(key), matrix=self.matrix))
        self.one_per_tool = len(np.unique(self.owners)) == len(self.owners)
        self.identity = self.one_per_tool and len(self.owners) == self.n_tools and bool((self.owners == np.arange(self.n_tools)).all())
        # A large catalog's best rows without the full product (routing.semantic.dense_topk): the same numbers.
        self.top_rows = TopRows.build(self.matrix) if self.identity else None
        self.policy = default_policy(domain)  # chosen at build from synthetic questions (routing.semantic.dense_calibration)

    @property
    def weight(self) -> float:
        return self.policy.dense_weight

    def describe(self) -> dict:
        return {"used": True, "encoder": self.encoder.name, "encoder_why": self.why, "texts": len(self.owners),
                "vectors": "read from the cache" if self.cached else "encoded at build", "weight": self.weight,
                "fusion": self.policy.describe(), "policy": self.policy.to_dict()}

    def rank(self, text: str, depth: int = DEPTH, *, vector: np.ndarray | None = None, exclude_tool: int | None = None,
             exclude_row: int | None = None) -> list[tuple[int, float]]:
        """The best `depth` tools, best first, with their cosine. `vector`: the text's, already
        encoded; `exclude_tool` / `exclude_row`: a tool, or one of its texts, left out (the
        synthetic calibration's leave-one-out, routing.semantic.dense_calibration)."""
        if not len(self.owners) or not text.strip():
            return []
        q = self.encoder.encode([text])[0] if vector is None else vector
        if self.top_rows is not None and exclude_row is None and exclude_tool is None and q.dtype == np.float32 and q.shape == self.matrix.shape[1:]:
            found = self.top_rows.best(self.matrix, q, min(depth, len(self.owners)))
            if found is not None:  # one text per tool, in tool order: the rows are the tools
                return list(zip(found[0].tolist(), found[1].tolist()))
        # Not BLAS: its threads spin on a busy machine (5 ms against 0.5), and inside a route (the matrix
        # out of the cache) einsum beat even one-thread BLAS: 0.27 against 0.39 ms for 4,076 x 384. A large
        # catalog reads few rows through TopRows above (the same einsum values): ~0.64 -> ~0.45 ms in a route.
        sims = np.einsum("ij,j->i", self.matrix, q)
        if exclude_row is not None:
            sims = sims.copy()
            sims[exclude_row] = -2.0
        if self.identity:  # one text per tool, in tool order: the tools' cosines are the rows'
            best = sims.astype(np.float32, copy=False)  # sims is this call's own array
        elif self.one_per_tool:
            best = np.full(self.n_tools, -2.0, dtype=np.float32)
            best[self.owners] = sims
        else:
            best = np.full(self.n_tools, -2.0, dtype=np.float32)
            np.maximum.at(best, self.owners, sims)
        if exclude_tool is not None:
            best[exclude_tool] = -2.0
        k = min(depth, int((best > -2).sum()))
        if k <= 0:
            return []
        top = np.argpartition(-best, k - 1)[:k]
        top = top[np.lexsort((top, -best[top]))]
        return [(int(t), float(best[t])) for t in top]


def encode_cached(encoder, texts: list[str]) -> np.ndarray:
    """Through the shared per-text cache (routing.semantic.encoders.CachedEncoder, SQLite under
    ROUTING_EMBED_CACHE): a catalog imported again, or a tool edited, encodes only new texts. Not
    for the token table: it encodes faster than the cache reads."""
    from routing.semantic.encoders import CachedEncoder

    if getattr(encoder, "kind", "") == "static":
        return encoder.encode(texts)

    class _Keyed:  # the cache's key names the weights too, not only the model
        name = f"{encoder.name}@{getattr(encoder, 'sha256', '')[:16]}"
        dimension = encoder.dimension
        encode = staticmethod(encoder.encode)

    try:
        return CachedEncoder(_Keyed()).encode(texts)
    except (OSError, sqlite3.Error):  # a cache that cannot be used only costs time
        return encoder.encode(texts)


def _load(path: Path | None, key: str, rows: int, dim: int) -> np.ndarray | None:
    if path is None:
        return None
    try:
        with np.load(path) as z:  # arrays only: a cache file beside a domain is never unpickled
            if str(z["key"]) != key:
                return None
            m = np.asarray(z["matrix"], dtype=np.float32)
        return m if m.shape == (rows, dim) else None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None


def zfuse(lists: list[tuple[float, list[tuple[int, float]]]]) -> dict[int, float]:
    """Score fusion by z-scores: per list (weight, [(tool, score), ...]), each score standardised
    over the list (mean 0, standard deviation 1) and weighted; a tool missing from a list gets that
    list's lowest z. Tried and measured against reciprocal rank fusion: README "Dense list"."""
    zs = []
    for weight, scored in lists:
        if not scored:
            continue
        v = [x for _, x in scored]
        mu, sd = _mean_std(v)
        sd = sd or 1.0
        zs.append(({t: weight * (x - mu) / sd for t, x in scored}, weight * (min(v) - mu) / sd))
    tools = {t for z, _ in zs for t in z}
    if len(zs) == 2:  # sum()'s additions, from 0, without its generator
        (z1, low1), (z2, low2) = zs
        return {t: 0 + z1.get(t, low1) + z2.get(t, low2) for t in tools}
    return {t: sum(z.get(t, low) for z, low in zs) for t in tools}


def _mean_std(v: list[float]) -> tuple[float, float]:
    """np.mean and np.std of a short list of floats, with numpy's own sums (a few microseconds
    against twenty for the arrays; tests/test_scoring_speedups.py compares them with numpy)."""
    if len(v) > _PAIRWISE_BLOCK:
        a = np.array(v, dtype=np.float64)
        return float(a.mean()), float(a.std())
    n = len(v)
    mu = _pairwise_sum(v) / n
    d = [x - mu for x in v]
    return mu, math.sqrt(_pairwise_sum([x * x for x in d]) / n)


_PAIRWISE_BLOCK = 128  # numpy sums up to this many in one block of eight running sums


def _pairwise_sum(a: list[float]) -> float:
    """numpy's float64 sum of a contiguous array of at most _PAIRWISE_BLOCK values (pairwise_sum in
    numpy's loops: in order below eight, else eight running sums combined pairwise, then the rest)."""
    n = len(a)
    if n < 8:
        res = 0.0
        for x in a:
            res += x
        return res
    r0, r1, r2, r3, r4, r5, r6, r7 = a[:8]
    end = n - n % 8
    for i in range(8, end, 8):
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for i in range(end, n):
        res += a[i]
    return res


def dense_value(cos: float) -> float:
    return min(max((cos - FLOOR) / (CEILING - FLOOR), 0.0), 1.0)


ENCODERS = ("auto", "static", "transformer")
# `auto`: the transformer for a catalog of at most this many texts (tools + examples), where it is built
AUTO_TRANSFORMER_MAX_TEXTS = 1000


def _off() -> bool:
    import os

    return os.environ.get("ROUTING_DENSE", "").lower() in ("off", "0", "no", "false")


def choose_encoder(domain):
    """(encoder, why it carries) for the domain's `dense_encoder` setting, or (None, why not).

    `auto` (the default): the MiniLM transformer where it is built and the catalog has at most
    AUTO_TRANSFORMER_MAX_TEXTS texts (tools and example questions), else the token table. A small
    catalog is where a demo starts and where the transformer is worth its forward pass a question
    (HWU64 valid, fused top-1 names only / 1 / 3 examples an intent: 52.2 / 56.7 / 66.5 % against the
    table's 50.7 / 54.1 / 61.0 %); a large one (Seal-Tools' 4,076 tools) keeps the table's speed."""
    from routing.semantic import minilm, tokentable

    import os

    setting = domain.settings.extra.get("dense_encoder")
    said = "settings.yaml says dense_encoder" if setting else "ROUTING_DENSE_ENCODER"
    asked = str(setting or os.environ.get("ROUTING_DENSE_ENCODER") or "auto").strip().lower()
    if asked not in ENCODERS:
        asked_note = f"{said}={asked!r} is not one of {', '.join(ENCODERS)}; "
        asked = "auto"
    else:
        asked_note = ""
    texts = len(tool_texts(domain)[0]) if asked == "auto" else 0
    if asked == "auto" and texts > AUTO_TRANSFORMER_MAX_TEXTS:
        asked_note += (f"auto: {texts:,} texts, more than the {AUTO_TRANSFORMER_MAX_TEXTS:,} the transformer takes by default; ")
    elif asked in ("transformer", "auto"):
        enc = minilm.dense_encoder()
        if enc is not None:
            why = (f"auto: {texts:,} texts, a catalog the transformer takes by default" if asked == "auto"
                   else f"{said}: transformer")
            return enc, f"{why}: the MiniLM transformer itself (a forward pass a question)"
        asked_note += (f"dense_encoder: {asked}, but the MiniLM transformer is not built at {minilm.default_dir()} "
                       "(python -m routing build-encoder); ")
    table = tokentable.token_table()
    if table is None:
        return None, (f"{asked_note}the token table {tokentable.DEFAULT_TABLE_DIR} is missing: "
                      "routed on the lexical signals alone")
    return table, (asked_note + "the token table learned from MiniLM (a question in microseconds; "
                   "dense_encoder: transformer in settings.yaml, or ROUTING_DENSE_ENCODER=transformer, uses the transformer)")


def build_dense(domain) -> tuple[DenseList | None, str | None]:
    """(the domain's dense list, None), or (None, why not): the domain has plenty of examples or
    says `dense: false` (why is None: nothing to say), ROUTING_DENSE=off, or no encoder is there."""
    if not wants_dense(domain):
        return None, None
    if _off():
        return None, "ROUTING_DENSE=off: routed on the lexical signals alone"
    encoder, why = choose_encoder(domain)
    if encoder is None:
        return None, why
    return DenseList(domain, encoder, why=why), None
