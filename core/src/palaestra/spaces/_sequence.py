"""Sequence: variable-length sequences of one feature space."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence as PySequence
from typing import Any

import numpy as np

from palaestra._base._notes import noted
from palaestra.error import InvalidSampleArgument, InvalidSampleArgumentType
from palaestra.spaces._batching import (
    batch_differing_as_copies,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)
from palaestra.spaces._box import Box
from palaestra.spaces._discrete import Discrete
from palaestra.spaces._multi_binary import MultiBinary
from palaestra.spaces._multi_discrete import MultiDiscrete
from palaestra.spaces._space import Space, checked_arguments, require_one_of

__all__ = ["Sequence"]

_INT32_MAX = int(np.iinfo(np.int32).max)
_ARRAY_SPACES = (Box, Discrete, MultiBinary, MultiDiscrete)


class Sequence(Space[Any]):
    """Finite sequences of elements of ``feature_space``.

    Unmasked sampling draws the length from ``geometric(0.25)`` (so never empty).
    With ``stack=True`` elements are stacked into the batched feature space's layout.

    Args:
        space: The feature space.
        seed: Seed (int, or a pair ``(own, feature)``) or generator.
        stack: Return stacked arrays instead of tuples.
    """

    @checked_arguments(
        "Sequence(space, seed=None, stack=False) takes space, a palaestra space, and stack, True or False"
    )
    def __init__(
        self,
        space: Space[Any],
        seed: int | tuple[int, int] | np.random.Generator | None = None,
        stack: bool = False,
    ) -> None:
        if not isinstance(space, Space):
            error = TypeError(
                f"Expects the feature space to be instance of a gym Space, actual type: {type(space)}"
            )
            noted(error, "A palaestra Space is needed (palaestra.spaces.*).")
            raise error
        if not isinstance(stack, (bool, np.bool_)):
            raise TypeError(f"stack must be True or False, got {stack!r:.80}")
        self.feature_space = space
        self.stack = bool(stack)
        # Gymnasium writes stacked sequences as its stacked space writes them; that round-trips
        # only when every leaf stacks into an array, so other features are written per item.
        self._json_as_stacked = stack and _stacks_into_arrays(space)
        if stack:
            self.stacked_feature_space = batch_space(space, 1)
        super().__init__(None, None, seed)  # type: ignore[arg-type]

    @property
    def columnar_json(self) -> bool:  # type: ignore[override]
        """True for stacked Tuple or Dict features written in Gymnasium's (columnar) format."""
        return self._json_as_stacked and self.stacked_feature_space.columnar_json

    def seed(self, seed: int | tuple[int, int] | list[int] | None = None) -> tuple[int, int]:
        """Seed the sequence's own generator and the feature space's.

        Returns:
            ``(own seed, feature space seed)``.
        """
        if seed is None:
            return super().seed(None), self.feature_space.seed(None)
        if isinstance(seed, int) and not isinstance(seed, bool):
            own = super().seed(seed)
            feature_seed = int(self.np_random.integers(_INT32_MAX))
            super().seed(seed)  # the sequence's own stream starts from the plain seed
            return own, self.feature_space.seed(feature_seed)
        if isinstance(seed, (tuple, list)):
            if len(seed) != 2:
                raise ValueError(
                    "Expects the seed to have two elements for the Sequence and feature space, "
                    f"actual length: {len(seed)}"
                )
            return super().seed(seed[0]), self.feature_space.seed(seed[1])
        raise TypeError(f"Expected None, int, tuple of ints, actual type: {type(seed)} ({self!r})")

    @property
    def is_np_flattenable(self) -> bool:
        """False: the length varies."""
        return False

    def sample(self, mask: tuple[Any, Any] | None = None, probability: tuple[Any, Any] | None = None) -> Any:
        """Draw a sequence.

        Args:
            mask: ``(length mask, feature mask)``; the length mask is ``None``, a length, or
                an array of lengths to choose from.
            probability: ``(length mask, feature probability)``.
        """
        require_one_of(mask, probability)
        if mask is not None:
            length = self._length(mask[0], "mask")
            values = tuple(self.feature_space.sample(mask=mask[1]) for _ in range(length))
        elif probability is not None:
            length = self._length(probability[0], "probability")
            values = tuple(self.feature_space.sample(probability=probability[1]) for _ in range(length))
        else:
            length = self.np_random.geometric(0.25)
            values = tuple(self.feature_space.sample() for _ in range(length))
        return self._stacked(values) if self.stack else values

    def generate_sample_length(self, length_mask: Any, mask_type: str | None) -> int:
        """Pick a length from a length mask (``None`` draws from ``geometric(0.25)``)."""
        return int(self._length(length_mask, mask_type or "mask"))

    def _length(self, length_mask: Any, kind: str) -> Any:
        if length_mask is None:
            return self.np_random.geometric(0.25)
        if np.issubdtype(type(length_mask), np.integer):
            if length_mask < 0:
                raise InvalidSampleArgument(
                    f"Expects the length mask of `{kind}` to be greater than or equal to zero, actual value: "
                    f"{length_mask} ({self!r})"
                )
            return length_mask
        if isinstance(length_mask, np.ndarray):
            if length_mask.ndim != 1:
                raise InvalidSampleArgument(
                    f"Expects the shape of the length mask of `{kind}` to be 1-dimensional, actual shape: "
                    f"{length_mask.shape} ({self!r}: an array of the lengths to choose from)"
                )
            if not (length_mask >= 0).all():
                raise InvalidSampleArgument(
                    f"Expects all values in the length_mask of `{kind}` to be greater than or equal to zero, "
                    f"actual values: {length_mask} ({self!r})"
                )
            if not np.issubdtype(length_mask.dtype, np.integer):
                raise InvalidSampleArgument(
                    f"Expects the length mask array of `{kind}` to have dtype of np.integer, actual type: "
                    f"{length_mask.dtype} ({self!r})"
                )
            return self.np_random.choice(length_mask)
        raise InvalidSampleArgumentType(
            f"Expects the type of length_mask of `{kind}` to be an integer or a np.ndarray, actual type: "
            f"{type(length_mask)} ({self!r})"
        )

    def contains(self, x: Any) -> bool:
        """Whether every item of ``x`` belongs to the feature space."""
        if self.stack:
            return all(item in self.feature_space for item in iterate(self.stacked_feature_space, x))
        return isinstance(x, tuple) and all(self.feature_space.contains(item) for item in x)

    def __repr__(self) -> str:
        return f"Sequence({self.feature_space}, stack={self.stack})"

    def to_jsonable(self, sample_n: Any) -> Any:
        """Convert sequences to lists (one per sequence, or Gymnasium's columns; see above)."""
        if self._json_as_stacked:
            return self.stacked_feature_space.to_jsonable(sample_n)
        if self.stack:
            return [
                self.feature_space.to_jsonable(list(iterate(self.stacked_feature_space, s))) for s in sample_n
            ]
        return [self.feature_space.to_jsonable(sample) for sample in sample_n]

    def from_jsonable(self, sample_n: Any) -> list[Any]:
        """Convert lists back to sequences."""
        if self._json_as_stacked:
            return self.stacked_feature_space.from_jsonable(sample_n)
        if self.stack:
            return [self._stacked(self.feature_space.from_jsonable(items)) for items in sample_n]
        return [tuple(self.feature_space.from_jsonable(sample)) for sample in sample_n]

    def _stacked(self, items: PySequence[Any]) -> Any:
        return concatenate(self.feature_space, items, create_empty_array(self.feature_space, len(items)))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Sequence)
            and self.feature_space == other.feature_space
            and self.stack == other.stack
        )

    __hash__ = None  # type: ignore[assignment]


def _stacks_into_arrays(space: Space[Any]) -> bool:
    """Whether a batch of ``space``'s elements is arrays only (no tuples of copies)."""
    children = getattr(space, "spaces", None)
    if space.columnar_json and children is not None:  # Tuple, Dict
        parts = children.values() if isinstance(children, dict) else children
        return all(_stacks_into_arrays(part) for part in parts)
    return isinstance(space, _ARRAY_SPACES)


# How a vector env allocates a batch of sequences (the other spaces' rules are in _batching).
@create_empty_array.register(Sequence)
def _empty_sequences(space: Sequence, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[Any, ...]:
    if space.stack:
        return tuple(create_empty_array(space.feature_space, n=1, fn=fn) for _ in range(n))
    return tuple(() for _ in range(n))


# Sub-envs' Sequence spaces that differ are batched as a Tuple of copies.
batch_differing_as_copies(Sequence)
