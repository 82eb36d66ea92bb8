"""Joining the actors' batched results into one batch of all sub-envs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra.plugin import concatenate, iterate
from palaestra.spaces import Space

__all__ = ["join_observations", "merge_infos"]


def join_observations(
    parts: Sequence[Any], block_spaces: Sequence[Space[Any]], single_space: Space[Any], out: Any
) -> Any:
    """One batch from the blocks' batches, in block order, written into ``out``.

    Args:
        parts: Each block's batched observation.
        block_spaces: Each block's batched observation space (to split non-array batches).
        single_space: One sub-env's observation space.
        out: A batch of all sub-envs to fill (see ``create_empty_array``).
    """
    if isinstance(out, np.ndarray) and all(isinstance(p, np.ndarray) for p in parts):
        return np.concatenate(parts, axis=0, out=out)
    items = [item for space, part in zip(block_spaces, parts, strict=True) for item in iterate(space, part)]
    return concatenate(single_space, items, out)


def merge_infos(infos: dict[str, Any], part: dict[str, Any], start: int, num_envs: int) -> dict[str, Any]:
    """Copy one block's batched infos (sub-envs from ``start``) into ``infos``, in place.

    The result is what a SyncVectorEnv over all sub-envs reports, with one exception: a
    key's array takes its dtype from the first block reporting it, so when sub-envs of
    one key report values of different types (an int here, a float there) the values
    are converted as that block's first reporter's type dictated.
    """
    for key, value in part.items():
        mask = part.get(f"_{key}")
        if mask is None or (key.startswith("_") and key[1:] in part):
            continue  # a mask: copied with its key
        stop = start + len(mask)
        if isinstance(value, dict):
            merged: Any = merge_infos(infos.get(key, {}), value, start, num_envs)
        else:
            merged = infos.get(key)
            if merged is None:
                merged = _empty_like_batch(value, num_envs)
            merged[start:stop][mask] = value[mask]
        full_mask = infos.get(f"_{key}")
        if full_mask is None:
            full_mask = np.zeros(num_envs, dtype=np.bool_)
        full_mask[start:stop] = mask
        infos[key] = merged
        infos[f"_{key}"] = full_mask
    return infos


def _empty_like_batch(batch: np.ndarray[Any, Any], num_envs: int) -> np.ndarray[Any, Any]:
    # Unreported entries hold what SyncVectorEnv leaves there: None in object arrays, else 0.
    if batch.dtype == object:
        return np.full((num_envs, *batch.shape[1:]), None, dtype=object)
    return np.zeros((num_envs, *batch.shape[1:]), dtype=batch.dtype)
