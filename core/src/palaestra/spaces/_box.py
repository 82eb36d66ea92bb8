"""Box: an n-dimensional array of bounded or unbounded numbers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, SupportsFloat

import numpy as np

from palaestra import logger
from palaestra.spaces._space import Space, SpaceSeed, checked_arguments, require_no_mask

if TYPE_CHECKING:
    from numpy.typing import NDArray  # annotations only: numpy.typing costs a millisecond to import

__all__ = ["Box"]


def _short_repr(arr: NDArray[Any]) -> str:
    """One number when the array is constant, else the array."""
    if arr.size != 0 and np.min(arr) == np.max(arr):
        return str(np.min(arr))
    return str(arr)


def _is_scalar(value: object) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _dtype_range(dtype: np.dtype[Any]) -> tuple[float, float]:
    if dtype.kind == "b":
        return 0, 1
    if dtype.kind == "f":
        finfo = np.finfo(dtype)
        return float(finfo.min), float(finfo.max)
    iinfo = np.iinfo(dtype)
    return int(iinfo.min), int(iinfo.max)


class Box(Space["NDArray[Any]"]):
    r"""A box in :math:`\mathbb{R}^n`: each coordinate lies in ``[low[i], high[i]]``.

    Bounds may be infinite for float dtypes. Scalar bounds broadcast to ``shape``; with
    scalar bounds and no shape the box has shape ``(1,)``.

    Sampling draws, in this order: a standard normal for coordinates unbounded on both
    sides, ``low + exponential`` for coordinates bounded only below, ``high - exponential``
    for those bounded only above, and a uniform draw on ``[low, high]`` (``[low, high+1)``
    then floored for integer dtypes) for bounded ones. The stream is Gymnasium's.

    Args:
        low: Lower bound(s).
        high: Upper bound(s).
        shape: Shape of elements; inferred from array bounds when omitted.
        dtype: Element dtype (integer, floating or bool).
        seed: Seed or generator for sampling.
    """

    @checked_arguments(
        "Box(low, high, shape=None, dtype=np.float32, seed=None) takes low <= high, numbers or arrays of "
        "the shape within dtype's range, shape, a tuple of non-negative ints, and an integer, floating "
        "or bool dtype"
    )
    def __init__(
        self,
        low: SupportsFloat | NDArray[Any],
        high: SupportsFloat | NDArray[Any],
        shape: Sequence[int] | None = None,
        dtype: Any = np.float32,
        seed: SpaceSeed = None,
    ) -> None:
        if dtype is None:
            raise ValueError("Box dtype must be explicitly provided, cannot be None.")
        self.dtype: np.dtype[Any] = np.dtype(dtype)
        if self.dtype.kind not in ("i", "u", "f", "b"):
            raise ValueError(f"Invalid Box dtype ({self.dtype}), must be an integer, floating, or bool dtype")
        self._shape: tuple[int, ...] = self._infer_shape(low, high, shape)
        dtype_min, dtype_max = _dtype_range(self.dtype)
        self.low, self.bounded_below = self._cast_bound(low, dtype_min, "low")
        self.high, self.bounded_above = self._cast_bound(high, dtype_max, "high")
        for name, arr in (("low", self.low), ("high", self.high)):
            if arr.shape != self._shape:
                raise ValueError(
                    f"Box {name}.shape doesn't match provided shape, "
                    f"{name}.shape={arr.shape}, shape={self._shape}"
                )
        if np.any(self.low > self.high):
            raise ValueError(
                "Box all low values must be less than or equal to high (some values break "
                f"this), low={self.low}, high={self.high}"
            )
        self.low_repr: str | None = None
        self.high_repr: str | None = None
        super().__init__(self._shape, self.dtype, seed)
        self._prepare_sampler()

    @staticmethod
    def _infer_shape(low: Any, high: Any, shape: Sequence[int] | None) -> tuple[int, ...]:
        if shape is not None:
            if not isinstance(shape, Iterable):
                raise TypeError(f"Expected Box shape to be an iterable, actual type={type(shape)}")
            if not all(isinstance(dim, (int, np.integer)) for dim in shape):
                raise TypeError(
                    "Expected all Box shape elements to be integer, actual type="
                    f"{tuple(type(dim) for dim in shape)}"
                )
            return tuple(int(dim) for dim in shape)
        if isinstance(low, np.ndarray) and isinstance(high, np.ndarray):
            if low.shape != high.shape:
                raise ValueError(
                    "Box low.shape and high.shape don't match, "
                    f"low.shape={low.shape}, high.shape={high.shape}"
                )
            return tuple(low.shape)
        if isinstance(low, np.ndarray):
            return tuple(low.shape)
        if isinstance(high, np.ndarray):
            return tuple(high.shape)
        if _is_scalar(low) and _is_scalar(high):
            return (1,)
        raise ValueError(
            # Gymnasium's words exactly (no space after "float."): its tests compare them.
            "Box shape is not specified, therefore inferred from low and high. Expected low "
            f"and high to be np.ndarray, integer, or float.Actual types low={type(low)}, "
            f"high={type(high)}"
        )

    def _cast_bound(
        self, bound: Any, dtype_limit: float, name: Literal["low", "high"]
    ) -> tuple[NDArray[Any], NDArray[np.bool_]]:
        """Cast one bound to the box dtype, replacing infinities for integer dtypes."""
        inf = -np.inf if name == "low" else np.inf
        sign = "-" if name == "low" else ""
        if _is_scalar(bound):
            return self._cast_scalar_bound(bound, inf, dtype_limit, name)
        if not isinstance(bound, np.ndarray):
            raise ValueError(f"Box {name} must be a np.ndarray, integer, or float, actual type={type(bound)}")
        if bound.dtype.kind not in ("f", "i", "u", "b"):
            raise ValueError(
                f"Box {name} must be a floating, integer, or bool dtype, actual dtype={bound.dtype}"
            )
        if np.any(np.isnan(bound)):
            raise ValueError(f"No {name} value can be equal to `np.nan`, {name}={bound}")
        arr = bound.copy()
        is_inf = arr == inf
        limit_at: NDArray[np.bool_] | None = None
        if np.any(is_inf):
            if self.dtype.kind in ("u", "b"):
                raise ValueError(f"Box unsigned int dtype don't support `{sign}np.inf`, {name}={bound}")
            if self.dtype.kind == "i":
                # Set after the cast: int64's limit is not exact in a float array (2**63 - 1
                # rounds to 2**63, which the cast wraps to the most negative int64).
                limit_at = is_inf
                arr[is_inf] = 0
        elif bound.dtype != self.dtype and self._beyond(arr, dtype_limit, name):
            raise ValueError(
                f"Box {name} is out of bounds of the dtype range, {name}={bound}, "
                f"{'min' if name == 'low' else 'max'} dtype={dtype_limit}"
            )
        if (
            bound.dtype.kind == "f"
            and self.dtype.kind == "f"
            and np.finfo(self.dtype).precision < np.finfo(bound.dtype).precision
        ):
            logger.warn(
                f"Box {name}'s precision lowered by casting to {self.dtype}, "
                f"current {name}.dtype={bound.dtype}"
            )
        out = arr.astype(self.dtype)
        if limit_at is not None:
            out[limit_at] = dtype_limit
        return out, ~is_inf

    def _cast_scalar_bound(
        self, bound: Any, inf: float, dtype_limit: float, name: Literal["low", "high"]
    ) -> tuple[NDArray[Any], NDArray[np.bool_]]:
        if np.isnan(bound):
            raise ValueError(f"No {name} value can be equal to `np.nan`, {name}={bound}")
        bounded = np.full(self._shape, bound != inf)
        if bound == inf:
            if self.dtype.kind in ("u", "b"):
                sign = "-" if name == "low" else ""
                raise ValueError(f"Box unsigned int dtype don't support `{sign}np.inf`, {name}={bound}")
            if self.dtype.kind == "i":
                bound = int(dtype_limit)
        elif self._beyond(bound, dtype_limit, name):
            raise ValueError(
                f"Box {name} is out of bounds of the dtype range, {name}={bound}, "
                f"{'min' if name == 'low' else 'max'} dtype={dtype_limit}"
            )
        return np.full(self._shape, bound, dtype=self.dtype), bounded

    @staticmethod
    def _beyond(value: Any, dtype_limit: float, name: str) -> bool:
        if name == "low":
            return bool(np.any(value < dtype_limit))
        return bool(np.any(value > dtype_limit))

    def _prepare_sampler(self) -> None:
        """Precompute what :meth:`sample` needs, once."""
        kind = self.dtype.kind
        high = self.high if kind == "f" else self.high.astype(np.int64) + 1
        self._sample_low = self.low.astype(np.float64)
        self._sample_high = high.astype(np.float64)
        below, above = self.bounded_below, self.bounded_above
        self._masks = (below & above, below & ~above, ~below & above, ~below & ~above)
        with np.errstate(over="ignore", invalid="ignore"):
            span = self._sample_high - self._sample_low
        # One uniform draw over the whole array gives the same stream as Gymnasium's
        # masked draws when every coordinate is bounded and the span is finite.
        self._fast = bool(self._masks[0].all() and np.isfinite(span).all())
        self._span = span
        self._is_int = kind in ("i", "u", "b")
        if np.issubdtype(self.dtype, np.integer):
            lo, hi = _dtype_range(self.dtype)
            if self.dtype == np.int64:  # float64 cannot represent the int64 extremes
                lo, hi = lo + 2, hi - 2
            self._clip: tuple[float, float] | None = (lo, hi)
        else:
            self._clip = None

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of elements."""
        return self._shape

    @property
    def is_np_flattenable(self) -> bool:
        """Always true."""
        return True

    def is_bounded(self, manner: Literal["both", "below", "above"] = "both") -> bool:
        """Whether every coordinate is bounded in the given manner.

        Args:
            manner: ``"both"``, ``"below"`` or ``"above"``.
        """
        below = bool(np.all(self.bounded_below))
        above = bool(np.all(self.bounded_above))
        if manner == "both":
            return below and above
        if manner == "below":
            return below
        if manner == "above":
            return above
        raise ValueError(f"manner is not in {{'below', 'above', 'both'}}, actual value: {manner}")

    def sample(self, mask: None = None, probability: None = None) -> NDArray[Any]:
        """Draw a random element (masks are not supported)."""
        if mask is not None or probability is not None:
            require_no_mask(self, mask, probability)
        rng = self.np_random
        if self._fast:
            sample = rng.random(self._shape)
            sample *= self._span
            sample += self._sample_low
        else:
            sample = self._sample_mixed(rng)
        if self._is_int:
            sample = np.floor(sample)
            if self._clip is not None:
                sample = np.clip(sample, self._clip[0], self._clip[1])
        out = sample.astype(self.dtype)
        if self.dtype == np.int64:
            out = out.clip(self.low, self.high)
        return out

    def _sample_mixed(self, rng: np.random.Generator) -> NDArray[np.float64]:
        bounded, low_only, high_only, unbounded = self._masks
        sample = np.empty(self._shape)
        sample[unbounded] = rng.normal(size=int(unbounded.sum()))
        sample[low_only] = rng.exponential(size=int(low_only.sum())) + self._sample_low[low_only]
        sample[high_only] = -rng.exponential(size=int(high_only.sum())) + self._sample_high[high_only]
        sample[bounded] = rng.uniform(
            low=self._sample_low[bounded], high=self._sample_high[bounded], size=int(bounded.sum())
        )
        return sample

    def contains(self, x: Any) -> bool:
        """Whether ``x`` has the box's shape, a dtype that casts safely, and lies in bounds.

        Non-array input (lists, scalars) is first converted to the box dtype.
        """
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError, OverflowError):
                return False
        return bool(
            x.shape == self._shape
            and np.can_cast(x.dtype, self.dtype)
            and (x >= self.low).all()
            and (x <= self.high).all()
        )

    def to_jsonable(self, sample_n: Iterable[NDArray[Any]]) -> list[Any]:
        """Convert elements to nested lists."""
        return [sample.tolist() for sample in sample_n]

    def from_jsonable(self, sample_n: Iterable[Any]) -> list[NDArray[Any]]:
        """Convert nested lists back to arrays of the box dtype (a numpy scalar where :meth:`sample` gives one).

        A Graph passes its nodes' features here as one list; they keep their own shape.
        """
        scalar = self._shape == () and self._is_int
        out = [np.asarray(sample, dtype=self.dtype) for sample in sample_n]
        return [x[()] if scalar and x.shape == () else x for x in out]

    def element(self, value: Any) -> Any:
        """``value`` as an element in the form :meth:`sample` gives.

        That is an array of the box's dtype and shape, except a numpy scalar for an integer
        box of shape ``()`` (as Gymnasium's ``sample`` returns one there). Round trips
        (flatten, JSON, batches, shared memory) end here.
        """
        out = np.asarray(value, dtype=self.dtype).reshape(self._shape)
        return out[()] if self._shape == () and self._is_int else out

    def __repr__(self) -> str:
        if self.low_repr is None:
            self.low_repr = _short_repr(self.low)
        if self.high_repr is None:
            self.high_repr = _short_repr(self.high)
        return f"Box({self.low_repr}, {self.high_repr}, {self._shape}, {self.dtype})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Box)
            and self._shape == other.shape
            and self.dtype == other.dtype
            and bool(np.allclose(self.low, other.low))
            and bool(np.allclose(self.high, other.high))
        )

    __hash__ = None  # type: ignore[assignment]

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        super().__setstate__(state)
        # Boxes pickled by older Gymnasium versions have no bound reprs: compute them.
        if not hasattr(self, "low_repr"):
            self.low_repr = _short_repr(self.low)
        if not hasattr(self, "high_repr"):
            self.high_repr = _short_repr(self.high)
        if not hasattr(self, "_fast"):
            self._prepare_sampler()
