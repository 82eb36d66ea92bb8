"""MultiDiscrete: an array of independent discrete values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from palaestra import logger
from palaestra._base._notes import noted
from palaestra.error import InvalidSampleArgument, InvalidSampleArgumentType
from palaestra.spaces._discrete import Discrete
from palaestra.spaces._masks import MASK_WORDS, check_mask_array, check_probability_array
from palaestra.spaces._space import Space, SpaceSeed, checked_arguments, integral, require_one_of

if TYPE_CHECKING:
    from numpy.typing import NDArray  # annotations only: numpy.typing costs a millisecond to import

__all__ = ["MultiDiscrete"]


class MultiDiscrete(Space["NDArray[np.integer[Any]]"]):
    """An array whose entry ``i`` is one of ``nvec[i]`` values starting at ``start[i]``.

    Sampling without a mask is ``floor(random(shape) * nvec) + start``.

    Args:
        nvec: Number of values per entry (any shape).
        dtype: An integer dtype.
        seed: Seed or generator for sampling.
        start: Smallest value per entry (zeros by default).
    """

    @checked_arguments(
        "MultiDiscrete(nvec, dtype=np.int64, seed=None, start=None) takes nvec, an array of positive "
        "integers (one count per dimension), and start, integers of nvec's shape"
    )
    def __init__(
        self,
        nvec: NDArray[np.integer[Any]] | Sequence[Any],
        dtype: Any = np.int64,
        seed: SpaceSeed = None,
        start: NDArray[np.integer[Any]] | Sequence[Any] | None = None,
    ) -> None:
        if dtype is None:
            raise ValueError("MultiDiscrete dtype must be explicitly provided, cannot be None.")
        self.dtype: np.dtype[Any] = np.dtype(dtype)
        if not np.issubdtype(self.dtype, np.integer):
            raise ValueError(f"Invalid MultiDiscrete dtype ({self.dtype}), must be an integer dtype")
        self.nvec = np.array(integral(nvec, "nvec"), dtype=self.dtype, copy=True)
        if start is None:
            self.start = np.zeros(self.nvec.shape, dtype=self.dtype)
        else:
            self.start = np.array(integral(start, "start"), dtype=self.dtype, copy=True)
        if self.start.shape != self.nvec.shape:
            raise ValueError(
                "start and nvec (counts) should have the same shape, "
                f"got {self.start.shape} and {self.nvec.shape}"
            )
        if not (self.nvec > 0).all():
            error = ValueError("nvec (counts) have to be positive")
            noted(error, f"Got nvec={self.nvec.tolist()}: each count is how many values a dimension takes.")
            raise error
        super().__init__(self.nvec.shape, self.dtype, seed)
        self._prepare()

    def _prepare(self) -> None:
        self._nvec_f = self.nvec.astype(np.float64)
        self._last = self.start + (self.nvec - 1)

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of ``nvec``."""
        return self._shape  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> bool:
        """Always true (concatenated one-hots)."""
        return True

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> NDArray[Any]:
        """Draw an array.

        Args:
            mask: Nested tuples mirroring ``nvec``'s shape, each leaf an ``int8`` array of
                length ``nvec[i]``.
            probability: The same layout with ``float64`` leaves summing to 1.
        """
        if mask is None and probability is None:
            draws = self.np_random.random(self.nvec.shape)
            draws *= self._nvec_f
            return draws.astype(self.dtype) + self.start
        require_one_of(mask, probability)
        kind = "mask" if mask is not None else "probability"
        chosen = self._apply_mask(mask if mask is not None else probability, self.nvec, self.start, kind)
        return np.array(chosen, dtype=self.dtype)

    def _apply_mask(self, sub_mask: Any, sub_nvec: Any, sub_start: Any, kind: str) -> Any:
        if isinstance(sub_nvec, np.ndarray):
            if not isinstance(sub_mask, tuple):
                raise InvalidSampleArgumentType(
                    f"Expects the mask to be a tuple for sub_nvec ({sub_nvec}), actual type: {type(sub_mask)} "
                    f"({self!r}: the {kind} is a tuple of length {len(sub_nvec)} mirroring nvec)"
                )
            if len(sub_mask) != len(sub_nvec):
                raise InvalidSampleArgument(
                    "Expects the mask length to be equal to the number of actions, mask length: "
                    f"{len(sub_mask)}, nvec length: {len(sub_nvec)} ({self!r})"
                )
            return [
                self._apply_mask(m, n, s, kind) for m, n, s in zip(sub_mask, sub_nvec, sub_start, strict=True)
            ]
        n = int(sub_nvec)
        if kind == "mask":
            check_mask_array(repr(self), MASK_WORDS["MultiDiscrete.mask"], sub_mask, (n,))
            allowed = np.flatnonzero(sub_mask == 1)
            if allowed.size == 0:
                return sub_start
            return self.np_random.choice(allowed) + sub_start
        check_probability_array(repr(self), MASK_WORDS["MultiDiscrete.probability"], sub_mask, (n,))
        valid = sub_mask > 0
        normalised = sub_mask / np.sum(sub_mask)
        return self.np_random.choice(np.flatnonzero(valid), p=normalised[valid]) + sub_start

    def contains(self, x: Any) -> bool:
        """Whether ``x`` has the right shape, a castable integer dtype and in-range entries."""
        if isinstance(x, Sequence):
            x = np.array(x)
        return bool(
            isinstance(x, np.ndarray)
            and x.shape == self.shape
            and np.can_cast(x.dtype, self.dtype)
            and (self.start <= x).all()
            and (x <= self._last).all()
        )

    def to_jsonable(self, sample_n: Iterable[NDArray[Any]]) -> list[Any]:
        """Convert arrays to nested lists."""
        return [sample.tolist() for sample in sample_n]

    def from_jsonable(self, sample_n: Iterable[Any]) -> list[NDArray[Any]]:
        """Convert nested lists back to arrays."""
        return [np.array(sample, dtype=self.dtype) for sample in sample_n]

    def __repr__(self) -> str:
        if np.any(self.start != 0):
            return f"MultiDiscrete({self.nvec}, start={self.start})"
        return f"MultiDiscrete({self.nvec})"

    def __getitem__(self, index: int | tuple[int, ...]) -> Discrete | MultiDiscrete:
        """The sub-space at ``index``, sharing the current generator state."""
        nvec, start = self.nvec[index], self.start[index]
        # A single entry is a Discrete; a slice stays a MultiDiscrete.
        kind: type[Discrete] | type[MultiDiscrete] = Discrete if nvec.ndim == 0 else MultiDiscrete
        part = kind(nvec, start=start, dtype=self.dtype)
        # Continue from this space's stream: copying the state leaves ours untouched.
        part.np_random.bit_generator.state = self.np_random.bit_generator.state
        return part

    def __len__(self) -> int:
        if self.nvec.ndim >= 2:
            logger.warn("Getting the length of a multi-dimensional MultiDiscrete space.")
        return len(self.nvec)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MultiDiscrete) or (self.dtype, self.shape) != (other.dtype, other.shape):
            return False
        return np.array_equal(self.nvec, other.nvec) and np.array_equal(self.start, other.start)

    __hash__ = None  # type: ignore[assignment]

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        state = dict(state)
        if "start" not in state:
            state["start"] = np.zeros(state["_shape"], dtype=state["dtype"])
        super().__setstate__(state)
        self._prepare()
