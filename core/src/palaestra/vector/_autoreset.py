"""Argument checks shared by the vector envs: seeds, reset masks, autoreset modes."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra._base._notes import noted
from palaestra.error import InvalidSeedType
from palaestra.vector._autoreset_mode import AutoresetMode

__all__ = ["check_reset_mask", "per_env_values", "reset_arguments", "resolve_autoreset_mode", "seeds_for"]


def resolve_autoreset_mode(mode: str | AutoresetMode) -> AutoresetMode:
    """Accept an :class:`AutoresetMode` or its value; name the valid ones otherwise."""
    if isinstance(mode, AutoresetMode):
        return mode
    try:
        return AutoresetMode(mode)
    except ValueError as e:
        valid = [m.value for m in AutoresetMode]
        raise ValueError(
            f"Invalid autoreset_mode {mode!r}; expected an AutoresetMode or one of {valid}"
        ) from e


def seeds_for(seed: int | list[int | None] | None, num_envs: int) -> list[int | None]:
    """Per-sub-env seeds: ``seed + i`` for an int, the list itself, or all None."""
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, int) and not isinstance(seed, bool):
        return [seed + i for i in range(num_envs)]
    if not isinstance(seed, (list, tuple, np.ndarray)):
        # Gymnasium's words (it takes len(seed)), then what a vector reset takes.
        kind = type(seed)
        name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        hint = f" (a NumPy integer: pass int(seed), {int(seed)})" if isinstance(seed, np.integer) else ""
        raise noted(
            InvalidSeedType(f"object of type '{name}' has no len()"),
            f"seed={seed!r:.40}: a vector reset takes an int (sub-env i gets seed + i){hint}, a list of "
            f"{num_envs} seeds (ints or None), or None.",
        )
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(
            f"If seeds are passed as a list the length must match num_envs={num_envs} but got length={len(seeds)}."
        )
    return seeds


def check_reset_mask(mask: Any, num_envs: int) -> np.ndarray[Any, Any]:
    """Validate ``options["reset_mask"]``: a bool ndarray of shape ``(num_envs,)`` with a True."""
    if not isinstance(mask, np.ndarray):
        raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
    if mask.shape != (num_envs,):
        raise ValueError(f"`options['reset_mask']` must have shape `({num_envs},)`, got {mask.shape}")
    if mask.dtype != np.bool_:
        raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}")
    if not np.any(mask):
        raise ValueError(
            f"`options['reset_mask']` must contain a boolean array with at least one True value, got reset_mask={mask}"
        )
    return mask


def reset_arguments(
    seed: int | list[int | None] | None, options: dict[str, Any] | None, num_envs: int
) -> tuple[list[int | None], dict[str, Any] | None, np.ndarray[Any, Any] | None]:
    """A vector ``reset``'s per-sub-env seeds, options without ``reset_mask``, and the mask.

    The caller's options dict is not modified; the mask is None when none was given.
    """
    seeds = seeds_for(seed, num_envs)
    mask = None
    if options is not None and "reset_mask" in options:
        options = dict(options)
        mask = check_reset_mask(options.pop("reset_mask"), num_envs)
    return seeds, options, mask


def per_env_values(values: Any, num_envs: int) -> list[Any] | tuple[Any, ...]:
    """``set_attr``'s values: one per sub-env, or one value repeated for all."""
    if not isinstance(values, (list, tuple)):
        return [values] * num_envs
    if len(values) != num_envs:
        raise ValueError(
            "Values must be a list or tuple with length equal to the number of environments. "
            f"Got `{len(values)}` values for {num_envs} environments."
        )
    return values
