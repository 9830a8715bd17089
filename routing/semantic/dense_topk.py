"""The dense list's best rows without the full product: exactly the rows, values and order that
np.einsum("ij,j->i", matrix, q) over every row would give, read for the few rows that can rank.

A question's cosine with 4,076 tool texts of 384 floats is a 6 MB pass per question (about half a
millisecond on Seal-Tools). Here each row is first read in a small projection onto the catalog's
DIMS principal directions (float32, a third of the floats): its product with the question's
projection, plus at most |the row's rest| x |the question's rest| (Cauchy-Schwarz) for what the
projection leaves out, plus MARGIN for the float error of both products, bounds the row's einsum
value from above. The einsum values of the k rows that lead by projection are a floor that k real
rows reach; a row whose bound is below it cannot be among the k best. Only the rows left (about a
hundred of 4,076 on Seal-Tools dev) get the exact einsum, and einsum's value of a row does not
depend on the other rows (tests/test_scoring_speedups.py checks that on every row). Where the
k-th value ties with the next, which row the full path's argpartition keeps is its own choice:
None, and the caller runs the full product.
"""
from __future__ import annotations

import math

import numpy as np

DIMS = 128  # Seal-Tools dev: 96 left ~260 candidate rows a question, 128 ~125, 160 ~70 (cost of the projection grows)
MIN_ROWS = 1000  # below this the full product is as fast
CHUNK = 1024
# Both float32 products (the projection's and einsum's) err by at most ~d x 2^-24 x |row| x |q|
# (2.3e-5 at 384); four times that, for unit rows and question.
MARGIN = 1e-4

_rowdot = getattr(np, "vecdot", None)  # one BLAS dot a row, one thread (numpy >= 2); einsum before


def _one_blas_thread():
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a requirement; without it the build is only slower
        from contextlib import nullcontext

        return nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _dot_rows(a: np.ndarray, v: np.ndarray) -> np.ndarray:
    return _rowdot(a, v) if _rowdot is not None else np.einsum("ij,j->i", a, v)


class TopRows:
    """The projection of one matrix (built once per dense list)."""

    def __init__(self, matrix: np.ndarray):
        chunks = [slice(i, i + CHUNK) for i in range(0, len(matrix), CHUNK)]  # float64 a chunk at a time: no 4x copy
        gram = np.zeros((matrix.shape[1],) * 2)
        for c in chunks:
            m = matrix[c].astype(np.float64)
            gram += m.T @ m
        _, vectors = np.linalg.eigh(gram)
        basis = np.ascontiguousarray(vectors[:, ::-1][:, :DIMS])  # the DIMS principal directions, orthonormal
        self.basis_t = np.ascontiguousarray(basis.T)
        self.projected = np.empty((len(matrix), DIMS), dtype=np.float32)
        rest = np.empty(len(matrix))  # each row's part outside the projection
        scale = 0.0
        for c in chunks:
            m = matrix[c].astype(np.float64)
            projected = m @ basis
            self.projected[c] = projected
            rest[c] = np.linalg.norm(m - projected @ self.basis_t, axis=1)
            scale = max(scale, float(np.linalg.norm(m, axis=1).max(initial=0.0)))
        self.scale = scale
        self.rest = np.nextafter(rest.astype(np.float32), np.float32(np.inf))  # in float32 rounded up: still a bound

    @classmethod
    def build(cls, matrix: np.ndarray) -> "TopRows | None":
        """None where the full product is as fast or the bound would not hold (non-finite rows)."""
        if matrix.ndim != 2 or matrix.dtype != np.float32 or len(matrix) < MIN_ROWS or matrix.shape[1] < 2 * DIMS:
            return None
        if not np.isfinite(matrix).all():
            return None
        with _one_blas_thread():  # threaded BLAS spins on a busy machine: 2.5 s of CPU for a 0.1 s build
            return cls(matrix)

    def best(self, matrix: np.ndarray, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray] | None:
        """(rows, their einsum values) of the k best rows, best first and by row number among equals,
        as the full product ranks them; None where that cannot be told from the bound (see above)."""
        q64 = q.astype(np.float64)
        norm = math.sqrt(float(q64 @ q64))
        if not (0 < k < len(matrix)) or not norm * self.scale < 2.0:  # |cosine| < 2 as the full path assumes; not NaN
            return None
        pq = _dot_rows(self.basis_t, q64)
        rest_q = math.sqrt(max(norm * norm - float(pq @ pq), 0.0))
        approx = _dot_rows(self.projected, pq.astype(np.float32))
        n = len(approx)
        lead = np.argpartition(approx, n - k)[n - k:]
        floor = np.einsum("ij,j->i", matrix[lead], q).min()
        # approx + (rest x |q's rest| + MARGIN), in float32 (its rounding, ~1e-7 here, is well inside MARGIN),
        # made in place: the same sums (a + b == b + a) without two temporaries of every row
        upper = self.rest * np.float32(rest_q)
        upper += np.float32(MARGIN * max(self.scale, 1.0) * max(norm, 1.0))
        upper += approx
        rows = np.flatnonzero(upper >= floor)
        values = np.einsum("ij,j->i", matrix.take(rows, axis=0), q)
        order = np.lexsort((rows, -values))
        if len(rows) > k and values[order[k - 1]] == values[order[k]]:
            return None
        order = order[:k]
        return rows[order], values[order]
