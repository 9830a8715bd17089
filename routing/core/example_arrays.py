"""score_example for a domain with many examples, as array work: the same numbers, faster.

With ten thousand examples a common word ("card") is in thousands of them and in every tool's
document, and the loops of routing.core.scoring.score_example cost a millisecond or two. Here:

- the tool documents' BM25 scores are one dense vector over tools, one indexed add per feature
  (a posting in a quarter of the tools or more: one vector add);
- the nearest-example dot products are one dense vector over examples, one indexed add per query
  word, then one argmax per leading tool over its examples (numbered contiguously, tool by tool);
- a question of several sentences fuses its sentences' scores only for the tools that can lead
  (routing.core.sentences.FusedScores); the values are made for every tool only when an array of
  them is read, and a tool's value or Signal (with its evidence) when it is asked for: combine reads
  the leaders alone where they settle its top (ExampleSignals.leaders_raw).

Why it is exactly the loops' result: every term (a posting's weight, a product `ew * idf`) is
the float the loop computes, each sum adds the same terms in the same order starting from 0.0
(x + 0.0 == x), elementwise numpy arithmetic is the same IEEE arithmetic as Python's, and
argmax keeps the first of equal maxima as the loop's `max(..., key=(dot, -example))` does. Built
only when that holds: every weight above zero (so "touched" is "above zero") and examples numbered
tool by tool. The leaders (the best `example_nearest_tools` tools) are the loop's when the last of
them scores strictly above the next; on a tie the loop's order (first touched first) decides.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import reduce
from itertools import compress
from operator import add, itemgetter

from routing.core.wordcache import remember

MIN_EXAMPLES = 1000  # below this, the loops are as fast and numpy need not be imported
# A posting this long (a share of the vector it is added into) is kept as a dense vector: one vector
# add beats thousands of indexed ones (Seal-Tools: stop words and "get" are in 2,000-4,000 of 4,076
# tool documents, 85 % of a question's posting entries).
DENSE_SHARE = 1 / 4  # (Seal-Tools: 1/2 to 1/8 measured alike; not for the example dot products, where it was slower)


class ExampleArrays:
    def __init__(self, tool_postings, word_postings, ranges, n_tools: int, n_examples: int):
        self.tool_postings = tool_postings  # feature -> (tool ids, BM25 weights), as example_postings
        self.word_postings = word_postings  # word -> (example ids, products ew * idf)
        self.ranges = ranges  # tool -> (first example, one past its last)
        self.n_tools = n_tools
        self.n_examples = n_examples
        self.tool_lookup = _lookup(tool_postings, n_tools, DENSE_SHARE)
        self.word_lookup = _lookup(word_postings, n_examples + 1, None)  # postings only (no dense vectors)
        self._query_terms = None  # score_example's per-feature terms (QueryTerms), made on the first question
        # Each tool's examples as a row of example ids padded with n_examples (a slot that reads
        # -1.0, below any dot product), so the leaders' nearest examples are one argmax per row;
        # None when one tool's many examples would make the table much larger than the examples.
        import numpy as np

        width = max((e - s for s, e in ranges), default=0)
        self.padded = None
        if 0 < width and n_tools * width <= 4 * n_examples + 1024:
            padded = np.full((n_tools, width), n_examples, dtype=np.int64)
            for t, (s, e) in enumerate(ranges):
                padded[t, : e - s] = np.arange(s, e)
            self.padded = padded

    @classmethod
    def build(cls, example_tool: list[int], example_postings: dict, by_tool_feature: dict, vec_idf: dict,
              n_tools: int) -> "ExampleArrays | None":
        """None when the domain is small, its examples are not numbered tool after tool, or a
        weight is not above zero (then the loops in score_example stay the one way)."""
        n = len(example_tool)
        if n < MIN_EXAMPLES or any(b < a for a, b in zip(example_tool, example_tool[1:])):
            return None
        import numpy as np

        ranges = [(0, 0)] * n_tools
        start = 0
        for e in range(1, n + 1):
            if e == n or example_tool[e] != example_tool[start]:
                ranges[example_tool[start]] = (start, e)
                start = e
        if any(not tw > 0 for p in example_postings.values() for _, tw in p):
            return None
        tool_postings = {f: (np.array([t for t, _ in p], dtype=np.int64), np.array([tw for _, tw in p], dtype=np.float64))
                         for f, p in example_postings.items()}
        words: dict[str, tuple[list[int], list[float]]] = {}
        for (_, f), entries in by_tool_feature.items():
            ids, vals = words.setdefault(f, ([], []))
            for e, ew in entries:
                product = ew * vec_idf[f]
                if not product > 0:
                    return None
                ids.append(e)
                vals.append(product)
        word_postings = {f: (np.array(ids, dtype=np.int64), np.array(vals, dtype=np.float64)) for f, (ids, vals) in words.items()}
        return cls(tool_postings, word_postings, ranges, n_tools, n)

    def score(self, index, features, reachable: float, words_only: list[str], qnorm: float,
              sentences: list[list[str]] = ()) -> "ExampleSignals | dict":
        """score_example's result for the query's `features` (in the loop's order); `sentences`: the
        features of each sentence of a question of several (routing.core.sentences)."""
        import numpy as np

        from routing.core.sentences import FusedScores

        fused = FusedScores(self.tool_scores(features), [self.tool_scores(fs) for fs in sentences])
        k = index.example_nearest_tools
        # The k+1 best in a stable order (score, then tool number), without sorting every tool. Which
        # of equal scores at the cut the partition keeps is its own: the leaders are order[:k] only
        # where the k-th best beats the next (else the tie rule below), and any choice gives that.
        found = fused.best_of(k)
        if found is not None:  # the few tools that can be among the k+1 best, with their scores
            ids, best = found
            first = np.lexsort((ids, -best))[: k + 1]
            order, top = ids[first], best[first].tolist()
        else:
            scores = fused.array()
            n = len(scores)
            if n > 4 * (k + 1):
                part = np.argpartition(scores, n - k - 1)[n - k - 1:]
                order = part[np.lexsort((part, -scores[part]))]
            else:
                order = np.argsort(-scores, kind="stable")[: k + 1]
            top = scores[order].tolist()
        if not top[0] > 0:
            return {}
        ranked = None
        if len(order) <= k or top[k - 1] > top[k]:
            leaders = [t for t, s in zip(order[:k].tolist(), top) if s > 0]
            # every other tool scores at most the next one's (none past the last)
            ranked = (leaders, int(order[k]) if len(order) > k and top[k] > 0 else None)
        else:  # a tie at the cut: heapq.nlargest's choice (a stable sort), over tools in the order they were touched
            scores = fused.array()
            first = np.full(self.n_tools, np.iinfo(np.int64).max, dtype=np.int64)
            seen = 0
            for f in features:
                p = self.tool_postings.get(f)
                if p is not None:
                    ids = p[0]
                    fresh = first[ids] == np.iinfo(np.int64).max
                    first[ids[fresh]] = seen + np.flatnonzero(fresh)
                    seen += len(ids)
            cand = np.flatnonzero(scores >= scores[order[k - 1]])  # only these can be among the k best
            leaders = [int(t) for t in cand[np.lexsort((first[cand], -scores[cand]))][:k]]
        nearest = self.nearest(words_only, leaders, qnorm)
        return ExampleSignals.of_scores(fused, index.example_tool_share, reachable or 1.0, nearest, index.example_text, ranked)

    def query_terms(self, idf: dict, kk: float, unseen_term: float, vec_idf: dict, unseen_vec: float) -> "QueryTerms":
        """The per-feature terms of score_example's sums for these constants (made again where they change)."""
        terms = self._query_terms
        if terms is None or not terms.same(idf, kk, unseen_term, vec_idf, unseen_vec):
            terms = self._query_terms = QueryTerms(idf, kk, unseen_term, vec_idf, unseen_vec)
        return terms

    def tool_scores(self, features) -> "np.ndarray":
        """The tool documents' BM25 score of each tool for these features."""
        return _sums(features, self.tool_lookup, self.n_tools)

    def nearest(self, words_only: list[str], leaders: list[int], qnorm: float) -> dict[int, tuple[float, int]]:
        """Tool -> (cosine of its nearest example, that example) for each leader with a shared word."""
        import numpy as np

        if not any(f in self.word_postings for f in words_only):
            return {}
        dots = _sums(words_only, self.word_lookup, self.n_examples + 1)  # as tool_scores: the loop's sums
        out: dict[int, tuple[float, int]] = {}
        if self.padded is not None and leaders:
            # The loop below as array work: a row's argmax is its first maximum, as argmax of a slice.
            dots[self.n_examples] = -1.0
            rows = self.padded[leaders]
            best_at = dots[rows].argmax(axis=1)
            js = rows[np.arange(len(leaders)), best_at]
            for t, j, best in zip(leaders, js.tolist(), dots[js].tolist()):
                if best > 0:
                    out[t] = (best / (qnorm or 1.0), j)
            return out
        for t in leaders:
            s, e = self.ranges[t]
            if s == e:
                continue
            j = s + int(dots[s:e].argmax())
            best = float(dots[j])
            if best > 0:
                out[t] = (best / (qnorm or 1.0), j)
        return out


class QueryTerms:
    """score_example's per-feature terms, kept per feature (bounded, routing.core.wordcache): its
    `reachable` term (idf x kk for a known feature, `unseen_term` for an unseen word, 0.0 for an unseen
    bigram, stop word or shape), whether it is a word, and its part of the query vector's squared norm
    (vec_idf squared, or `unseen_vec` where unseen). A question's sums then read each feature once, in C."""

    def __init__(self, idf: dict, kk: float, unseen_term: float, vec_idf: dict, unseen_vec: float):
        self.idf, self.kk, self.unseen_term, self.vec_idf, self.unseen_vec = idf, kk, unseen_term, vec_idf, unseen_vec
        self._terms: dict[str, tuple[float, bool, float]] = {}

    def same(self, idf: dict, kk: float, unseen_term: float, vec_idf: dict, unseen_vec: float) -> bool:
        return (idf is self.idf and vec_idf is self.vec_idf and kk == self.kk and unseen_term == self.unseen_term
                and unseen_vec == self.unseen_vec)

    def _term(self, f: str) -> tuple[float, bool, float]:
        w = self.idf.get(f)
        word = "+" not in f and f[0] not in "~#"
        reach = w * self.kk if w is not None else (self.unseen_term if word else 0.0)
        v = self.vec_idf.get(f) if word else None
        return remember(self._terms, f, (reach, word, v ** 2 if v is not None else self.unseen_vec))

    def read(self, features: list[str]) -> tuple[float, list[str], float]:
        """(score_example's `reachable`, the words among the features in order, the sum of their squared
        norm parts as score_example's sum() makes it). A skipped feature's 0.0 adds nothing to
        `reachable` (x + 0.0 == x; the sum starts at 0.0 and is never -0.0)."""
        terms = list(map(self._terms.get, features))
        if None in terms:  # an unseen bigram (most of a new question's misses) adds nothing and is not kept
            idf = self.idf
            terms = [t if t is not None else _NOTHING if "+" in f and f not in idf else self._term(f) for t, f in zip(terms, features)]
        words = list(map(_is_word, terms))
        return (reduce(add, map(_reach, terms), 0.0), list(compress(features, words)),
                sum(compress(map(_vec_part, terms), words)))


_reach, _is_word, _vec_part = itemgetter(0), itemgetter(1), itemgetter(2)
_NOTHING = (0.0, False, 0.0)  # an unseen bigram's terms: no reachable part, no word


def _lookup(postings: dict, size: int, share: float | None) -> dict:
    """feature -> its posting as raw bytes (ids as intp, weights as float64), or for a posting of `share`
    of `size` or more whose ids all differ (None: never), the same as a dense vector (0.0 where absent;
    one weight per id): one dict read a feature. Bytes because a question's postings are laid end to end
    for bincount: b"".join is one memcpy a posting, np.concatenate of ~20 small arrays cost ~6x more
    (Seal-Tools: ~35 -> ~6 us a call, ~6 calls a question)."""
    import numpy as np

    out = {}
    for f, (ids, weights) in postings.items():
        if share is not None and len(ids) >= max(share * size, 1) and len(np.unique(ids)) == len(ids):
            v = np.zeros(size)
            v[ids] = weights
            out[f] = v
        else:
            out[f] = (np.asarray(ids, dtype=np.intp).tobytes(), np.asarray(weights, dtype=np.float64).tobytes())
    return out


def _laid(run: list) -> tuple:
    """A run of byte postings laid end to end: (ids, weights) arrays, read-only views of the joined bytes."""
    import numpy as np

    ids, weights = zip(*run)
    return np.frombuffer(b"".join(ids), dtype=np.intp), np.frombuffer(b"".join(weights), dtype=np.float64)


def _sums(features, lookup: dict, size: int):
    """Each id's weights summed over the features' postings in the features' order, from 0.0: the loop's
    sums exactly. np.bincount over the postings laid end to end adds in that order; with a dense vector
    among them, the same adds in the same order: np.add.at (unbuffered, in index order) for the postings
    and one vector add for the dense one, whose 0.0 where a posting has no entry changes no sum
    (x + 0.0 == x: every weight is above zero, so no sum is -0.0)."""
    import numpy as np

    # The postings found, in order; each run of (ids, weights) between dense vectors is laid end to end
    # (_laid: the run's bytes joined in C, not two appends a posting).
    ps = [p for p in map(lookup.get, features) if p is not None]
    out = None
    start = 0
    for i, p in enumerate(ps):
        if type(p) is tuple:
            continue
        if start < i:
            ids, weights = _laid(ps[start:i])
            if out is None:  # from 0.0: bincount is add.at into zeros
                out = np.bincount(ids, weights=weights, minlength=size)
            else:
                np.add.at(out, ids, weights)
            np.add(out, p, out=out)
        elif out is None:
            out = p.copy()  # 0.0 + x == x
        else:
            np.add(out, p, out=out)
        start = i + 1
    if start < len(ps):
        ids, weights = _laid(ps[start:])
        if out is None:
            return np.bincount(ids, weights=weights, minlength=size)
        np.add.at(out, ids, weights)
    return np.zeros(size) if out is None else out


class ExampleSignals(Mapping):
    """tool -> Signal for every tool the query's features touch; a Signal is built when asked for.
    `values` (per tool, 0 where untouched) lets combine rank them all without building any; made from
    the scores when first read (`of_scores`), and a tool's value alone without them (`value`)."""

    def __init__(self, values, touched, nearest: dict[int, tuple[float, int]], texts: list[str], ranked=None):
        self._values, self._touched, self.nearest, self.texts = values, touched, nearest, texts
        self.ranked = ranked  # (leaders, the next tool or None): every tool not a leader scores at most the next's
        self._scores = None
        self._built: dict = {}
        self._value_of: dict[int, float] = {}

    @classmethod
    def of_scores(cls, scores, share: float, reachable: float, nearest, texts, ranked=None) -> "ExampleSignals":
        """From the tools' scores (routing.core.sentences.FusedScores): values made when first read."""
        out = cls(None, None, nearest, texts, ranked)
        out._scores, out._share, out._reachable = scores, share, reachable
        return out

    @property
    def values(self):
        """min(1, share x score / reachable + (1 - share) x cosine): the cosine is 0.0 but for the
        nearest tools' (adding 0.0 changes nothing), which get the sum's other term one by one."""
        if self._values is None:
            import numpy as np

            share = self._share
            base = share * self._scores.array() / self._reachable
            values = np.minimum(1.0, base)
            for t, (c, _) in self.nearest.items():
                values[t] = min(1.0, float(base[t]) + (1 - share) * min(c, 1.0))
            self._values = values
        return self._values

    @property
    def touched(self):
        if self._touched is None:
            self._touched = self._scores.array() > 0
        return self._touched

    def value(self, t: int) -> float:
        """values[t], with the same operations on the one tool where the array is not made."""
        if self._values is not None:
            return float(self._values[t])
        v = self._value_of.get(t)
        return v if v is not None else self.values_of([t])[0]

    def values_of(self, ts: list[int]) -> list[float]:
        """[value(t) for t in ts], the tools' scores read in one go (leaders_raw reads thirty)."""
        if self._values is not None:
            return self._values[ts].tolist()
        share, reachable, nearest = self._share, self._reachable, self.nearest
        out = []
        for t, score in zip(ts, self._scores.many(ts)):
            v = share * score / reachable
            near = nearest.get(t)
            if near is not None:  # np.minimum(1.0, v + (1 - share) * min(c, 1.0)) as conditionals (min() is slower)
                c = near[0]
                v = v + (1 - share) * (1.0 if 1.0 < c else c)
            out.append(1.0 if 1.0 < v else v)
        self._value_of.update(zip(ts, out))  # combine's Signals read the leaders' again
        return out

    def _has(self, t: int) -> bool:
        if self._scores is not None:
            return 0 <= t < len(self._scores.full) and self._scores.at(t) > 0
        return 0 <= t < len(self._touched) and bool(self._touched[t])

    def _build(self, t: int):
        from routing.core.scoring import Signal

        value = self.value(t)
        e = self.nearest.get(t, (0.0, -1))[1]
        sig = self._built[t] = Signal(value=value, parts={"example": value}, evidence=[f'"{self.texts[e]}"'] if e >= 0 else [])
        return sig

    def __getitem__(self, t: int):
        sig = self._built.get(t)
        if sig is None:
            if not self._has(t):
                raise KeyError(t)
            sig = self._build(t)
        return sig

    def get(self, t: int, default=None):
        sig = self._built.get(t)
        if sig is not None:
            return sig
        return self._build(t) if self._has(t) else default

    def value_or_none(self, t: int) -> float | None:
        """get(t).value, without building the Signal where it is not built (a sum needs the value alone)."""
        sig = self._built.get(t)
        if sig is not None:
            return sig.value
        return self.value(t) if self._has(t) else None

    def __iter__(self):
        return iter(self.touched.nonzero()[0].tolist())

    def __len__(self) -> int:
        return int(self.touched.sum())

    def leaders_raw(self, base: float, weight: float, others, top: int) -> dict[int, float] | None:
        """scoring.example_only_raw's result read off the leaders alone, or None where they do not
        settle it. The raw sum `base + weight x value` (weight above 0) rises with the value, and the
        value with the score but for the leaders' cosine term: every other tool's sum is at most the
        next tool's, U. So where at least top+1 leaders are kept (touched, value and sum above 0, not
        in `others`) and the (top+1)-th best of them is at least U, the top-th and (top+1)-th best of
        all are theirs; where U is also below the cut they make, no other tool is kept either."""
        if self.ranked is None or not weight > 0:
            return None
        leaders, after = self.ranked
        kept = {}
        values = self.values_of(leaders if after is None else [*leaders, after])
        for t, v in zip(leaders, values):
            if t not in others and v > 0 and base + weight * v > 0:
                kept[t] = base + weight * v
        bound = base + weight * values[-1] if after is not None else float("-inf")
        if len(kept) <= top:  # all of them when no other tool is kept
            return dict(sorted(kept.items())) if after is None else None
        best = sorted(kept.values(), reverse=True)
        if best[top] < bound:
            return None
        cut = min(round(min(best[top - 1], 1.0), 4) - 0.00005, best[top])
        if not bound < cut:
            return None
        return {t: r for t, r in sorted(kept.items()) if r >= cut}
