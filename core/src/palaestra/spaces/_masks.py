"""Validation of sampling masks, shared by the discrete spaces and Text."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.error import InvalidSampleArgument, InvalidSampleArgumentType

__all__ = ["check_mask_array", "check_probability_array"]


def _check_array(owner: str, what: str, arr: Any, dtype: type, shape: tuple[int, ...]) -> None:
    if not isinstance(arr, np.ndarray):
        raise InvalidSampleArgumentType(f"{owner}: the {what} must be a np.ndarray, actual type: {type(arr)}")
    if arr.dtype != dtype:
        raise InvalidSampleArgumentType(
            f"{owner}: the {what} dtype must be {np.dtype(dtype)}, actual dtype: {arr.dtype}; "
            f"build it with np.asarray(..., dtype=np.{np.dtype(dtype)})"
        )
    if arr.shape != shape:
        raise InvalidSampleArgument(f"{owner}: the {what} shape must be {shape}, actual shape: {arr.shape}")


def check_mask_array(
    owner: str, mask: Any, shape: tuple[int, ...], allowed: tuple[int, ...] = (0, 1)
) -> None:
    """Check an int8 mask's type, dtype, shape and values.

    Raises:
        InvalidSampleArgumentType: Not an ndarray, or not int8 (a TypeError).
        InvalidSampleArgument: Wrong shape, or a value outside ``allowed`` (a ValueError).
    """
    _check_array(owner, "mask", mask, np.int8, shape)
    if not np.isin(mask, allowed).all():
        raise InvalidSampleArgument(f"{owner}: all mask values must be in {allowed}, actual values: {mask}")


def check_probability_array(
    owner: str, probability: Any, shape: tuple[int, ...], *, sums_to_one: bool = True
) -> None:
    """Check a float64 probability array's type, dtype, shape and values.

    Raises:
        InvalidSampleArgumentType: Not an ndarray, or not float64 (a TypeError).
        InvalidSampleArgument: Wrong shape, a value outside ``[0, 1]``, or a sum other than 1.
    """
    _check_array(owner, "probability", probability, np.float64, shape)
    if not ((probability >= 0) & (probability <= 1)).all():
        raise InvalidSampleArgument(
            f"{owner}: all probabilities must be within [0, 1], actual values: {probability}"
        )
    if sums_to_one and not np.isclose(np.sum(probability), 1):
        raise InvalidSampleArgument(
            f"{owner}: probabilities must sum to 1, actual sum: {np.sum(probability)}"
        )
