"""Validation of sampling masks, shared by the discrete spaces and Text.

Each space words its mask errors as Gymnasium's does (code written against Gymnasium matches
on them); palaestra's advice follows after the space's name.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from palaestra.error import InvalidSampleArgument, InvalidSampleArgumentType

__all__ = ["MASK_WORDS", "MaskWords", "check_mask_array", "check_probability_array"]


class MaskWords(NamedTuple):
    """Gymnasium's phrases for one space's mask (or probability) errors.

    Each is formatted with ``actual`` (the offending type, dtype, shape, values or sum) and,
    for ``dtype`` and ``shape``, ``expected``.
    """

    type: str
    dtype: str
    shape: str
    values: str
    total: str = ""


def _plain(noun: str) -> MaskWords:
    """The phrases of Discrete (``noun``: "sample mask") and MultiBinary ("mask")."""
    return MaskWords(
        f"The expected type of the {noun} is np.ndarray, actual type: {{actual}}",
        f"The expected dtype of the {noun} is np.{{expected}}, actual dtype: {{actual}}",
        f"The expected shape of the {noun} is {{expected}}, actual shape: {{actual}}",
        "",
    )


MASK_WORDS: dict[str, MaskWords] = {
    "Discrete.mask": _plain("sample mask")._replace(
        values="All values of the sample mask should be 0 or 1, actual values: {actual}"
    ),
    "Discrete.probability": _plain("sample probability")._replace(
        values="All values of the sample probability should be between 0 and 1, actual values: {actual}",
        total="The sum of the sample probability should be equal to 1, actual sum: {actual}",
    ),
    "MultiBinary.mask": _plain("mask")._replace(
        values="All values of a mask should be 0, 1 or 2, actual values: {actual}"
    ),
    "MultiBinary.probability": _plain("probability")._replace(
        values="All values of the sample probability should be between 0 and 1, actual values: {actual}"
    ),
    "MultiDiscrete.mask": MaskWords(
        "Expects the sub mask to be np.ndarray, actual type: {actual}",
        "Expects the mask dtype to be np.int8, actual dtype: {actual}",
        "Expects the mask length to be equal to the number of actions, mask length: {actual}, action: {expected}",
        "Expects all masks values to 0 or 1, actual values: {actual}",
    ),
    "MultiDiscrete.probability": MaskWords(
        "Expects the sub mask to be np.ndarray, actual type: {actual}",
        "Expects the mask dtype to be np.float64, actual dtype: {actual}",
        "Expects the mask length to be equal to the number of actions, mask length: {actual}, action: {expected}",
        "Expects all masks values to be between 0 and 1, actual values: {actual}",
        "Expects the sum of all mask values to be 1, actual sum: {actual}",
    ),
    "Text.mask": MaskWords(
        "Expects the Text sample `mask` to be an np.ndarray, actual type: {actual}",
        "Expects the Text sample `mask` to be type {expected}, actual dtype: {actual}",
        "expects the Text sample `mask` to be {expected}, actual shape: {actual}",
        "Expects all mask values to 0 or 1, actual values: {actual}",
    ),
    "Text.probability": MaskWords(
        "Expects the Text sample `probability` to be an np.ndarray, actual type: {actual}",
        "Expects the Text sample `probability` to be type {expected}, actual dtype: {actual}",
        "expects the Text sample `probability` to be {expected}, actual shape: {actual}",
        "Expects all probability mask values to be within 0 and 1, actual values: {actual}",
        "Expects the sum of the probability mask to be 1, actual sum: {actual}",
    ),
}


def _expected_shape(words: MaskWords, shape: tuple[int, ...]) -> Any:
    # MultiDiscrete speaks of a length (the number of actions), the others of a shape.
    return shape[0] if "length" in words.shape else shape


def _check_array(owner: str, words: MaskWords, arr: Any, dtype: type, shape: tuple[int, ...]) -> None:
    if not isinstance(arr, np.ndarray):
        raise InvalidSampleArgumentType(f"{words.type.format(actual=type(arr))} ({owner})")
    if arr.dtype != dtype:
        expected = np.dtype(dtype) if "type {expected}" in words.dtype else np.dtype(dtype).name
        raise InvalidSampleArgumentType(
            f"{words.dtype.format(expected=expected, actual=arr.dtype)} ({owner}); "
            f"build it with np.asarray(..., dtype=np.{np.dtype(dtype)})"
        )
    if arr.shape != shape:
        actual = len(arr) if "length" in words.shape and arr.ndim == 1 else arr.shape
        raise InvalidSampleArgument(
            f"{words.shape.format(expected=_expected_shape(words, shape), actual=actual)} ({owner}: "
            f"one entry per choice, shape {shape})"
        )


def check_mask_array(
    owner: str, words: MaskWords, mask: Any, shape: tuple[int, ...], allowed: tuple[int, ...] = (0, 1)
) -> None:
    """Check an int8 mask's type, dtype, shape and values.

    Args:
        owner: The space, for messages.
        words: The space's phrases (from :data:`MASK_WORDS`).
        mask: The mask.
        shape: Its expected shape.
        allowed: The values a mask may hold.

    Raises:
        InvalidSampleArgumentType: Not an ndarray, or not int8 (a TypeError).
        InvalidSampleArgument: Wrong shape, or a value outside ``allowed`` (a ValueError).
    """
    _check_array(owner, words, mask, np.int8, shape)
    if not np.isin(mask, allowed).all():
        raise InvalidSampleArgument(f"{words.values.format(actual=mask)} ({owner}: allowed {allowed})")


def check_probability_array(
    owner: str, words: MaskWords, probability: Any, shape: tuple[int, ...], *, sums_to_one: bool = True
) -> None:
    """Check a float64 probability array's type, dtype, shape and values.

    Raises:
        InvalidSampleArgumentType: Not an ndarray, or not float64 (a TypeError).
        InvalidSampleArgument: Wrong shape, a value outside ``[0, 1]``, or a sum other than 1.
    """
    _check_array(owner, words, probability, np.float64, shape)
    if not ((probability >= 0) & (probability <= 1)).all():
        raise InvalidSampleArgument(f"{words.values.format(actual=probability)} ({owner})")
    if sums_to_one and not np.isclose(np.sum(probability), 1):
        raise InvalidSampleArgument(
            f"{words.total.format(actual=np.sum(probability))} ({owner}: normalise the weights)"
        )
