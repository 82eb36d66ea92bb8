"""MultiBinary: an array of independent bits."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from palaestra.spaces._masks import MASK_WORDS, check_mask_array, check_probability_array
from palaestra.spaces._space import Space, SpaceSeed, checked_arguments, require_one_of

if TYPE_CHECKING:
    from numpy.typing import NDArray  # annotations only: numpy.typing costs a millisecond to import

__all__ = ["MultiBinary"]


class MultiBinary(Space["NDArray[np.int8]"]):
    """An ``int8`` array of zeros and ones.

    Args:
        n: Number of bits, or the array shape.
        seed: Seed or generator for sampling.
    """

    @checked_arguments(
        "MultiBinary(n, seed=None) takes n, a positive integer or a sequence of them (the shape)"
    )
    def __init__(
        self,
        n: NDArray[np.integer[Any]] | Sequence[int] | int,
        seed: SpaceSeed = None,
    ) -> None:
        if isinstance(n, (int, np.integer)) and not isinstance(n, bool):
            self.n: int | tuple[int, ...] = int(n)
            shape: tuple[int, ...] = (int(n),)
        elif isinstance(n, (Sequence, np.ndarray)):
            self.n = shape = tuple(int(i) for i in n)
        else:
            raise ValueError(f"Expected n to be an int or a sequence of ints, actual type: {type(n)}")
        if not (np.asarray(shape) > 0).all():
            raise ValueError(f"n (counts) have to be positive, got {n}")
        super().__init__(shape, np.int8, seed)

    @property
    def shape(self) -> tuple[int, ...]:
        """The array shape."""
        return self._shape  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> bool:
        """Always true."""
        return True

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> NDArray[np.int8]:
        """Draw an array of bits.

        Args:
            mask: ``int8`` array of the space shape: 0 or 1 forces that bit, 2 draws it.
                The full array is drawn either way, so the stream does not depend on it.
            probability: ``float64`` array of the space shape: the chance of each 1.
        """
        if mask is None and probability is None:
            return self.np_random.integers(0, 2, size=self.n, dtype=np.int8)
        require_one_of(mask, probability)
        if mask is not None:
            check_mask_array(repr(self), MASK_WORDS["MultiBinary.mask"], mask, self.shape, allowed=(0, 1, 2))
            drawn = self.np_random.integers(0, 2, size=self.n, dtype=np.int8)
            return np.where(mask == 2, drawn, mask.astype(np.int8))
        check_probability_array(
            repr(self), MASK_WORDS["MultiBinary.probability"], probability, self.shape, sums_to_one=False
        )
        return (self.np_random.random(size=self.shape) <= probability).astype(np.int8)  # type: ignore[operator,no-any-return]

    def contains(self, x: Any) -> bool:
        """Whether ``x`` has the space shape and only zeros and ones (any dtype)."""
        if isinstance(x, Sequence):
            x = np.array(x)
        return bool(
            isinstance(x, np.ndarray) and self.shape == x.shape and np.all(np.logical_or(x == 0, x == 1))
        )

    def to_jsonable(self, sample_n: Iterable[NDArray[np.int8]]) -> list[Any]:
        """Convert arrays to nested lists."""
        return np.array(list(sample_n)).tolist()  # type: ignore[no-any-return]

    def from_jsonable(self, sample_n: Iterable[Any]) -> list[NDArray[np.int8]]:
        """Convert nested lists back to ``int8`` arrays."""
        return [np.asarray(sample, np.int8) for sample in sample_n]

    def __repr__(self) -> str:
        return f"MultiBinary({self.n})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MultiBinary) and self.n == other.n

    __hash__ = None  # type: ignore[assignment]
