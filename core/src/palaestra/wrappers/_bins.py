"""The bin grid shared by DiscretizeAction and DiscretizeObservation."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.spaces import Box

__all__ = ["bin_grid"]


def bin_grid(space: Box, bins: int | tuple[int, ...], what: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The flattened bounds of ``space`` and the number of bins along each dimension.

    Args:
        space: A Box with finite bounds.
        bins: One count for every dimension, or one per dimension.
        what: ``"action"`` or ``"observation"``, for the error messages.

    Raises:
        ValueError: Infinite bounds, or a count per dimension of the wrong length.
    """
    low, high = np.ravel(space.low), np.ravel(space.high)
    if np.isinf(low).any() or np.isinf(high).any():
        raise ValueError(f"Discretization requires {what} space to be finite. Found: low={low}, high={high}")
    if isinstance(bins, int):
        return low, high, np.full(low.size, bins)
    if len(bins) != low.size:
        # Gymnasium's words, "action" even for observations; then what is meant
        meant = "" if what == "action" else f" (the {what}'s dimensions)"
        raise ValueError(f"bins must match action dimensions: expected {low.size}, got {len(bins)}{meant}")
    counts: Any = np.array(bins)
    return low, high, counts
