"""Per-row sums for the batches, bit for bit as numpy sums one row: costs and mass centres.

A single env prices ``np.square(values).sum()`` (actions, contact forces); a batch must get
the same last bits for every row. ``sum(axis=1)`` does not give them from 8 numbers a row
on (numpy then adds down the columns, left to right), so :func:`plain_square_sums` sums row
by row: the specification. :func:`square_sums` gets the same numbers as whole-column array
operations by following numpy's pairwise summation of one contiguous vector (up to 128
numbers: eight running sums over blocks of eight, combined in pairs, then the rest left to
right), and is used only when a check against the plain version on this numpy holds; the
optional compiled module does those sums in one C loop (:func:`_pairwise_rows` its
specification).

:func:`weighted_rows` does the same for Humanoid's mass centre (``np.einsum("b,bj->j",
weights, row)`` of each row): one C loop where einsum sums left to right from zero on this
numpy (checked for rows of that shape, signed zeros included), else one batched contraction
where it equals the per-row contractions.

:func:`row_dots` gives each row's ``row.dot(row)`` (the dot product ``np.linalg.norm`` takes
a vector's length by: BLAS, whose fused multiply-adds no elementwise expression rounds
alike) from one stacked ``matmul`` of each row with itself, which numpy hands to the same
dot routine row by row; used where a check against the per-row products holds.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from palaestra_mujoco._native import compiled

__all__ = [
    "pairwise_holds",
    "plain_row_dots",
    "plain_square_sums",
    "plain_weighted_rows",
    "row_dots",
    "square_sums",
    "weighted_rows",
]

# numpy sums a vector of up to this many numbers in one pairwise block (longer ones are
# split in halves first: left to the plain version).
_BLOCK = 128


def plain_square_sums(values: np.ndarray) -> np.ndarray:
    """``np.square(row).sum()`` of each row of ``values`` (its first axis), in its dtype."""
    return np.array([np.square(row).sum() for row in values], dtype=values.dtype)


def square_sums(values: np.ndarray) -> np.ndarray:
    """:func:`plain_square_sums`, as array operations over the rows when they are known equal.

    In one C loop where the compiled module was built (the same pairwise sums, row by row).
    """
    rows = values.reshape(len(values), -1)
    if rows.shape[1] > _BLOCK or not _pairwise_holds():
        return plain_square_sums(values)
    if compiled is not None:
        sums = np.empty(len(rows), dtype=rows.dtype)
        if compiled.square_sums(rows, sums):  # float64 or float32 rows
            return sums
    return _pairwise_rows(np.square(rows))


def _pairwise_rows(squares: np.ndarray) -> np.ndarray:
    """The pairwise sum numpy gives each row of ``squares`` (``(rows, n)``, ``n <= 128``)."""
    n = squares.shape[1]
    if n < 8:  # left to right from zero
        total = np.zeros(len(squares), dtype=squares.dtype)
        for j in range(n):
            total += squares[:, j]
        return total
    whole = n - n % 8
    running = squares[:, :8].copy()
    for start in range(8, whole, 8):
        running += squares[:, start : start + 8]
    r = running.T
    total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for j in range(whole, n):  # the rest, left to right
        total += squares[:, j]
    result: np.ndarray = total
    return result


@functools.cache
def _pairwise_holds() -> bool:
    """Whether :func:`_pairwise_rows` equals the plain sums on this numpy (checked once)."""
    rng = np.random.default_rng(0)
    samples = [
        (rng.standard_normal((16, n)) * rng.uniform(1e-3, 1e3, (16, 1))).astype(dtype)
        for dtype in (np.float64, np.float32)
        for n in (1, 3, 7, 8, 9, 16, 17, 30, 78, 84, 127, 128)
    ]
    return all(
        np.array_equal(_pairwise_rows(np.square(sample)), plain_square_sums(sample)) for sample in samples
    )


def pairwise_holds() -> bool:
    """Whether :func:`square_sums` follows numpy's pairwise sums on this numpy (as C loops that sum so may)."""
    return _pairwise_holds()


def plain_weighted_rows(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``np.einsum("b,bj->j", weights, row)`` of each row of ``rows`` (``(n, b, j)``)."""
    return np.array([np.einsum("b,bj->j", weights, row) for row in rows]).reshape(len(rows), rows.shape[2])


def weighted_rows(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """:func:`plain_weighted_rows`, as one contraction where it is known equal for this shape.

    In one C loop (each sum left to right from zero) where the compiled module was built and
    a check finds einsum summing so on this numpy for rows of this shape.
    """
    if compiled is not None and _sequential_holds(rows.shape[1:], weights.dtype, rows.dtype):
        sums = np.empty((len(rows), rows.shape[2]))
        if compiled.weighted_sums(weights, rows, sums):
            return sums
    if not _contraction_holds(rows.shape[1:], weights.dtype, rows.dtype):
        return plain_weighted_rows(weights, rows)
    result: np.ndarray = np.einsum("b,nbj->nj", weights, rows)
    return result


def _weighted_samples(shape: tuple[int, ...], *dtypes: np.dtype[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Weights and rows of ``shape`` to check a contraction by: wild sizes, zero weights, signed zeros."""
    rng = np.random.default_rng(0)
    weights = rng.uniform(1e-2, 1e2, shape[0]).astype(dtypes[0])
    weights[0] = 0.0  # a world body's mass
    rows = (rng.standard_normal((64, *shape)) * rng.uniform(1e-3, 1e3, (64, 1, 1))).astype(dtypes[1])
    rows[0] = -0.0
    rows[1, ::2] = -0.0
    return weights, rows


@functools.cache
def _sequential_holds(shape: tuple[int, ...], *dtypes: np.dtype[Any]) -> bool:
    """Whether the C loop's sums equal the per-row contractions for rows of ``shape`` (checked once)."""
    if compiled is None or len(shape) != 2 or any(dtype != np.float64 for dtype in dtypes):
        return False
    weights, rows = _weighted_samples(shape, *dtypes)
    sums = np.empty((len(rows), shape[1]))
    if not compiled.weighted_sums(weights, rows, sums):
        return False
    return sums.tobytes() == plain_weighted_rows(weights, rows).tobytes()


@functools.cache
def _contraction_holds(shape: tuple[int, ...], *dtypes: np.dtype[Any]) -> bool:
    """Whether the batched contraction equals the per-row ones for rows of ``shape`` (checked once)."""
    weights, rows = _weighted_samples(shape, *dtypes)
    return np.array_equal(np.einsum("b,nbj->nj", weights, rows), plain_weighted_rows(weights, rows))


def plain_row_dots(vectors: np.ndarray) -> np.ndarray:
    """``row.dot(row)`` of each row of ``vectors`` (``(n, k)``)."""
    return np.array([row.dot(row) for row in vectors], dtype=vectors.dtype)


def row_dots(vectors: np.ndarray) -> np.ndarray:
    """:func:`plain_row_dots`, as one stacked product where it is known equal on this numpy."""
    # numpy hands a backward or broadcast vector to its own loop rather than BLAS: the plain way.
    if vectors.ndim != 2 or vectors.strides[1] <= 0 or not _stacked_dot_holds():
        return plain_row_dots(vectors)
    return _stacked_dots(vectors)


def _stacked_dots(vectors: np.ndarray) -> np.ndarray:
    """Each row times itself as one stacked ``(1, k) @ (k, 1)`` product."""
    products: np.ndarray = np.matmul(vectors[:, None, :], vectors[:, :, None])
    return products.reshape(len(vectors))


@functools.cache
def _stacked_dot_holds() -> bool:
    """Whether the stacked ``matmul`` equals the per-row dot products here (checked once)."""
    rng = np.random.default_rng(0)
    samples = [
        rng.standard_normal((64, n)) * rng.uniform(1e-3, 1e3, (64, 1)) for n in (1, 2, 3, 4, 7, 16, 17, 33)
    ]
    samples.append(samples[-1][:, ::2])  # a strided view, as the envs' slices are
    return all(np.array_equal(_stacked_dots(v), plain_row_dots(v)) for v in samples)
