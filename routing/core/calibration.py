"""Calibrated confidence: the top tool's confidence as the probability that it is right.

A domain whose settings say `calibration: fit` (the importer writes it) gets a logistic model
(Platt scaling over several signal features, not the top score alone) fitted when its router is
built, from the domain's own held-out questions: every labelled case of golden*.yaml / heldout*.yaml
(never examples of a tool: the importer holds them out) and its negatives (golden `negative:`,
rows labelled oos / none / empty), plus synthetic off-topic questions (off_topic_questions).
A case is a 1 when the top tool is the expected one, a 0 when it is not or when the question is
a negative. Features, all language-free:

    top      the top tool's raw score (the weighted signal sum)
    margin   its lead over the runner-up
    known    the share of the query's content words the domain knows at all (lexicon or examples):
             a question about something else is mostly words the domain never uses
    length   log(1 + content words): a short question says less, whatever its score
    negative the best cosine to the domain's own out-of-scope questions (negatives.yaml):
             "looks like something we were told is not ours"

The fit is cross-validated (5-fold) to report an honest expected calibration error, then refitted on
all cases; it is cached beside the domain (`.calibration.json`) under the fingerprint of the
lexicon and its corpora, so a router builds fast and a stale fit is redone. Fewer than
MIN_CASES cases, or a single class: no calibration (the raw sum stays the confidence).

The calibrated probability replaces the top candidate's sum; every other candidate keeps its ratio
to the top one (ranking unchanged). The score breakdown keeps every signal as measured and adds a
`calibration` term, the difference, so the breakdown still adds up to the confidence.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from routing.core.cachefile import write_cache
from routing.core.lexicon import fingerprint_files
from routing.core.yamlio import read_yaml

if TYPE_CHECKING:  # pragma: no cover
    from routing.core.index import QueryAnalysis, RouterIndex
    from routing.core.scoring import Scored

FEATURES = ("top", "margin", "known", "length", "negative", "learned", "semantic")
MIN_CASES = 30
FOLDS = 5
CACHE_FILE = ".calibration.json"
VERSION = 9  # bump when the features or the fit change: older caches are refitted (9: fitted before the sole lift)
NEGATIVE_LABELS = frozenset({"oos", "none", "", "out_of_scope", "negative"})


@dataclass(frozen=True)
class Calibrator:
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    bias: float
    n: int
    n_negative: int
    ece_raw: float  # cross-validated expected calibration error of the raw sum
    ece: float  # cross-validated ECE of the calibrated probability

    def probability(self, x: list[float]) -> float:
        z = self.bias + sum(c * (v - m) / s for c, v, m, s in zip(self.coef, x, self.mean, self.scale))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in ("mean", "scale", "coef", "bias", "n", "n_negative", "ece_raw", "ece")}


# ---------------------------------------------------------------- features


class NearestNegatives:
    """Unit idf vectors of the domain's negative questions: the best cosine of a query to one."""

    def __init__(self, index: "RouterIndex", questions: Iterable[str]):
        self.idf = index.example_vec_idf
        self.unseen = index.example_vec_unseen
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for i, q in enumerate(questions):
            keys = [k for k in dict.fromkeys(index.example_features(index.content_keys(q))) if "+" not in k]  # ordered: same sums everywhere
            norm = math.sqrt(sum(self._w(k) ** 2 for k in keys)) or 1.0
            for k in keys:
                self.postings.setdefault(k, []).append((i, self._w(k) / norm))

    def _w(self, key: str) -> float:
        return self.idf.get(key, self.unseen)

    def __bool__(self) -> bool:
        return bool(self.postings)

    def cosine(self, keys: Iterable[str]) -> float:
        keys = [k for k in dict.fromkeys(keys) if "+" not in k]
        if not keys or not self.postings:
            return 0.0
        norm = math.sqrt(sum(self._w(k) ** 2 for k in keys)) or 1.0
        dots: dict[int, float] = {}
        for k in keys:
            w = self._w(k) / norm
            for i, v in self.postings.get(k, ()):
                dots[i] = dots.get(i, 0.0) + w * v
        return max(dots.values(), default=0.0)


def _known(u, index) -> bool:
    return u.role != "literal" or u.key in index.example_vocab or index._fold_example_key(u.key) is not None


def known_share(a: "QueryAnalysis", index: "RouterIndex") -> float:
    """The share of a question's content words (terms, literals, verbs) the domain knows."""
    content = [u for u in a.units if u.role in ("concept", "literal", "action")]
    return sum(_known(u, index) for u in content) / len(content) if content else 0.0


def knows_a_word(a: "QueryAnalysis", index: "RouterIndex") -> bool:
    """Whether the domain knows a term or literal of the question: a shared verb ("which", "show") is
    the languages' word, not the catalog's."""
    return any(_known(u, index) for u in a.units if u.role in ("concept", "literal"))


def features(a: "QueryAnalysis", scored: list["Scored"], index: "RouterIndex", negatives: NearestNegatives | None) -> list[float]:
    top = scored[0].raw if scored else 0.0
    second = scored[1].raw if len(scored) > 1 else 0.0
    content = sum(u.role in ("concept", "literal", "action") for u in a.units)
    negative = negatives.cosine(index.example_features(a.keys)) if negatives else 0.0
    parts = scored[0].breakdown if scored else {}
    # what the embedding-based signals gave the leader (0 where a domain does not weigh them): a
    # model trained on in-domain examples is sure of something even off-topic, less so than on-topic
    return [top, top - second, known_share(a, index), math.log1p(content), negative, parts.get("learned", 0.0), parts.get("semantic", 0.0)]


# ---------------------------------------------------------------- fitting


def _fit(xs: list[list[float]], ys: list[int], *, l2: float = 1.0, iters: int = 50) -> tuple:
    """Logistic regression by Newton's method on standardised features (numpy)."""
    import numpy as np

    X = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    Z = np.hstack([(X - mean) / scale, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    reg = np.full(Z.shape[1], l2)
    reg[-1] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(Z @ w, -30, 30)))
        grad = Z.T @ (p - y) + reg * w
        hess = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(reg + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return tuple(mean.tolist()), tuple(scale.tolist()), tuple(w[:-1].tolist()), float(w[-1])


def ece(probs: list[float], ys: list[int], bins: int = 10) -> float:
    """Expected calibration error: |accuracy - mean confidence| per bin, weighted by the bin's share."""
    if not probs:
        return 0.0
    total = 0.0
    for b in reliability_bins(probs, ys, bins):
        total += b["n"] * abs(b["accuracy"] - b["confidence"])
    return round(total / len(probs), 4)


def reliability_bins(probs: list[float], ys: list[int], bins: int = 10) -> list[dict]:
    out = []
    for i in range(bins):
        lo, hi = i / bins, (i + 1) / bins
        idx = [j for j, p in enumerate(probs) if lo <= p < hi or (i == bins - 1 and p == 1.0)]
        if idx:
            out.append({
                "lo": lo, "hi": hi, "n": len(idx),
                "confidence": round(sum(probs[j] for j in idx) / len(idx), 4),
                "accuracy": round(sum(ys[j] for j in idx) / len(idx), 4),
            })
    return out


def fit_calibrator(xs: list[list[float]], ys: list[int], raw: list[float]) -> Calibrator | None:
    n_pos = sum(ys)
    if len(ys) < MIN_CASES or n_pos == 0 or n_pos == len(ys):
        return None
    # Cross-validated predictions (folds by position: the cases come grouped, so interleave).
    cv = [0.0] * len(ys)
    for f in range(FOLDS):
        train = [i for i in range(len(ys)) if i % FOLDS != f]
        test = [i for i in range(len(ys)) if i % FOLDS == f]
        if len({ys[i] for i in train}) < 2:
            return None
        model = Calibrator(*_fit([xs[i] for i in train], [ys[i] for i in train]), n=0, n_negative=0, ece_raw=0.0, ece=0.0)
        for i in test:
            cv[i] = model.probability(xs[i])
    mean, scale, coef, bias = _fit(xs, ys)
    return Calibrator(mean, scale, coef, bias, n=len(ys), n_negative=len(ys) - n_pos,
                      ece_raw=ece([min(1.0, r) for r in raw], ys), ece=ece(cv, ys))


# ---------------------------------------------------------------- the domain's data and cache


def wants_calibration(domain) -> bool:
    return str(domain.settings.extra.get("calibration", "off")).casefold() == "fit"


def corpus_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.yaml") if p.name.startswith(("golden", "heldout")))


def negative_questions(folder: Path) -> list[str]:
    path = folder / "negatives.yaml"
    if not path.is_file():
        return []
    data = read_yaml(path, str(path), root=folder.parent) or {}
    items = data.get("negatives") if isinstance(data, dict) else data
    return [str(q) for q in (items or []) if str(q).strip()]


def calibration_cases(folder: Path):
    from routing.quality.evaluate import load_golden  # the one golden reader

    return [c for p in corpus_files(folder) for c in load_golden(p) if c.tool or c.status == "not_found"]


def load_or_fit(router, negatives: NearestNegatives | None) -> Calibrator | None:
    domain = router.domain
    if not wants_calibration(domain):
        return None
    folder = domain.root
    files = corpus_files(folder)
    key = f"v{VERSION}:{domain.fingerprint}:{fingerprint_files(files)}"
    cache = folder / CACHE_FILE
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
        if data.get("key") == key:
            return Calibrator(**{k: tuple(v) if isinstance(v, list) else v for k, v in data["model"].items()}) if data.get("model") else None
    except (OSError, ValueError, TypeError, KeyError):
        pass
    xs, ys, raw = [], [], []
    calibration_cases_cached = calibration_cases(folder)
    cases_today = calibration_cases_cached[0] if calibration_cases_cached else None
    for case in calibration_cases_cached:
        a = router.index.analyze(case.query, today=router_today(case))
        scored = router.score(a, top=2, lift=False)  # as calibrate() sees them: before routing.core.sole's lift
        xs.append(features(a, scored, router.index, negatives))
        raw.append(scored[0].raw if scored else 0.0)
        ys.append(int(bool(case.tool) and bool(scored) and router.index.tools[scored[0].tool].name == case.tool))
    for query in off_topic_questions(router, [c for c in calibration_cases_cached if c.tool]):
        a = router.index.analyze(query, today=router_today(cases_today))
        scored = router.score(a, top=2, lift=False)  # as calibrate() sees them: before routing.core.sole's lift
        xs.append(features(a, scored, router.index, negatives))
        raw.append(scored[0].raw if scored else 0.0)
        ys.append(0)
    model = fit_calibrator(xs, ys, raw)
    _write_cache(cache, {"key": key, "model": model.to_dict() if model else None})
    return model


def router_today(case):
    from routing.core.clock import parse_today

    return parse_today((case.today if case is not None else None) or "2026-01-22")


OFF_TOPIC_SHARE = 0.25  # synthetic off-topic questions, as a share of the labelled held-out ones
COMMON_WORDS = 5000  # drawn from the language's most common words (wordfreq), never the domain's


def off_topic_questions(router, cases) -> list[str]:
    """Questions about something else, made from the domain's own held-out questions: every
    content word swapped for a common word of the domain's language that the domain never lists
    ("how do I top up my card" -> "how do I museum up my options"); one the router reads as its own
    by the stem ("accounting" as account) may stay, a harder negative (out-of-scope rejection on
    Banking77-OOS 76.2 %, 75.8 % without them). They teach the calibrator what
    a question outside the domain looks like, which in-domain negatives cannot: its words are not
    ours. Deterministic (the choice hangs on a hash of the question)."""
    import hashlib

    try:
        from wordfreq import top_n_list
    except ImportError:  # pragma: no cover
        return []
    index = router.index
    langs = [lang for lang in router.domain.settings.languages] or []
    pool = [w for lang in langs for w in top_n_list(lang, COMMON_WORDS)
            if len(w) >= 4 and w.isalpha() and w not in index.known and w not in index.example_vocab]
    if not pool or not cases:
        return []
    step = max(1, round(1 / OFF_TOPIC_SHARE))
    out = []
    for case in cases[::step]:
        a = index.analyze(case.query, today=router_today(case), correct=False)
        seed = int(hashlib.sha1(case.query.encode("utf-8")).hexdigest()[:8], 16)
        words = []
        for k, u in enumerate(a.units):
            if u.role in ("concept", "literal", "action"):
                words.append(pool[(seed + 7919 * k) % len(pool)])
            else:
                words.append(u.surface)
        out.append(" ".join(words))
    return out


def _write_cache(path: Path, data: dict) -> None:
    """Atomic; a read-only lexicon folder just means the fit is redone next build."""
    write_cache(path, lambda f: f.write(json.dumps(data).encode("utf-8")))


def apply(scored: list["Scored"], p: float) -> list["Scored"]:
    """Candidates with the top one's confidence set to `p`, the rest in proportion; each breakdown
    gains a `calibration` term so that it still adds up to its confidence."""
    from dataclasses import replace

    if not scored:
        return scored
    top = max(scored[0].raw, 1e-9)
    out = []
    for s in scored:
        conf = round(min(1.0, p * max(s.raw, 0.0) / top), 4)
        bd = dict(s.breakdown)
        bd["calibration"] = round(conf - sum(bd.values()), 4)
        out.append(replace(s, confidence=conf, breakdown=bd))
    return out


# ---------------------------------------------------------------- measuring (pages, scripts)


def reliability(router, cases) -> dict:
    """Top confidence vs being right, over labelled cases (routed one by one)."""
    points = []
    for case in cases:
        if not case.tool and case.status != "not_found":
            continue
        r = router.route(case.query, today=case.today or "2026-01-22")
        cands = r.ranked_candidates
        points.append((cands[0]["confidence"] if cands else 0.0, cands[0]["name"] if cands else None, case.tool))
    return reliability_report(points, getattr(router, "calibrator", None))


def reliability_report(points: list[tuple[float, str | None, str | None]], model: Calibrator | None = None) -> dict:
    """From (top confidence, top tool, expected tool or None for a negative): the bins of a
    reliability diagram, the expected calibration error, and the domain's fit (if calibrated).
    A negative's top tool is wrong by definition: a confident answer to it is a miss."""
    probs = [p for p, _, _ in points]
    ys = [int(exp is not None and top == exp) for _, top, exp in points]
    return {
        "n": len(ys),
        "accuracy": round(sum(ys) / len(ys), 4) if ys else None,
        "ece": ece(probs, ys),
        "calibrated": model is not None,
        "fit_cv_ece": model.ece if model else None,
        "fit_cv_ece_raw": model.ece_raw if model else None,
        "bins": reliability_bins(probs, ys),
    }
