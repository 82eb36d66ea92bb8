"""Text: strings over a character set."""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any

import numpy as np

from palaestra.error import InvalidSampleArgument, InvalidSampleArgumentType
from palaestra.spaces._masks import MASK_WORDS, check_mask_array, check_probability_array
from palaestra.spaces._space import Space, SpaceSeed, checked_arguments, require_one_of

__all__ = ["Text", "alphanumeric"]

alphanumeric: frozenset[str] = frozenset(string.ascii_letters + string.digits)


class Text(Space[str]):
    """Strings of ``min_length`` to ``max_length`` characters from ``charset``.

    A set charset is sorted to fix the character order; a string or sequence keeps its
    order (duplicates dropped). Sampling draws the length uniformly, then each character.

    Args:
        max_length: Longest string.
        min_length: Shortest string.
        charset: Allowed characters.
        seed: Seed or generator for sampling.
    """

    __hash__ = None  # type: ignore[assignment]  # equality compares contents

    @checked_arguments(
        "Text(max_length, min_length=1, charset=alphanumerics, seed=None) takes integers 0 <= min_length "
        "<= max_length and charset, a string or collection of characters"
    )
    def __init__(
        self,
        max_length: int,
        *,
        min_length: int = 1,
        charset: Iterable[str] = alphanumeric,
        seed: SpaceSeed = None,
    ) -> None:
        for name, value in (("min_length", min_length), ("max_length", max_length)):
            if not np.issubdtype(type(value), np.integer):  # Gymnasium's words, here and below
                raise TypeError(f"Expects the {name} to be an integer, actual type: {type(value)}")
        if min_length < 0:
            raise ValueError(f"Minimum text length must be non-negative, actual value: {min_length}")
        if min_length > max_length:
            raise ValueError(
                "The min_length must be less than or equal to the max_length, "
                f"min_length: {min_length}, max_length: {max_length}"
            )
        self.min_length = int(min_length)
        self.max_length = int(max_length)
        chars = sorted(charset) if isinstance(charset, (set, frozenset)) else list(dict.fromkeys(charset))
        invalid = [c for c in chars if len(c) != 1]
        if invalid:
            raise ValueError(f"Text: every charset element must be one character; these are not: {invalid}")
        self._allowed = frozenset(chars)
        self._ordered = tuple(chars)
        self._position = {c: np.int32(i) for i, c in enumerate(chars)}
        self._char_str = "".join(sorted(chars))
        self._char_array = np.array(chars)
        self._uniform = np.full(len(chars), 1 / len(chars)) if chars else np.ones(0)
        super().__init__(dtype=str, seed=seed)

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> str:
        """Draw a string.

        Args:
            mask: ``(length or None, int8 array over the charset or None)``.
            probability: ``(length or None, float64 array over the charset or None)``.
        """
        require_one_of(mask, probability)
        length: Any = None
        weights: Any = None
        if mask is not None:
            length, weights = self._unpack(mask, "mask")
            if weights is not None:
                check_mask_array(repr(self), MASK_WORDS["Text.mask"], weights, (len(self._ordered),))
                if weights.sum() > 0:
                    weights = weights / np.sum(weights)
        elif probability is not None:
            length, weights = self._unpack(probability, "probability")
            if weights is not None:
                check_probability_array(
                    repr(self), MASK_WORDS["Text.probability"], weights, (len(self._ordered),)
                )
        if length is None:
            length = self.np_random.integers(self.min_length, self.max_length + 1)
        if weights is None:
            weights = self._uniform
        if np.all(weights == 0):
            if self.min_length == 0:
                return ""
            raise InvalidSampleArgument(
                f"Trying to sample with a minimum length > 0 (actual minimum length={self.min_length}) but "
                "the character mask is all zero meaning that no character could be sampled. "
                f"({self!r}: allow at least one character, or a minimum length of 0)"
            )
        return "".join(self.np_random.choice(self._char_array, size=length, p=weights))

    def _unpack(self, mask: Any, kind: str) -> tuple[Any, Any]:
        if not isinstance(mask, tuple):
            raise InvalidSampleArgumentType(
                f"Expects the `{kind}` type to be a tuple, actual type: {type(mask)} "
                f"({self!r}: give (length or None, character {kind} or None))"
            )
        if len(mask) != 2:
            raise InvalidSampleArgument(
                f"Expects the `{kind}` length to be two, actual length: {len(mask)} "
                f"({self!r}: give (length or None, character {kind} or None))"
            )
        length, weights = mask
        if length is not None:
            if not np.issubdtype(type(length), np.integer):
                raise InvalidSampleArgumentType(
                    f"Expects the Text sample length to be an integer, actual type: {type(length)} ({self!r})"
                )
            if not self.min_length <= length <= self.max_length:
                raise InvalidSampleArgument(
                    f"Expects the Text sample length be between {self.min_length} and {self.max_length}, "
                    f"actual length: {length} ({self!r})"
                )
        return length, weights

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a string of allowed length over the charset."""
        if isinstance(x, str) and self.min_length <= len(x) <= self.max_length:
            return all(c in self._allowed for c in x)
        return False

    def __repr__(self) -> str:
        return f"Text({self.min_length}, {self.max_length}, charset={self.characters})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Text):
            return False
        mine = (self.min_length, self.max_length, self._allowed)
        return mine == (other.min_length, other.max_length, other._allowed)

    @property
    def characters(self) -> str:
        """The allowed characters, sorted, as one string."""
        return self._char_str

    @property
    def character_list(self) -> tuple[str, ...]:
        """The allowed characters in sampling order."""
        return self._ordered

    def character_index(self, char: str) -> np.int32:
        """The position of ``char`` in :attr:`character_list`."""
        return self._position[char]  # type: ignore[no-any-return]

    @property
    def character_set(self) -> frozenset[str]:
        """The allowed characters."""
        return self._allowed

    @property
    def is_np_flattenable(self) -> bool:
        """True: strings flatten to fixed-length index arrays."""
        return True
