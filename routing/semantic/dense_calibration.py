"""Confidence for a domain whose dense list is fused (routing.semantic.dense), calibrated at build
from synthetic questions made of the catalog itself: no labelled question needed.

A catalog imported from descriptions, or a few-shot import, has no held-out questions to fit the
labelled calibration on (routing.core.calibration); its confidence used to be the stronger of the
lexical sum and a dense value capped below `medium`, so an answer the dense list carried could
never be more than a weak match, and many ended not_found although ranked first. Here the
confidence is the probability that the top tool is right, from a small logistic model fitted when
the router is built on:

  positives     pseudo-questions made of each tool's own texts: one of its example questions
                (its own vector left out of the dense list, so it is not found by being itself),
                or a few words of its name, description or parameters, with a verb, stop words or
                a word of another tool around them; a 1 when the fused list puts the tool first,
                a 0 when it does not (the label is whether the top is right, not where it came from)
  leave-one-out the same pseudo-question routed with its tool removed: the nearest wrong tool, a 0
  word bags     words of two or three other tools mixed, a 0
  shuffled      single words of several tools at random (the catalog's words, no question), a 0
  stop words    a sentence of the lexicon's stop words and verbs (lexicons/_shared/words.yaml), a 0
  unknown words common words of the domain's languages (wordfreq) the catalog never uses, a 0

Features, all from the two lists and their fusion, whatever the encoder: the top tool's fused z
and its lead over the runner-up, its cosine and the dense list's own lead, its lexical sum and the
lexical list's lead, and whether the two lists put the same tool first. At query time that is a
dot product over numbers routing computed anyway. The fit (routing.core.calibration's Newton
logistic, cross-validated ECE reported) is cached beside the domain (`.dense-calibration.json`, plain
numbers) under the dense list's key and the domain's fingerprint.

The probability replaces the top candidate's confidence, and the domain's own thresholds make the
tiers (activated at `high`, multiple at `medium`, not_found below `low`); every other candidate gets
its share of what is left (1 - p, split by fused z), never more than the top.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from routing.core.cachefile import write_cache

VERSION = 3  # 2: the fusion's policy is chosen here and cached with the calibration; 3: single-example domains fitted
CACHE_FILE = ".dense-calibration.json"
FEATURES = ("fused_z", "fused_margin", "cosine", "cosine_margin", "lexical", "lexical_margin", "agree")
# Pseudo-questions made of the tools' texts: at most this many (a large catalog: one each for a sample
# of its tools; a small one: several variants of each tool, up to VARIANTS). Measured: README "Dense tiers".
PSEUDO_QUESTIONS = 240
VARIANTS = 12
# Negatives, each as a share of the pseudo-questions: the same question with its tool left out, and off-topic ones.
LEAVE_ONE_OUT = 0.15
BAGS = 0.1
SHUFFLED = 0.1
STOP_SENTENCES = 0.05
UNKNOWN = 0.1
# ... but never fewer than this many unknown-word sentences (half as many stop-word ones): a small
# catalog makes few pseudo-questions, and off-topic questions must still be seen to be told apart.
MIN_OFF_TOPIC = 24
COMMON_WORDS = 5000  # the unknown words, and the paraphrases' words, come from the languages' most common words
AS_WRITTEN = 1.0  # the share of held-out example questions routed as they were written (else cut or paraphrased)
WORDS = 5  # a pseudo-question keeps 1 to WORDS of its text's words
PARAPHRASED = 0.5  # the share of pseudo-questions made of tool words that are said in other words
NEIGHBOURS = 3
WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class DenseCalibration:
    model: object  # routing.core.calibration.Calibrator
    questions: int  # pseudo-questions made of the tools' texts
    right: int  # of those, how many the fused list ranked to their own tool first
    negatives: int  # synthetic cases that are wrong by construction
    kinds: dict
    fit_s: float = 0.0  # seconds the synthetic questions and the fit took at build
    held_out: bool = True  # example questions held out as positives (not where most tools have a single one)

    def probability(self, fusion) -> float:
        return self.model.probability(features(fusion))

    def describe(self) -> str:
        m = self.model
        return (f"the probability that the top tool is right, from a logistic model calibrated at build from "
                f"{self.questions} synthetic positives (pseudo-questions made of the tools' own texts, {self.right} ranked "
                f"to their tool first) and {self.negatives} synthetic negatives ("
                + ", ".join(f"{n} {k}" for k, n in self.kinds.items() if k not in ("pseudo-questions", "paraphrases"))
                + f"); no labelled question. Features: {', '.join(FEATURES)}. Cross-validated calibration error "
                f"{m.ece:.3f} on those synthetic cases; never below the top tool's lexical sum where the catalog "
                "knows a word of the question, and where it knows none, not_found at or below chance (one in "
                "the catalog's tools); "
                + ("" if self.held_out else "no example question held out (most tools have a single one: the "
                   "positives are made of the tools' names, descriptions and parameters); ")
                + "the domain's thresholds make the tiers")

    def to_dict(self) -> dict:
        return {"model": self.model.to_dict(), "questions": self.questions, "right": self.right,
                "negatives": self.negatives, "kinds": dict(self.kinds), "fit_s": self.fit_s, "held_out": self.held_out}


def features(f) -> list[float]:
    """The calibration's features of one fusion (routing.semantic.dense.Fusion)."""
    if not f.order:
        return [0.0] * len(FEATURES)
    top = f.order[0]
    z = f.fused[top]
    margin = z - f.fused[f.order[1]] if len(f.order) > 1 else 0.0
    cos = dict(f.ranked)
    cosine = cos.get(top, f.ranked[-1][1] if f.ranked else 0.0)
    cos_margin = f.ranked[0][1] - f.ranked[1][1] if len(f.ranked) > 1 else 0.0
    lex = dict(f.lexical)
    lexical = lex.get(top, 0.0)
    lex_margin = (f.lexical[0][1] - (f.lexical[1][1] if len(f.lexical) > 1 else 0.0)) if f.lexical else 0.0
    agree = float(bool(f.lexical) and bool(f.ranked) and f.lexical[0][0] == f.ranked[0][0])
    return [z, margin, cosine, cos_margin, lexical, lex_margin, agree]


def floored(p: float, lexical: float, knows_word: bool, n_tools: int, dense_only: float = 1.0) -> float:
    """The calibrated probability, never below the top tool's lexical sum where the catalog knows a word
    of the question (`knows_word`: a term or literal it knows; a shared verb such as "which" is the
    languages', not the catalog's). The synthetic questions are harder than real ones at
    the low end: without a floor Seal-Tools dev sent 31 % of its right-first answers to not_found (25 %
    with the floor only where both lists agree), and the capped dense value is no floor (it lifts any
    text). Not where it knows none: a small catalog's BM25 and static-embedding sums give an off-topic
    question in words the catalog never uses ("who won the football match yesterday") a lexical sum of
    0.2, which kept it a weak match; its words being unknown, that sum is no evidence. (The sum times
    the known share lost more right answers: HWU64 valid 1 example an intent 14.6 -> 16.2 %, Banking77
    dev 9.7 -> 14.0 %.) And where it knows none, a probability at or below chance (one in the catalog's
    tools: what picking a tool at random would give a question the catalog covers) says the question is
    likely none of the catalog's: 0, not_found (a 4-tool catalog's fit gave "who won the football match
    yesterday" 0.08-0.11, a weak match or not by a hair as the shared word lists changed). Above chance,
    where it knows no word the dense list alone speaks, and alone it makes at best a weak match, as
    uncalibrated (`dense_only`: Router.dense_cap): a small catalog's fit on its few synthetic questions
    read "convert 100 dollars to euros" (cosine 0.28 to getStockPrice, 5 tools) as 0.91, an activation,
    and "what's the capital of france" as 0.72; an in-scope "fly to rome next friday" had cosine 0.25."""
    if knows_word:
        return max(p, lexical)
    return min(p, dense_only) if p > 1.0 / max(n_tools, 1) else 0.0


def apply_probability(scored: list, p: float, f) -> list:
    """The top candidate's confidence set to `p` (shared equally with any tool tied with it); each other
    one gets its share of 1 - p (by fused z, softmax), at most p x exp(its fused z - the top's). Each breakdown gains a `calibration` term so that it adds up to its confidence."""
    if not scored:
        return scored
    top_z = f.fused.get(scored[0].tool, 0.0)
    tied = [abs(f.fused.get(s.tool, 0.0) - top_z) <= 1e-9 for s in scored[1:]]
    # Tools tied with the top (the same fused score: two tools with the same texts) share p equally: the
    # top is first by name only, and the fit's p is that one of them is right.
    share = p / (1 + sum(tied))
    rest = [math.exp(f.fused.get(s.tool, 0.0) - top_z) for s in scored[1:]]  # each one's weight beside the top's 1
    total = sum(r for r, t in zip(rest, tied) if not t) or 1.0
    # Never above p times its weight beside the top: on a small catalog 1 - p is large, and a share of it
    # capped at p alone made the runner-up read as a tie with the top (bookFlight 0.32, sendEmail 0.32).
    confs = [share] + [share if t else min(share * r, (1.0 - p) * r / total) for r, t in zip(rest, tied)]
    from routing.core.scoring import Scored

    out = []
    for s, c in zip(scored, confs):
        c = round(c, 4)
        bd = dict(s.breakdown)
        bd["calibration"] = round(c - sum(v for k, v in bd.items() if k != "calibration"), 4)
        out.append(Scored(s.tool, c, s.raw, bd, s.evidence, s.pattern_params, s.match_type) if type(s) is Scored
                   else replace(s, confidence=c, breakdown=bd))  # dataclasses.replace: 3.5 us, the constructor 1
    return out


# ---------------------------------------------------------------- the synthetic questions


def _content(text: str, stop: frozenset) -> list[str]:
    return [w for w in WORD.findall(text.casefold()) if w not in stop and not w.isdigit()]


def picks_of(n: int, rng: np.random.Generator) -> list[int]:
    """Which tools the pseudo-questions come from: a sample of a large catalog, every tool of a
    small one several times."""
    if n >= PSEUDO_QUESTIONS:
        return [int(t) for t in rng.choice(n, PSEUDO_QUESTIONS, replace=False)]
    return [t for _ in range(min(VARIANTS, math.ceil(PSEUDO_QUESTIONS / n))) for t in range(n)]


def _neighbours(router, words: list[str], stop: frozenset) -> dict[str, list[str]]:
    """Each word's NEIGHBOURS nearest common words of the domain's languages (wordfreq), by the
    static embedding table shipped in the repository (a table lookup: fast), leaving out the word's
    own forms (a shared start of 4 letters). Empty when the table or wordfreq is missing."""
    try:
        from wordfreq import top_n_list

        from routing.semantic.encoders import get_encoder

        enc = get_encoder("static")
    except (ImportError, OSError, ValueError):  # pragma: no cover - then no paraphrases
        return {}
    pool = sorted({w for lang in router.domain.settings.languages for w in _top(top_n_list, lang)
                   if len(w) >= 3 and w.isalpha() and w not in stop})
    words = [w for w in words if w.isalpha()]
    if not pool or not words:
        return {}
    P = enc.encode(pool)
    W = enc.encode(words)
    sims = W @ P.T
    out = {}
    for i, w in enumerate(words):
        best = np.argsort(-sims[i])[: NEIGHBOURS * 4]
        near = [pool[j] for j in best if pool[j][:4] != w[:4]][:NEIGHBOURS]
        if near:
            out[w] = near
    return out


def _top(top_n_list, lang: str) -> list[str]:
    try:
        return top_n_list(lang, COMMON_WORDS)
    except LookupError:  # pragma: no cover
        return []


def held_out_examples(domain, rng: np.random.Generator) -> dict[int, str]:
    """One example question of each tool that has any, to hold out: {tool: text}."""
    out = {}
    for t, tool in enumerate(domain.tools):
        texts = [e for _, e in tool.examples if e and e.strip()]
        if texts:
            out[t] = texts[int(rng.integers(len(texts)))]
    return out


def without_held_out(domain, held: dict[int, str]):
    """The same domain (same tools, same order) without the held-out example questions."""
    tools = tuple(replace(tool, examples=tuple(x for x in tool.examples if x[1] != held[t])) if t in held else tool
                  for t, tool in enumerate(domain.tools))
    return replace(domain, tools=tools, fingerprint=domain.fingerprint + ":held-out")


def synthetic_cases(router, rng: np.random.Generator, held: dict[int, str] | None = None) -> list[dict]:
    """[{text, tool (its source, or None), exclude_row, kind, held}], deterministic for a given rng;
    `held`: each tool's held-out example question (a case made of it is routed without it)."""
    held = held or {}
    from routing.core.enrich import name_words

    domain = router.domain
    dense = router.dense
    stop = frozenset(w.casefold() for w in domain.words.stopwords)
    stop_list = sorted(w for w in stop if " " not in w)
    verbs = sorted({v[0] for v, _kind, _strength in domain.words.actions if len(v) == 1})
    tools = list(domain.tools)
    n = len(tools)
    if n < 2:
        return []
    rows: dict[tuple[int, str], int] = {}
    for r, (t, text) in enumerate(zip(dense.owners.tolist(), dense.texts)):
        rows.setdefault((t, text), r)
    words_of: list[list[str]] = []
    sources: list[list[tuple[str, int | None, bool]]] = []  # (text, its dense row to leave out, a real question)
    for t, tool in enumerate(tools):
        # Of a tool's example questions, only the one held out (routed against an index without it).
        parts = [(e, rows.get((t, e)), True) for e in [held.get(t)] if e]
        parts += [(x, None, False) for x in (name_words(tool.name), tool.description,
                                             *(" ".join(y for y in (name_words(p.name), p.description) if y) for p in tool.params)) if x]
        sources.append(parts)
        words_of.append(list(dict.fromkeys(w for x, _, _ in parts for w in _content(x, stop))))

    picks = picks_of(n, rng)
    near = _neighbours(router, sorted({w for t in set(picks) for w in words_of[t]}), stop)

    def dress(words: list[str]) -> str:
        words = list(words)
        if stop_list and rng.random() < 0.5:
            for _ in range(int(rng.integers(1, 3))):
                words.insert(int(rng.integers(0, len(words) + 1)), stop_list[int(rng.integers(len(stop_list)))])
        if verbs and rng.random() < 0.5:
            words.insert(0, verbs[int(rng.integers(len(verbs)))])
        return " ".join(words)

    cases: list[dict] = []
    for t in picks:
        parts = sources[t]
        if not parts:
            continue
        examples = [x for x in parts if x[2]]
        text, row, real = examples[int(rng.integers(len(examples)))] if examples and rng.random() < 0.7 else parts[int(rng.integers(len(parts)))]
        words = _content(text, stop)
        if not words:
            continue
        if real and rng.random() < AS_WRITTEN:
            question = text  # a held-out example question as it was written
        elif near and rng.random() < PARAPHRASED:
            # Said in other words: each word swapped for one of its nearest common words (the static
            # table's neighbours), so that the lexical list barely sees it, as with a real paraphrase.
            k = int(rng.integers(1, min(len(words), 4) + 1))
            chosen = [words[i] for i in sorted(rng.choice(len(words), k, replace=False).tolist())]
            swapped = [near[w][int(rng.integers(len(near[w])))] if near.get(w) else w for w in chosen]
            if swapped == chosen:
                continue
            cases.append({"text": dress(swapped), "tool": t, "exclude_row": row, "kind": "paraphrases", "held": real})
            continue
        else:
            k = int(rng.integers(1, min(len(words), WORDS) + 1))
            keep = sorted(rng.choice(len(words), k, replace=False).tolist())
            chosen = [words[i] for i in keep]
            if rng.random() < 0.25:  # a word of another tool: real questions say more than one thing
                other = int(rng.integers(n))
                if other != t and words_of[other]:
                    chosen.insert(int(rng.integers(0, len(chosen) + 1)), words_of[other][int(rng.integers(len(words_of[other])))])
            question = dress(chosen)
        cases.append({"text": question, "tool": t, "exclude_row": row, "kind": "pseudo-questions", "held": real})
    count = len(cases)
    have = [t for t in range(n) if words_of[t]]
    for _ in range(round(count * BAGS)):
        if len(have) < 3:
            break
        chosen = []
        for o in rng.choice(have, int(rng.integers(2, 4)), replace=False).tolist():
            ws = words_of[o]
            chosen += [ws[i] for i in rng.choice(len(ws), min(len(ws), int(rng.integers(1, 3))), replace=False).tolist()]
        rng.shuffle(chosen)
        cases.append({"text": dress(chosen), "tool": None, "exclude_row": None, "kind": "word bags"})
    for _ in range(round(count * SHUFFLED)):
        if len(have) < 3:
            break
        chosen = [words_of[o][int(rng.integers(len(words_of[o])))] for o in rng.choice(have, min(len(have), int(rng.integers(3, 7))), replace=False).tolist()]
        cases.append({"text": " ".join(chosen), "tool": None, "exclude_row": None, "kind": "shuffled catalog words"})
    for _ in range(max(round(count * STOP_SENTENCES), MIN_OFF_TOPIC // 2)):
        if not stop_list:
            break
        chosen = [stop_list[int(rng.integers(len(stop_list)))] for _ in range(int(rng.integers(2, 7)))]
        if verbs and rng.random() < 0.5:
            chosen.insert(0, verbs[int(rng.integers(len(verbs)))])
        cases.append({"text": " ".join(chosen), "tool": None, "exclude_row": None, "kind": "stop-word sentences"})
    pool = _unknown_words(router)
    for _ in range(max(round(count * UNKNOWN), MIN_OFF_TOPIC) if pool else 0):
        chosen = [pool[int(rng.integers(len(pool)))] for _ in range(int(rng.integers(2, 6)))]
        cases.append({"text": dress(chosen), "tool": None, "exclude_row": None, "kind": "unknown-word sentences"})
    return cases


def _unknown_words(router) -> list[str]:
    """Common words of the domain's languages that its catalog never uses (as the labelled
    calibration's off-topic questions do): what a question about something else is made of."""
    try:
        from wordfreq import top_n_list
    except ImportError:  # pragma: no cover
        return []
    index = router.index
    langs = list(router.domain.settings.languages) or []
    out = []
    for lang in langs:
        try:
            out += [w for w in top_n_list(lang, COMMON_WORDS)
                    if len(w) >= 4 and w.isalpha() and w not in index.known and w not in index.example_vocab]
        except LookupError:  # pragma: no cover - a language wordfreq does not know
            continue
    return sorted(set(out))


# ---------------------------------------------------------------- fitting and its cache


def synthetic_fusions(router, rng: np.random.Generator, held: dict[int, str], *, leave_one_out_rng=None):
    """(case, analysis, fusion) of each synthetic case (synthetic_cases), routed as the fit routes it:
    a held-out example against an index that never saw it, and its own dense row left out. With
    `leave_one_out_rng`, a share (LEAVE_ONE_OUT) of the pseudo-questions follow again with their tool
    removed (case["kind"] "leave-one-out", case["tool"] None)."""
    from routing.core.calibration import router_today
    from routing.semantic.dense import encode_cached

    cases = synthetic_cases(router, rng, held)
    if not cases:
        return
    aux = aux_semantic = aux_learned = None
    if held:  # the lexical list of a held-out example comes from an index (and a learned model) that never saw it
        from routing.core.index import RouterIndex

        aux_domain = without_held_out(router.domain, held)
        aux = RouterIndex(aux_domain, router.date_lexicon)
        if router.encoder is not None:  # the static semantic signal's index of the examples, without them too
            from routing.semantic.signal import build_semantic

            aux_semantic = build_semantic(aux_domain, getattr(router.encoder, "encoder", None))
        aux_learned = _held_out_model(router, aux_domain)
    vectors = encode_cached(router.dense.encoder, [c["text"] for c in cases])
    today = router_today(None)
    for c, v in zip(cases, vectors):
        index = aux if c.get("held") and aux is not None else router.index
        semantic = aux_semantic if index is aux else None
        a = index.analyze(c["text"], today=today)
        model = aux_learned if index is aux else None
        yield c, a, router.fusion(a, vector=v, exclude_row=c["exclude_row"], index=index, encoder=semantic, learned_model=model)
        if c["tool"] is None or leave_one_out_rng is None or leave_one_out_rng.random() >= LEAVE_ONE_OUT:
            continue
        # Leave-one-out: the same question with its tool gone; whatever comes first is wrong.
        g = router.fusion(a, vector=v, exclude_tool=c["tool"], index=index, encoder=semantic, learned_model=model)
        yield {**c, "tool": None, "kind": "leave-one-out", "source": c["tool"]}, a, g


def _held_out_model(router, aux_domain):
    """The learned model retrained without the held-out examples, where the domain has one (else None):
    the model trained on them finds each one itself (Banking77, 3 examples an intent: the held-out
    examples' lexical list 100 % right against 58 % on real questions, and 45 % of the right answers
    not_found). Trained whatever the count (one example fewer a tool than the domain's), in a
    temporary folder: the domain's own model file is not touched."""
    if router.learned is None:
        return None
    import tempfile

    from routing.semantic.learned import train

    with tempfile.TemporaryDirectory(prefix="held-out-model-") as tmp:
        return train(aux_domain, getattr(router.learned.features, "encoder", None) or _encoder_of(router),
                     cache=Path(tmp) / "model.npz", force=True)


def _encoder_of(router):
    from routing.semantic.encoders import get_encoder

    return getattr(router.encoder, "encoder", None) or get_encoder()


def fit_synthetic(router, *, calibrate: bool = True):
    """(the fusion's policy, the calibration or None): the synthetic questions routed once; which list
    leads chosen from the pseudo-questions made of the tools' own words (dense.choose_policy) and set on
    the router's dense list; then, with `calibrate`, the logistic calibration fitted on the same lists
    fused under that policy."""
    import time

    from routing.core.calibration import fit_calibrator
    from routing.semantic import dense as dn

    started = time.perf_counter()
    seed = int(hashlib.sha256(router.dense.key.encode("utf-8")).hexdigest()[:8], 16)
    rng = np.random.default_rng(seed)
    holds = holds_out_examples(router.domain)
    held = held_out_examples(router.domain, rng) if holds else {}
    routed = list(synthetic_fusions(router, rng, held, leave_one_out_rng=np.random.default_rng(seed + 1)))
    fragments = [(c, f) for c, _a, f in routed if c["kind"] == "pseudo-questions" and not c.get("held")]
    policy = dn.choose_policy(len(fragments), sum(bool(f.lexical) and f.lexical[0][0] == c["tool"] for c, f in fragments),
                              sum(bool(f.ranked) and f.ranked[0][0] == c["tool"] for c, f in fragments),
                              dn.default_policy(router.domain))
    router.dense.policy = policy
    if not calibrate or not routed:
        return policy, None
    names = router.index.tools
    xs, ys, raw = [], [], []
    right = 0
    kinds: dict[str, int] = {}
    for c, _a, f in routed:
        g = dn.refuse(f, policy, names)
        x = features(g)
        hit = int(c["tool"] is not None and g.order[:1] == [c["tool"]])
        xs.append(x)
        ys.append(hit)
        raw.append(min(1.0, x[FEATURES.index("lexical")]))  # the lexical sum: the calibration error "before"
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
        right += hit
    model = fit_calibrator(xs, ys, raw)
    if model is None:
        return policy, None
    questions = kinds.get("pseudo-questions", 0) + kinds.get("paraphrases", 0)
    return policy, DenseCalibration(model=model, questions=questions, right=right, negatives=len(ys) - questions,
                                    kinds=kinds, fit_s=round(time.perf_counter() - started, 2), held_out=holds)


def cache_key(router) -> str:
    from routing.semantic import dense as dn

    d = router.domain
    return hashlib.sha256(json.dumps([VERSION, router.dense.key, d.fingerprint, dn.WEIGHT_LEXICAL_LED, dn.WEIGHT_DENSE_LED,
                                      dn.RATIO_LEXICAL, dn.RATIO_DENSE, PSEUDO_QUESTIONS, VARIANTS]).encode("utf-8")).hexdigest()[:32]


def holds_out_examples(domain) -> bool:
    """Whether the positives include held-out example questions. Not where most tools have exactly one:
    holding it out leaves the tool known by its name alone, harder than any real question meets it, and
    the fit came out underconfident (HWU64 valid, 1 example an intent: 48 % of the right answers
    not_found). Such a domain is calibrated on pseudo-questions of its names, descriptions and
    parameters alone (HWU64 valid k1: right answers lost to not_found 23.0 % uncalibrated -> 14.6 %,
    activated 8 -> 99 at 93.9 %; Banking77 dev k1: 1.2 % -> 9.7 %, activated 24 -> 118 at 97.5 %)."""
    ones = sum(len(t.examples) == 1 for t in domain.tools)
    return ones * 2 <= len(domain.tools)


def not_fitted_because(domain) -> str | None:
    """Why a fused domain gets no synthetic calibration, or None."""
    if len(domain.tools) < 2:
        return "a single tool: nothing to tell apart, so the confidence is not calibrated"
    return None


def load_or_fit_synthetic(router) -> DenseCalibration | None:
    """The synthetic calibration (None where it cannot be fitted), read from its cache or fitted; on
    the way, the fusion's policy is set on router.dense (it is cached with it)."""
    from routing.core.calibration import Calibrator
    from routing.semantic.dense import FusionPolicy

    calibrate = not not_fitted_because(router.domain)
    root = getattr(router.domain, "root", None)
    path = Path(root) / CACHE_FILE if root else None
    key = cache_key(router)
    if path is not None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("key") == key and data.get("fusion"):
                router.dense.policy = FusionPolicy.from_dict(data["fusion"])
                c = data.get("calibration")
                if not c or not calibrate:
                    return None
                model = Calibrator(**{k: tuple(v) if isinstance(v, list) else v for k, v in c["model"].items()})
                return DenseCalibration(model=model, questions=c["questions"], right=c["right"], negatives=c["negatives"],
                                        kinds=dict(c["kinds"]), fit_s=c.get("fit_s", 0.0), held_out=c.get("held_out", True))
        except (OSError, ValueError, TypeError, KeyError):
            pass
    policy, calibration = fit_synthetic(router, calibrate=calibrate)
    if path is not None and path.parent.is_dir():  # beside a domain on disk; an in-memory one (a bench, a test) makes no folder
        body = json.dumps({"key": key, "fusion": policy.to_dict(),
                           "calibration": calibration.to_dict() if calibration else None}).encode("utf-8")
        write_cache(path, lambda f: f.write(body))
    return calibration
