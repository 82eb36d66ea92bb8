"""Batching per-sub-env info dicts into arrays with ``_key`` masks."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["add_info"]

_PLAIN_SCALARS = (int, float, bool)


def _empty_for(value: Any, num_envs: int) -> np.ndarray[Any, Any]:
    # The array's dtype comes from the first sub-env that reports the key.
    if type(value) in _PLAIN_SCALARS or isinstance(value, np.number):
        return np.zeros(num_envs, dtype=type(value))
    if isinstance(value, np.ndarray):
        return np.zeros((num_envs, *value.shape), dtype=value.dtype)
    return np.full(num_envs, fill_value=None, dtype=object)


def add_info(
    vector_infos: dict[str, Any], env_info: dict[str, Any], env_num: int, num_envs: int
) -> dict[str, Any]:
    """Merge sub-env ``env_num``'s info into the batched ``vector_infos`` (in place).

    Args:
        vector_infos: The batched infos so far.
        env_info: One sub-env's info dict.
        env_num: Its index.
        num_envs: Number of sub-envs.

    Returns:
        ``vector_infos``, with nested dicts batched recursively.
    """
    for key, value in env_info.items():
        if key == "final_obs":
            array = vector_infos.get("final_obs")
            if array is None:
                array = np.full(num_envs, fill_value=None, dtype=object)
            array[env_num] = value
        elif isinstance(value, dict):
            array = add_info(vector_infos.get(key, {}), value, env_num, num_envs)
        else:
            array = vector_infos.get(key)
            if array is None:
                array = _empty_for(value, num_envs)
            array[env_num] = value
        mask = vector_infos.get(f"_{key}")
        if mask is None:
            mask = np.zeros(num_envs, dtype=np.bool_)
        mask[env_num] = True
        vector_infos[key] = array
        vector_infos[f"_{key}"] = mask
    return vector_infos
