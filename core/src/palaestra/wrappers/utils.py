"""Helpers for wrapper authors: running statistics and Box rescaling."""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any

import numpy as np

from palaestra.error import CustomSpaceError
from palaestra.spaces._batching import batch_space
from palaestra.spaces._box import Box
from palaestra.spaces._dict import Dict
from palaestra.spaces._discrete import Discrete
from palaestra.spaces._graph import Graph, GraphInstance
from palaestra.spaces._multi_binary import MultiBinary
from palaestra.spaces._multi_discrete import MultiDiscrete
from palaestra.spaces._oneof import OneOf
from palaestra.spaces._sequence import Sequence
from palaestra.spaces._space import Space
from palaestra.spaces._text import Text
from palaestra.spaces._tuple import Tuple


@singledispatch
def create_zero_array(space: Space[Any]) -> Any:
    """The "zero" element of ``space`` (zeros moved into the bounds, ``start`` values, empty text...).

    Used for padding (frame stacks, delayed observations). A singledispatch function:
    register custom spaces with ``@create_zero_array.register(MySpace)``.
    """
    if isinstance(space, Space):
        raise CustomSpaceError(
            f"Space of type `{type(space)}` doesn't have a registered `create_zero_array` function. "
            f"Register `{type(space)}` for `create_zero_array` to support it."
        )
    raise TypeError(
        f"The space provided to `create_zero_array` is not a palaestra Space, type: {type(space)}"
    )


@create_zero_array.register(Box)
def _(space: Box) -> np.ndarray:
    zero = np.zeros(space.shape, dtype=space.dtype)
    zero = np.where(space.low > 0, space.low, zero)
    return np.where(space.high < 0, space.high, zero)


@create_zero_array.register(Discrete)
def _(space: Discrete) -> Any:
    return space.start


@create_zero_array.register(MultiDiscrete)
def _(space: MultiDiscrete) -> np.ndarray:
    return np.array(space.start, copy=True, dtype=space.dtype)


@create_zero_array.register(MultiBinary)
def _(space: MultiBinary) -> np.ndarray:
    return np.zeros(space.shape, dtype=space.dtype)


@create_zero_array.register(Tuple)
def _(space: Tuple) -> tuple[Any, ...]:
    return tuple(create_zero_array(s) for s in space.spaces)


@create_zero_array.register(Dict)
def _(space: Dict) -> dict[str, Any]:
    return {key: create_zero_array(s) for key, s in space.spaces.items()}


@create_zero_array.register(Sequence)
def _(space: Sequence) -> Any:
    return create_zero_array(space.stacked_feature_space) if space.stack else ()


@create_zero_array.register(Text)
def _(space: Text) -> str:
    return space.characters[0] * space.min_length


@create_zero_array.register(Graph)
def _(space: Graph) -> GraphInstance:
    nodes = create_zero_array(batch_space(space.node_space, 1))
    if space.edge_space is None:
        return GraphInstance(nodes=nodes, edges=None, edge_links=None)
    edges = create_zero_array(batch_space(space.edge_space, 1))
    return GraphInstance(nodes=nodes, edges=edges, edge_links=np.zeros((1, 2), dtype=np.int64))


@create_zero_array.register(OneOf)
def _(space: OneOf) -> tuple[int, Any]:
    return 0, create_zero_array(space.spaces[0])


__all__ = ["RunningMeanStd", "create_zero_array", "rescale_box", "update_mean_var_count_from_moments"]


def update_mean_var_count_from_moments(
    mean: Any, var: Any, count: Any, batch_mean: Any, batch_var: Any, batch_count: Any
) -> tuple[Any, Any, Any]:
    """Merge a batch's mean/variance/count into running ones (Chan et al.'s parallel update)."""
    delta = batch_mean - mean
    total = count + batch_count
    new_mean = mean + delta * batch_count / total
    m2 = var * count + batch_var * batch_count + np.square(delta) * count * batch_count / total
    return new_mean, m2 / total, total


class StatisticsSwitch:
    """Mixin of the normalisation wrappers: ``update_running_mean`` freezes their statistics."""

    _update_running_mean: bool = True

    def _updating(self) -> bool:
        return self._update_running_mean

    def _set_updating(self, setting: bool) -> None:
        self._update_running_mean = setting

    update_running_mean = property(
        _updating, _set_updating, doc="Whether steps update the running statistics (turn off for evaluation)."
    )


class RunningMeanStd:
    """Running mean and variance of a stream of arrays (batches along axis 0).

    Args:
        epsilon: Initial count, so the first update does not divide by zero.
        shape: Shape of one element.
        dtype: Dtype of the statistics.
    """

    def __init__(self, epsilon: float = 1e-4, shape: tuple[int, ...] = (), dtype: Any = np.float64) -> None:
        self.mean = np.zeros(shape, dtype=dtype)
        self.var = np.ones(shape, dtype=dtype)
        self.count: Any = epsilon

    def update(self, x: np.ndarray) -> None:
        """Add a batch of elements (axis 0)."""
        self.update_from_moments(np.mean(x, axis=0), np.var(x, axis=0), x.shape[0])

    def update_from_moments(self, batch_mean: Any, batch_var: Any, batch_count: Any) -> None:
        """Add a batch given by its moments."""
        self.mean, self.var, self.count = update_mean_var_count_from_moments(
            self.mean, self.var, self.count, batch_mean, batch_var, batch_count
        )


def _bound_array(value: Any, shape: tuple[int, ...], name: str) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        if not (np.issubdtype(type(value), np.integer) or np.issubdtype(type(value), np.floating)):
            raise TypeError(f"Expected {name} to be an integer, float, or numpy array, got {type(value)}")
        value = np.full(shape, value)
    if value.shape != shape:
        raise ValueError(f"Expected {name}.shape to be {shape}, got {value.shape}")
    return value  # type: ignore[no-any-return]


def rescale_box(
    box: Box, new_min: Any, new_max: Any
) -> tuple[Box, Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """An affine map from ``box`` onto ``[new_min, new_max]`` (infinite bounds stay as they are).

    Returns:
        The new box, the map from the new box to ``box`` and its inverse.
    """
    if not isinstance(box, Box):
        raise TypeError(f"Expected box to be a Box space, got {type(box)}")
    new_min = _bound_array(new_min, box.shape, "new_min")
    new_max = _bound_array(new_max, box.shape, "new_max")
    for new, old in ((new_min, box.low), (new_max, box.high)):
        if not np.all((new == old)[np.isinf(new) | np.isinf(old)]):
            raise ValueError(
                "For unbounded components, the target bounds must match the original infinity bounds."
            )
    if not np.all(new_min <= new_max):
        raise ValueError(f"Expected new_min to be less than or equal to new_max, got {new_min} and {new_max}")
    # Extended precision where the platform has it, so wide float64 ranges do not overflow.
    wide = getattr(np, "float128", np.float64)
    min_finite, max_finite = np.isfinite(new_min), np.isfinite(new_max)
    both = min_finite & max_finite
    span = np.array(box.high[both], dtype=wide) - np.array(box.low[both], dtype=wide)
    gradient = np.ones_like(new_min, dtype=box.dtype)
    gradient[both] = (new_max[both] - new_min[both]) / span
    intercept = np.zeros_like(new_min, dtype=box.dtype)
    intercept[max_finite] = new_max[max_finite] - box.high[max_finite]
    intercept[min_finite] = gradient[min_finite] * -box.low[min_finite] + new_min[min_finite]
    new_box = Box(low=new_min, high=new_max, shape=box.shape, dtype=box.dtype)

    def forward(obs: np.ndarray) -> np.ndarray:
        return gradient * obs + intercept  # type: ignore[no-any-return]

    def backward(obs: np.ndarray) -> np.ndarray:
        return (obs - intercept) / gradient  # type: ignore[no-any-return]

    return new_box, forward, backward
