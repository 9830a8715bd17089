"""The nearest example question of each leading tool, as array work (a domain with many examples).

score_example's nearest-example cosine adds, per tool, each query word's weight in every example
of the tool that uses it. With ten thousand examples a common word ("card") is in thousands of
them, and a Python loop over them costs a millisecond. Here the same sums run in numpy: one dense
vector of dot products over all examples, one indexed add per query word, then one argmax per
leading tool over its examples (which are numbered contiguously, tool after tool).

The result is exactly the loop's: each product `ew * idf` is the one the loop computes, added to
each example in the same word order (IEEE sums of the same terms in the same order), and argmax
keeps the first of equal maxima, as the loop's `max(..., key=(dot, -example))` does. Built only
when it is exact: every weight above zero (a tool is then touched iff its best dot is > 0).
"""
from __future__ import annotations

MIN_EXAMPLES = 1000  # below this, the loop is as fast and numpy need not be imported


class NearestExamples:
    def __init__(self, postings: dict[str, tuple], ranges: list[tuple[int, int]], n_examples: int):
        self.postings = postings  # word -> (example ids, products ew * idf), numpy arrays
        self.ranges = ranges  # tool -> (first example, one past its last)
        self.n_examples = n_examples

    @classmethod
    def build(cls, example_tool: list[int], by_tool_feature: dict, vec_idf: dict, n_tools: int) -> "NearestExamples | None":
        """None when the domain is small, its examples are not numbered tool after tool, or a
        weight is not above zero (then the loop in score_example stays the one way)."""
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
        words: dict[str, tuple[list[int], list[float]]] = {}
        for (_, f), entries in by_tool_feature.items():
            ids, vals = words.setdefault(f, ([], []))
            for e, ew in entries:
                product = ew * vec_idf[f]
                if not product > 0:
                    return None
                ids.append(e)
                vals.append(product)
        postings = {f: (np.array(ids, dtype=np.int64), np.array(vals, dtype=np.float64)) for f, (ids, vals) in words.items()}
        return cls(postings, ranges, n)

    def nearest(self, words_only: list[str], leaders: list[int], qnorm: float) -> dict[int, tuple[float, int]]:
        """Tool -> (cosine of its nearest example, that example) for each leader with a shared word."""
        import numpy as np

        dots = np.zeros(self.n_examples)
        for f in words_only:
            p = self.postings.get(f)
            if p is not None:
                dots[p[0]] += p[1]  # an example appears once per word: a plain indexed add
        out: dict[int, tuple[float, int]] = {}
        for t in leaders:
            s, e = self.ranges[t]
            if s == e:
                continue
            j = s + int(dots[s:e].argmax())
            best = float(dots[j])
            if best > 0:
                out[t] = (best / (qnorm or 1.0), j)
        return out
