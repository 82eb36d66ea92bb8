"""Discrete: one integer out of ``n`` consecutive values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from palaestra.spaces._masks import MASK_WORDS, check_mask_array, check_probability_array
from palaestra.spaces._space import MaskNDArray, Space, SpaceSeed, checked_arguments, require_one_of

__all__ = ["Discrete"]


class Discrete(Space[np.integer[Any]]):
    """The integers ``{start, start + 1, ..., start + n - 1}``.

    ``n`` and ``start`` are stored as numpy scalars of the space dtype (``int64`` by
    default), as in Gymnasium.

    Args:
        n: Number of values (positive).
        seed: Seed or generator for sampling.
        start: The smallest value.
        dtype: An integer dtype.
    """

    @checked_arguments(
        "Discrete(n, seed=None, start=0, dtype=np.int64) takes n, a positive integer, and start, an "
        "integer, both within dtype's range, and an integer dtype"
    )
    def __init__(
        self,
        n: int | np.integer[Any],
        seed: SpaceSeed = None,
        start: int | np.integer[Any] = 0,
        dtype: Any = np.int64,
    ) -> None:
        if not np.issubdtype(type(n), np.integer):
            raise TypeError(f"Expects `n` to be an integer, actual dtype: {type(n)}")
        if n <= 0:
            raise ValueError(f"n (counts) have to be positive, actual value: {n}")
        if not np.issubdtype(type(start), np.integer):
            raise TypeError(f"Expects `start` to be an integer, actual type: {type(start)}")
        if dtype is None:
            raise TypeError(f"Invalid Discrete dtype, cannot be {dtype}.")
        self.dtype: np.dtype[Any] = np.dtype(dtype)
        if not np.issubdtype(self.dtype, np.integer):
            raise TypeError(f"Invalid Discrete dtype ({self.dtype}), must be an integer dtype")
        limits = np.iinfo(self.dtype)
        for name, value in (("n", n), ("start", start), ("start + n - 1", int(start) + int(n) - 1)):
            if not limits.min <= int(value) <= limits.max:
                raise ValueError(f"{name}={value} does not fit in {self.dtype}")
        self.n = self.dtype.type(n)
        self.start = self.dtype.type(start)
        super().__init__((), self.dtype, seed)
        self._prepare()

    def _prepare(self) -> None:
        self._n_int = int(self.n)
        self._start_int = int(self.start)
        self._scalar = self.dtype.type

    @property
    def is_np_flattenable(self) -> bool:
        """Always true (one-hot)."""
        return True

    def sample(self, mask: MaskNDArray | None = None, probability: Any | None = None) -> np.integer[Any]:
        """Draw a value.

        Args:
            mask: ``int8`` array of shape ``(n,)``; 1 marks allowed values. All zero
                returns ``start`` without drawing.
            probability: ``float64`` array of shape ``(n,)`` summing to 1.
        """
        if mask is None and probability is None:
            value = (self._np_random or self.np_random).integers(self.n, dtype=self._scalar)
            # start + value is value itself (same type and number) when start is 0.
            return value if self._start_int == 0 else self.start + value  # type: ignore[no-any-return]
        require_one_of(mask, probability)

        if mask is not None:
            check_mask_array(repr(self), MASK_WORDS["Discrete.mask"], mask, (self._n_int,))
            allowed = np.flatnonzero(mask == 1)
            if allowed.size == 0:
                return self.start  # type: ignore[no-any-return]
            return self.start + self._scalar(self.np_random.choice(allowed))  # type: ignore[no-any-return]
        check_probability_array(repr(self), MASK_WORDS["Discrete.probability"], probability, (self._n_int,))
        values = np.arange(self._n_int, dtype=self.dtype)
        return self.start + self.np_random.choice(values, p=probability)  # type: ignore[no-any-return]

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is an in-range int, or 0-d integer array of a castable dtype."""
        if isinstance(x, int):
            info = np.iinfo(self.dtype)
            if not info.min <= x <= info.max:
                return False
            value = x
            castable = True
        elif isinstance(x, (np.generic, np.ndarray)) and (
            np.issubdtype(x.dtype, np.integer) and x.shape == ()
        ):
            value = int(x)
            castable = bool(np.can_cast(x.dtype, self.dtype))
        else:
            return False
        return castable and self._start_int <= value < self._start_int + self._n_int

    def __repr__(self) -> str:
        # Only what differs from the defaults is shown: Discrete(3), Discrete(3, start=-1), ...
        extras = "".join(
            f", {label}={value}"
            for label, value, default in (("start", self.start, 0), ("dtype", self.dtype, np.int64))
            if value != default
        )
        return f"Discrete({self.n}{extras})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Discrete):
            return False
        return (self.n, self.start, self.dtype) == (other.n, other.start, other.dtype)

    __hash__ = None  # type: ignore[assignment]

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        state = dict(state)
        state.setdefault("start", np.int64(0))
        super().__setstate__(state)
        self._prepare()

    def to_jsonable(self, sample_n: Iterable[Any]) -> list[int]:
        """Convert values to Python ints."""
        return [int(x) for x in sample_n]

    def from_jsonable(self, sample_n: Iterable[Any]) -> list[np.integer[Any]]:
        """Convert ints back to numpy scalars of the space dtype."""
        return [self.dtype.type(x) for x in sample_n]
