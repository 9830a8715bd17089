"""The scoring stage's faster ways of computing the same things (issue 22, speed): each is checked
against the way it replaced, kept here as it was, on varied inputs. (The whole replies of main and
a branch are compared on Seal-Tools by scripts/speed_compare.py.)"""
from __future__ import annotations

import heapq
import math
import random
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from routing.core.example_arrays import ExampleArrays, ExampleSignals, _lookup, _sums
from routing.core.scoring import Scored, Signal, _best, example_only_raw, scored_for, stronger_for
from routing.core.sentences import FusedScores, fuse_arrays
from routing.semantic.dense import _mean_std, fused_order, zfuse
from routing.semantic.dense_topk import TopRows

# ---------------------------------------------------------------- the ways replaced, as they were


def _bincount_sums(postings, features, size):
    found = [p for p in map(postings.get, features) if p is not None]
    if not found:
        return np.zeros(size)
    return np.bincount(np.concatenate([p[0] for p in found]), weights=np.concatenate([p[1] for p in found]), minlength=size)


def _old_score(arrays, index, features, reachable, words_only, qnorm, sentences):
    """ExampleArrays.score before: every tool's value as arrays (its nearest-example step is unchanged)."""
    scores = _bincount_sums(arrays.tool_postings, features, arrays.n_tools)
    if sentences:
        scores = fuse_arrays(scores, [_bincount_sums(arrays.tool_postings, fs, arrays.n_tools) for fs in sentences])
    k = index.example_nearest_tools
    if len(scores) > 4 * (k + 1):
        part = np.argpartition(-scores, k)[: k + 1]
        order = part[np.lexsort((part, -scores[part]))]
    else:
        order = np.argsort(-scores, kind="stable")[: k + 1]
    if not scores[order[0]] > 0:
        return None
    if len(order) <= k or scores[order[k - 1]] > scores[order[k]]:
        leaders = [int(t) for t in order[:k] if scores[t] > 0]
    else:
        first = np.full(arrays.n_tools, np.iinfo(np.int64).max, dtype=np.int64)
        seen = 0
        for f in features:
            p = arrays.tool_postings.get(f)
            if p is not None:
                ids = p[0]
                fresh = first[ids] == np.iinfo(np.int64).max
                first[ids[fresh]] = seen + np.flatnonzero(fresh)
                seen += len(ids)
        cand = np.flatnonzero(scores >= scores[order[k - 1]])
        leaders = [int(t) for t in cand[np.lexsort((first[cand], -scores[cand]))][:k]]
    nearest = arrays.nearest(words_only, leaders, qnorm)
    share = index.example_tool_share
    cosine = np.zeros(arrays.n_tools)
    for t, (c, _) in nearest.items():
        cosine[t] = min(c, 1.0)
    values = np.minimum(1.0, share * scores / (reachable or 1.0) + (1 - share) * cosine)
    return values, scores > 0, nearest


def _old_example_only_raw(index, weights, action, values, touched, others, top):
    fit = np.array([action.get(k, (0.0, ""))[0] for k in index.kinds])
    raw = weights.action * fit[np.asarray(index.tool_kind, dtype=np.intp)] + weights.example * values
    mask = touched & (values > 0) & (raw > 0)
    if others:
        mask[list(others)] = False
    ids = mask.nonzero()[0]
    n = len(ids)
    if n > top:
        vals = raw[ids]
        ranked = np.partition(vals, (n - top - 1, n - top))
        floor = round(min(float(ranked[n - top]), 1.0), 4) - 0.00005
        ids = ids[vals >= min(floor, float(ranked[n - top - 1]))]
    return dict(zip(ids.tolist(), raw[ids].tolist()))


def _old_zfuse(lists):
    zs = []
    for weight, scored in lists:
        if not scored:
            continue
        v = np.array([x for _, x in scored], dtype=np.float64)
        mu, sd = float(v.mean()), float(v.std()) or 1.0
        zs.append(({t: weight * (x - mu) / sd for t, x in scored}, weight * (float(v.min()) - mu) / sd))
    tools = {t for z, _ in zs for t in z}
    return {t: sum(z.get(t, low) for z, low in zs) for t in tools}


def _old_best(raw, tools, top):
    if len(raw) <= top:
        chosen = list(raw)
    else:
        kth = heapq.nlargest(top, raw.values())[-1]
        floor = round(min(kth, 1.0), 4) - 0.00005
        chosen = [t for t, v in raw.items() if v >= floor]
    chosen.sort(key=lambda t: (-round(min(raw[t], 1.0), 4), tools[t].name))
    return chosen[:top]


# ---------------------------------------------------------------- the example arrays


class _Index(SimpleNamespace):
    """What the example arrays read of a RouterIndex (hashed and weakly referenced by identity, as an index)."""

    __hash__ = object.__hash__


def _catalog(seed: int):
    """Postings over a few hundred tools with weights from a short list (ties), some in most tools."""
    rng = random.Random(seed)
    n_tools = rng.choice([40, 150, 400])
    weights = [0.5, 1.0, 1.5, 2.25] + [round(rng.uniform(0.1, 3), 3) for _ in range(3)]
    tool_postings = {}
    for i in range(60):
        size = rng.choice([1, 2, 5, n_tools // 5, n_tools // 3, n_tools - 3, n_tools])
        ids = sorted(rng.sample(range(n_tools), min(size, n_tools)))
        tool_postings[f"w{i}"] = (np.array(ids, dtype=np.int64), np.array([rng.choice(weights) for _ in ids]))
    counts = [rng.choice([0, 1, 1, 2, 3]) for _ in range(n_tools)]
    ranges, start = [], 0
    for c in counts:
        ranges.append((start, start + c))
        start += c
    word_postings = {}
    for i in range(40):
        ids = sorted(rng.sample(range(start), rng.randint(1, max(1, start // 2))))
        word_postings[f"w{i}"] = (np.array(ids, dtype=np.int64), np.array([rng.choice(weights) for _ in ids]))
    arrays = ExampleArrays(tool_postings, word_postings, ranges, n_tools, start)
    index = _Index(example_nearest_tools=rng.choice([3, 8, 30]), example_tool_share=rng.choice([0.8, 0.9, 1.0]),
                            example_text=[f"example {e}" for e in range(start)], kinds=["list", "detail", "create"],
                            tool_kind=[rng.randrange(3) for _ in range(n_tools)])
    return rng, arrays, index


@pytest.mark.parametrize("seed", range(12))
def test_sums_with_dense_postings_match_one_bincount(seed):
    rng, arrays, _ = _catalog(seed)
    vocab = list(arrays.tool_postings) + ["unseen", "also-unseen"]
    for share in (1 / 8, 1 / 4, 1 / 2, 2.0):
        lookup = _lookup(arrays.tool_postings, arrays.n_tools, share)
        for _ in range(30):
            features = rng.sample(vocab, rng.randint(0, 25))
            got = _sums(features, lookup, arrays.n_tools)
            assert got.tobytes() == _bincount_sums(arrays.tool_postings, features, arrays.n_tools).tobytes()


@pytest.mark.parametrize("seed", range(40))
def test_example_scores_and_example_only_sums_match_the_arrays_over_every_tool(seed):
    rng, arrays, index = _catalog(seed)
    vocab = list(arrays.tool_postings) + ["unseen"]
    for _ in range(10):
        features = rng.sample(vocab, rng.randint(1, 20))
        sentences = [rng.sample(features, rng.randint(1, len(features))) for _ in range(rng.choice([0, 0, 2, 3]))]
        words_only = [f for f in features if f in arrays.word_postings]
        reachable, qnorm = rng.uniform(1, 30), rng.uniform(0.5, 5)
        old = _old_score(arrays, index, features, reachable, words_only, qnorm, sentences)
        new = arrays.score(index, features, reachable, words_only, qnorm, sentences)
        if old is None:
            assert new == {}
            continue
        values, touched, nearest = old
        assert new.nearest == nearest
        assert [new.value(t) for t in range(arrays.n_tools)] == values.tolist()
        assert [t in new for t in range(arrays.n_tools)] == touched.tolist()
        fresh = arrays.score(index, features, reachable, words_only, qnorm, sentences)  # no Signal built yet
        assert [fresh.value_or_none(t) for t in range(arrays.n_tools)] == [v if h else None for v, h in zip(values.tolist(), touched)]
        assert [new.get(t) for t in range(arrays.n_tools)] == [new[t] if touched[t] else None for t in range(arrays.n_tools)]
        assert [new.value_or_none(t) for t in range(arrays.n_tools)] == [new[t].value if touched[t] else None for t in range(arrays.n_tools)]
        assert new.values.tobytes() == values.tobytes() and new.touched.tobytes() == touched.tobytes()
        for _ in range(6):
            fits = rng.choice([[0.4, 0.4, 0.4], [0.0, 0.0, 0.0], [0.4, 0.6, 0.0], [1.0, 1.0, 1.0]])
            action = {k: (f, k) for k, f in zip(index.kinds, fits)}
            weights = SimpleNamespace(action=rng.choice([0.0, 0.15, 0.3]), example=rng.choice([1.0, 0.7, 0.0]))
            others = set(rng.sample(range(arrays.n_tools), rng.choice([0, 0, 2, 10])))
            top = rng.choice([1, 3, 5, 20, 40])
            fresh = arrays.score(index, features, reachable, words_only, qnorm, sentences)  # values not yet made
            assert example_only_raw(index, weights, action, fresh, others, top) == \
                _old_example_only_raw(index, weights, action, values, touched, others, top)


@pytest.mark.parametrize("seed", range(30))
def test_fused_scores_read_for_some_tools_are_the_arrays(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([50, 300, 4000]))
    levels = np.array([0.0, 0.5, 1.0, 1.5, 2.25, 3.0])  # few values: many ties

    def scores():
        return levels[rng.integers(len(levels), size=n)] * rng.choice([1.0, 0.37]) + (rng.random(n) if rng.random() < 0.5 else 0.0)

    for _ in range(5):
        full, sentences = scores(), [scores() for _ in range(int(rng.choice([0, 1, 2, 4])))]
        if rng.random() < 0.2 and sentences:
            sentences[0][:] = 0.0  # a sentence that touches no tool
        expected = fuse_arrays(full, sentences)
        fused = FusedScores(full, sentences)
        for k in (3, 8, 30):
            found = FusedScores(full, sentences).best_of(k)
            if found is None:
                continue
            ids, values = found
            assert values.tobytes() == expected[ids].tobytes()
            kth = np.sort(expected)[::-1][k]
            assert set(np.flatnonzero(expected >= kth).tolist()) <= set(ids.tolist())
        assert [fused.at(t) for t in range(n)] == expected.tolist()
        assert fused.array().tobytes() == expected.tobytes()


# ---------------------------------------------------------------- the dense list


def _full_best(matrix, q, k):
    best = np.einsum("ij,j->i", matrix, q).astype(np.float32, copy=False)
    top = np.argpartition(-best, k - 1)[:k]
    top = top[np.lexsort((top, -best[top]))]
    return [(int(t), float(best[t])) for t in top]


@pytest.mark.parametrize("seed", range(4))
def test_the_projected_bound_finds_the_full_products_best_rows(seed):
    rng = np.random.default_rng(seed)
    rows = rng.standard_normal((1200, 384)).astype(np.float32)
    rows[:600] += 0.8 * rng.standard_normal(384).astype(np.float32)  # half of them alike
    rows[700:720] = rows[5]  # twenty copies of one row (ties)
    rows[800:803] = rows[900]
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    top_rows = TopRows.build(rows)
    assert top_rows is not None
    told = 0
    for i in range(60):
        q = rows[rng.integers(len(rows))] + rng.choice([0.05, 0.3, 1.0]) * rng.standard_normal(384).astype(np.float32)
        if i % 10 == 0:
            q = rows[5] + 0.01 * rng.standard_normal(384).astype(np.float32)  # near the twenty copies
        q = (q / np.linalg.norm(q)).astype(np.float32)
        for k in (1, 5, 20):
            found = top_rows.best(rows, q, k)
            full = _full_best(rows, q, k)
            if found is None:  # only where the k-th value ties with the next
                best = np.sort(np.einsum("ij,j->i", rows, q))[::-1]
                assert best[k - 1] == best[k]
                continue
            told += 1
            assert list(zip(found[0].tolist(), found[1].tolist())) == full
    assert told > 100


def test_einsum_gives_each_row_the_same_value_whatever_rows_are_beside_it():
    rng = np.random.default_rng(7)
    rows = rng.standard_normal((500, 384)).astype(np.float32)
    q = rng.standard_normal(384).astype(np.float32)
    full = np.einsum("ij,j->i", rows, q)
    for size in (1, 2, 3, 7, 20, 125):
        ids = rng.choice(len(rows), size, replace=False)
        assert np.einsum("ij,j->i", rows[ids], q).tobytes() == full[ids].tobytes()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.1, 0.3, 0.2345, 1e-9, 7.0])), min_size=1, max_size=140))
def test_mean_and_std_in_python_are_numpys(values):
    a = np.array(values, dtype=np.float64)
    assert _mean_std(values) == (float(a.mean()), float(a.std()))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.floats(0, 1)), max_size=20),
       st.lists(st.tuples(st.integers(0, 40), st.floats(-1, 1)), max_size=20),
       st.sampled_from([0.0, 0.3, 1.0]), st.sampled_from([0.3, 5.0]))
def test_zfuse_is_as_it_was(lexical, dense, w1, w2):
    lexical = list(dict(lexical).items())
    dense = list(dict(dense).items())
    lists = [(w1, lexical), (w2, dense)]
    assert zfuse(lists) == _old_zfuse(lists)
    assert zfuse(lists[:1]) == _old_zfuse(lists[:1])


def test_fused_order_is_by_rounded_score_then_name():
    rng = random.Random(3)
    names = [SimpleNamespace(name=f"tool{rng.randrange(10 ** 6):06d}x{i}") for i in range(50)]
    for _ in range(200):
        fused = {t: rng.choice([0.5, 0.5 + 1e-11, 0.5 + 1.5e-9, 0.5 - 2e-9, 1.25, -0.75, 2e7, rng.uniform(-3, 3)])
                 for t in rng.sample(range(50), 30)}
        assert fused_order(fused, names) == sorted(fused, key=lambda t: (-round(fused[t], 9), names[t].name))


# ---------------------------------------------------------------- the candidates' Scored


def test_best_and_its_rounded_keys_are_as_they_were():
    rng = random.Random(5)
    tools = [SimpleNamespace(name=f"t{rng.randrange(10 ** 6)}-{i}") for i in range(80)]
    for _ in range(300):
        raw = {t: rng.choice([0.5, 0.50004, 0.49996, 1.0, 1.2, rng.uniform(0, 1.3)]) for t in rng.sample(range(80), rng.randint(1, 60))}
        top = rng.choice([1, 2, 5, 20])
        assert _best(raw, tools, top) == _old_best(raw, tools, top)
        assert _best(raw, tools, top, keyed=True) == [(t, round(min(raw[t], 1.0), 4)) for t in _old_best(raw, tools, top)]


def test_the_stronger_view_is_the_comparison_of_both_views():
    rng = random.Random(9)
    kinds = ["list", "detail"]
    index = SimpleNamespace(tools=[SimpleNamespace(name=f"t{i}", kind=kinds[i % 2]) for i in range(30)])
    weights = SimpleNamespace(keyword=0.5, pattern=0.35, action=0.15, example=0.4, semantic=0.3, learned=0.0,
                              agreement=0.0, fuzzy_penalty=0.02)
    dense_only = SimpleNamespace(keyword=0.0, pattern=0.0, action=0.0, example=0.0, semantic=0.32, learned=0.0,
                                 agreement=0.0, fuzzy_penalty=0.0)
    for _ in range(200):
        def signals(name):
            return {t: Signal(value=v, parts={name: v}, evidence=[f"{name} {t}"], fuzzy_hits=rng.choice([0, 0, 1]))
                    for t in rng.sample(range(30), 10) for v in [rng.choice([0.2, 0.5, 0.9, rng.random()])]}
        keyword, example = signals("keyword"), signals("example")
        action = {"list": (rng.choice([0.0, 0.4, 1.0]), "list (verb)")}
        dense = {t: Signal(value=v, parts={"semantic": v}, evidence=[f"dense cos {v:.2f}"]) for t, v in signals("x").items() for v in [v.value]}
        order = rng.sample(range(30), 5)
        lexical = scored_for(index, weights, order, keyword, action, {}, example, {}, {})
        dense_view = scored_for(index, dense_only, order, {}, {}, {}, {}, dense)
        assert stronger_for(index, dense_only, lexical, {}, {}, {}, {}, dense) == \
            [d if d.confidence > s.confidence else s for s, d in zip(lexical, dense_view)]


def test_scored_rebuilt_with_its_constructor_is_what_replace_made():
    from routing.semantic.dense_calibration import apply_probability

    scored = [Scored(tool=t, confidence=c, raw=c, breakdown={"example": c}, evidence=["like: x"], pattern_params={},
                     match_type="example") for t, c in ((3, 0.61), (1, 0.4), (7, 0.4))]
    fusion = SimpleNamespace(fused={3: 1.5, 1: 0.5, 7: 0.5})
    out = apply_probability(scored, 0.7, fusion)
    expected = []
    for s, c in zip(scored, (0.7, round(min(0.7 * np.exp(-1.0), 0.3 * 0.5), 4), round(min(0.7 * np.exp(-1.0), 0.3 * 0.5), 4))):
        expected.append(replace(s, confidence=round(c, 4), breakdown={"example": s.breakdown["example"],
                                                                       "calibration": round(round(c, 4) - s.breakdown["example"], 4)}))
    assert out == expected and all(type(s) is Scored for s in out)


# ---------------------------------------------------------------- the token table


def test_token_ids_and_norm_are_as_they_were():
    from routing.semantic.tokentable import token_table

    enc = token_table()
    if enc is None:
        pytest.skip("no token table")
    texts = ["Find the SLA of the compute service. Then back up /home/user/data.", "", "naïve café — 37.5%!",
             "tagihan yang belum dibayar bulan lalu", "x" * 50]
    for text in texts:
        assert enc.token_ids(text) == [t for w in enc.WORD.findall(text) for t in enc._word_ids(w)]
        ids = enc.token_ids(text)
        out = np.zeros((1, enc.dimension), dtype=np.float32)
        if ids:
            out[0] = enc.table[ids].sum(axis=0, dtype=np.float32)
        norm = np.linalg.norm(out, axis=1, keepdims=True)
        norm[norm == 0] = 1.0
        assert enc.encode([text]).tobytes() == (out / norm).tobytes()


def test_plain_wordpiece_gives_the_tokenizers_ids():
    """A word of ASCII letters and digits is split by _wordpiece, not the tokenizer: the same ids on the
    shipped domains' words, common words of the languages (wordfreq), made-up words of any case and length."""
    from routing.core.lexicon import list_domain_names, load_domain
    from routing.semantic.tokentable import _wordpiece, token_table

    enc = token_table()
    if enc is None:
        pytest.skip("no token table")
    assert enc._pieces is not None  # the shipped table's tokenizer is BERT's plain WordPiece
    found: set[str] = set()
    for name in list_domain_names():
        d = load_domain(name)
        for t in d.tools:
            for text in (t.name, t.description, *(e for _, e in t.examples)):
                found.update(enc.WORD.findall(text or ""))
    try:
        import wordfreq

        for lang in ("en", "id"):
            found.update(wordfreq.top_n_list(lang, 20_000))
    except ImportError:  # pragma: no cover - wordfreq is a requirement
        pass
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    found.update("".join(rng.choice(letters) for _ in range(rng.randint(1, 16))) for _ in range(10_000))
    found.update(["a" * 99, "a" * 100, "a" * 101, "x1" * 60, "Z", "0", "007", "unaffable", "zzzzqqq"])
    words = sorted(w for w in found if w.isascii() and w.isalnum())
    assert len(words) > 20_000
    for w in words:
        assert _wordpiece(w.lower(), *enc._pieces) == enc.tokenizer.encode(w, add_special_tokens=False).ids, w


def test_token_rows_held_as_float32_are_the_float16_tables_sums():
    """encode reads the float16 values held as float32: the same float32 sums as numpy's over the float16
    rows cast (the table as it was held), row after row."""
    from routing.semantic.tokentable import DEFAULT_TABLE_DIR, load_table, token_table

    enc = token_table()
    if enc is None:
        pytest.skip("no token table")
    half = load_table(DEFAULT_TABLE_DIR).astype(np.float16)
    assert enc.table.dtype == np.float32 and enc.table.tobytes() == half.astype(np.float32).tobytes()
    rng = np.random.default_rng(7)
    for n in (1, 2, 5, 40, 300):
        ids = rng.integers(0, len(enc.table), n).tolist()
        want = half[ids].sum(axis=0, dtype=np.float32)
        assert np.add.reduce(enc.table.take(ids, axis=0), axis=0).tobytes() == want.tobytes()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["invoice", "card", "get", "a+b", "card+get", "~the", "~to", "#num", "#pct", "unseen", "zz+yy", "rare"]),
                max_size=30),
       st.dictionaries(st.sampled_from(["invoice", "card", "get", "a+b", "card+get", "~the", "#num", "rare"]),
                       st.floats(0.01, 12.0)),
       st.dictionaries(st.sampled_from(["invoice", "card", "get", "rare", "unseen"]), st.floats(0.01, 12.0)),
       st.floats(1.0, 3.0), st.floats(0.0, 5.0))
def test_query_terms_are_the_loops(features, idf, vec_idf, k1, unseen):
    from routing.core.example_arrays import QueryTerms

    reachable = 0.0  # score_example's loops, as they were
    for f in features:
        w = idf.get(f)
        if w is None:
            if "+" not in f and f[0] not in "~#":
                reachable += 0.25 * unseen * (k1 + 1)
            continue
        reachable += w * (k1 + 1)
    words_only = [f for f in features if "+" not in f and f[0] not in "~#"]
    unseen_vec = (0.25 * unseen) ** 2
    squares = sum(vec_idf[f] ** 2 if f in vec_idf else unseen_vec for f in words_only)
    terms = QueryTerms(idf, k1 + 1, 0.25 * unseen * (k1 + 1), vec_idf, unseen_vec)
    for _ in range(2):  # the second read from the per-feature terms kept by the first
        got = terms.read(features)
        assert (got[0], got[1], got[2]) == (reachable, words_only, squares)
        assert math.copysign(1.0, got[0]) == math.copysign(1.0, reachable)
