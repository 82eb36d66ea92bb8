"""Comparing nested samples exactly (type, dtype, shape, bytes)."""

import numpy as np


def same(a, b, scalars_as_arrays=False):
    """Equal in type, dtype, shape and bytes, recursively.

    ``scalars_as_arrays`` also accepts a numpy scalar for a 0-d array of its dtype (numpy
    gives one where the other was stored, e.g. iterating a batch of shape ``(n,)``).
    """
    if scalars_as_arrays:
        a, b = _scalar_to_array(a), _scalar_to_array(b)
    if type(a).__name__ != type(b).__name__:
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y, scalars_as_arrays) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k], scalars_as_arrays) for k in a)
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and a == b
    return a == b


def _scalar_to_array(x):
    return np.asarray(x) if isinstance(x, np.generic) else x
