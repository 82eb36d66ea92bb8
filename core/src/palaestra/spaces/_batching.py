"""Batching spaces and their elements (for vector envs, and for stacked Sequences).

All functions are :func:`functools.singledispatch` generics; register an implementation
for a custom space type to make it batchable. Graph and Sequence register their own rules
in their modules; ``palaestra.vector.utils`` re-exports these functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Sequence as PySequence
from copy import deepcopy
from functools import singledispatch
from typing import Any

import numpy as np

from palaestra._base._notes import noted
from palaestra.error import CustomSpaceError
from palaestra.spaces._box import Box
from palaestra.spaces._dict import Dict
from palaestra.spaces._discrete import Discrete
from palaestra.spaces._multi_binary import MultiBinary
from palaestra.spaces._multi_discrete import MultiDiscrete
from palaestra.spaces._oneof import OneOf
from palaestra.spaces._space import Space
from palaestra.spaces._text import Text
from palaestra.spaces._tuple import Tuple

__all__ = [
    "batch_differing_spaces",
    "batch_space",
    "concatenate",
    "create_empty_array",
    "differing_opaque",
    "iterate",
]


@singledispatch
def batch_space(space: Space[Any], n: int = 1) -> Space[Any]:
    """The space of ``n`` stacked elements of ``space``.

    The batched space starts from a copy of ``space``'s generator, so batching never
    advances the original. Discrete becomes MultiDiscrete, MultiDiscrete and MultiBinary
    become integer Boxes, and spaces without a stacked form become a Tuple of copies.
    """
    raise not_a_space("batch_space", space)


@batch_space.register(Box)
def _(space: Box, n: int = 1) -> Box:
    repeats = (n,) + (1,) * space.low.ndim
    return Box(
        np.tile(space.low, repeats),
        np.tile(space.high, repeats),
        dtype=space.dtype,
        seed=deepcopy(space.np_random),
    )


@batch_space.register(Discrete)
def _(space: Discrete, n: int = 1) -> MultiDiscrete:
    # n copies of one Discrete: every entry has the same count and start.
    counts, starts = (np.full(n, value, dtype=space.dtype) for value in (space.n, space.start))
    return MultiDiscrete(counts, dtype=space.dtype, seed=deepcopy(space.np_random), start=starts)


@batch_space.register(MultiDiscrete)
def _(space: MultiDiscrete, n: int = 1) -> Box:
    repeats = (n,) + (1,) * space.nvec.ndim
    low = np.tile(space.start, repeats)
    high = low + np.tile(space.nvec, repeats) - 1
    return Box(low=low, high=high, dtype=space.dtype, seed=deepcopy(space.np_random))


@batch_space.register(MultiBinary)
def _(space: MultiBinary, n: int = 1) -> Box:
    return Box(low=0, high=1, shape=(n, *space.shape), dtype=space.dtype, seed=deepcopy(space.np_random))


@batch_space.register(Tuple)
@batch_space.register(Dict)
def _(space: Tuple | Dict, n: int = 1) -> Tuple | Dict:
    # A container batches each of its subspaces and keeps its own layout.
    seed = deepcopy(space.np_random)
    if isinstance(space, Dict):
        batched = {key: batch_space(sub, n=n) for key, sub in space.items()}
        return Dict(batched, seed=seed, sort_keys=space.sort_keys)
    return Tuple(tuple(batch_space(sub, n=n) for sub in space.spaces), seed=seed)


# Every other space (Graph, Text, Sequence, OneOf, third-party spaces): n independent copies.
@batch_space.register(Space)
def _(space: Space[Any], n: int = 1) -> Tuple:
    batched = Tuple(tuple(deepcopy(space) for _ in range(n)), seed=deepcopy(space.np_random))
    # Give each copy its own stream, derived from (a copy of) the original's generator.
    seeds = [int(s) for s in deepcopy(space.np_random).integers(0, int(1e8), n)]
    batched.seed(seeds)
    return batched


@singledispatch
def batch_differing_spaces(spaces: PySequence[Space[Any]]) -> Space[Any]:
    """Batch spaces of one type whose parameters (bounds, ``n``) differ per sub-env."""
    if len(spaces) == 0:
        raise ValueError("Expects a non-empty list of spaces")
    if not all(isinstance(s, type(spaces[0])) for s in spaces):
        raise TypeError(
            f"Expects all spaces to be of the same type, actual types: {[type(s) for s in spaces]}"
        )
    # Dispatch on the type of the spaces, not of the list holding them.
    if type(spaces[0]) not in batch_differing_spaces.registry:
        supported = sorted(t.__name__ for t in batch_differing_spaces.registry if t is not object)
        raise TypeError(
            f"No `batch_differing_spaces` implementation for {type(spaces[0]).__name__}; "
            f"register one with @batch_differing_spaces.register. Supported: {supported}"
        )
    return batch_differing_spaces.dispatch(type(spaces[0]))(spaces)


def _same(spaces: PySequence[Any], attr: Callable[[Any], Any], what: str) -> None:
    values = [attr(s) for s in spaces]
    if any(v != values[0] for v in values):
        raise ValueError(f"Expected all {what} to be equal, actually {values}")


def _differing_box(spaces: PySequence[Box]) -> Box:
    _same(spaces, lambda s: s.dtype, "dtypes")
    _same(spaces, lambda s: s.low.shape, "Box.low shapes")
    _same(spaces, lambda s: s.high.shape, "Box.high shapes")
    return Box(
        low=np.array([s.low for s in spaces]),
        high=np.array([s.high for s in spaces]),
        dtype=spaces[0].dtype,
        seed=deepcopy(spaces[0].np_random),
    )


def _differing_discrete(spaces: PySequence[Discrete]) -> MultiDiscrete:
    largest = max((s.dtype for s in spaces), key=lambda dt: np.dtype(dt).itemsize)
    return MultiDiscrete(
        nvec=np.array([s.n for s in spaces]),
        dtype=largest,
        start=np.array([s.start for s in spaces]),
        seed=deepcopy(spaces[0].np_random),
    )


def _differing_multi_discrete(spaces: PySequence[MultiDiscrete]) -> Box:
    _same(spaces, lambda s: s.dtype, "dtypes")
    _same(spaces, lambda s: s.nvec.shape, "MultiDiscrete.nvec shapes")
    return Box(
        low=np.array([s.start for s in spaces]),
        high=np.array([s.start + s.nvec for s in spaces]) - 1,
        dtype=spaces[0].dtype,
        seed=deepcopy(spaces[0].np_random),
    )


def _differing_multi_binary(spaces: PySequence[MultiBinary]) -> Box:
    _same(spaces, lambda s: s.shape, "MultiBinary shapes")
    return Box(
        low=0,
        high=1,
        shape=(len(spaces), *spaces[0].shape),
        dtype=spaces[0].dtype,
        seed=deepcopy(spaces[0].np_random),
    )


def _differing_tuple(spaces: PySequence[Tuple]) -> Tuple:
    columns = zip(*[s.spaces for s in spaces], strict=True)
    return Tuple(
        tuple(batch_differing_spaces(list(col)) for col in columns), seed=deepcopy(spaces[0].np_random)
    )


def _differing_dict(spaces: PySequence[Dict]) -> Dict:
    _same(spaces, lambda s: list(s.keys()), "Dict keys")
    return Dict(
        {key: batch_differing_spaces([s[key] for s in spaces]) for key in spaces[0]},
        seed=deepcopy(spaces[0].np_random),
        sort_keys=spaces[0].sort_keys,
    )


def differing_opaque(spaces: PySequence[Space[Any]]) -> Tuple:
    """A Tuple of copies of spaces that have no stacked form (Text, OneOf, Graph, Sequence)."""
    return Tuple([deepcopy(s) for s in spaces], seed=deepcopy(spaces[0].np_random))


def batch_differing_as_copies(space_type: type) -> None:
    """Batch differing spaces of ``space_type`` as a Tuple of copies (for space modules above this one)."""
    batch_differing_spaces.register(space_type)(differing_opaque)


for _type, _impl in (
    (Box, _differing_box),
    (Discrete, _differing_discrete),
    (MultiDiscrete, _differing_multi_discrete),
    (MultiBinary, _differing_multi_binary),
    (Tuple, _differing_tuple),
    (Dict, _differing_dict),
    (Text, differing_opaque),
    (OneOf, differing_opaque),
):
    batch_differing_spaces.register(_type)(_impl)


@singledispatch
def iterate(space: Space[Any], items: Any) -> Iterator[Any]:
    """Iterate over the elements of a batch of ``space`` (the inverse of :func:`concatenate`)."""
    if isinstance(space, Space):
        raise CustomSpaceError(
            f"Space of type `{type(space)}` doesn't have an registered `iterate` function. "
            f"Register `{type(space)}` for `iterate` to support it."
        )
    raise not_a_space("iterate", space)


@iterate.register(Discrete)
def _(space: Discrete, items: Any) -> Iterator[Any]:
    raise TypeError("Unable to iterate over a space of type `Discrete`.")


@iterate.register(Box)
@iterate.register(MultiDiscrete)
@iterate.register(MultiBinary)
def _(space: Space[Any], items: Any) -> Iterator[Any]:
    try:
        return iter(items)
    except TypeError as e:
        raise TypeError(f"Unable to iterate over the following elements: {items}") from e


@iterate.register(Tuple)
def _(space: Tuple, items: Any) -> Iterator[Any]:
    if all(type(s) in iterate.registry for s in space):
        return zip(*[iterate(s, items[i]) for i, s in enumerate(space)], strict=True)
    try:
        return iter(items)
    except Exception as e:
        missing = [type(s) for s in space if type(s) not in iterate.registry]
        raise CustomSpaceError(
            f"Could not iterate through {space} as no custom iterate function is registered for "
            f"{missing} and `iter(items)` raised the following error: {e}."
        ) from e


@iterate.register(Dict)
def _(space: Dict, items: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    keys = list(space.spaces)
    columns = [iterate(space.spaces[key], items[key]) for key in keys]
    for row in zip(*columns, strict=True):
        yield dict(zip(keys, row, strict=True))


@singledispatch
def concatenate(space: Space[Any], items: Iterable[Any], out: Any) -> Any:
    """Stack ``items`` (elements of ``space``) into ``out`` (from :func:`create_empty_array`)."""
    raise not_a_space("concatenate", space)


@concatenate.register(Box)
@concatenate.register(Discrete)
@concatenate.register(MultiDiscrete)
@concatenate.register(MultiBinary)
def _(space: Space[Any], items: Iterable[Any], out: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.stack(list(items), axis=0, out=out)


@concatenate.register(Tuple)
@concatenate.register(Dict)
def _(space: Tuple | Dict, items: Iterable[Any], out: Any) -> Any:
    # Stack each member across the items into the matching member of `out`.
    items = list(items)
    members = space.spaces.items() if isinstance(space, Dict) else enumerate(space.spaces)
    stacked = {key: concatenate(sub, [item[key] for item in items], out[key]) for key, sub in members}
    return stacked if isinstance(space, Dict) else tuple(stacked.values())


# Spaces without a stacked array form keep the items as a tuple.
@concatenate.register(Space)
def _(space: Space[Any], items: Iterable[Any], out: Any) -> tuple[Any, ...]:
    return tuple(items)


@singledispatch
def create_empty_array(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> Any:
    """Allocate a batch of ``n`` elements of ``space`` with ``fn`` (``np.zeros`` by default)."""
    raise not_a_space("create_empty_array", space)


@create_empty_array.register(Box)
@create_empty_array.register(Discrete)
@create_empty_array.register(MultiDiscrete)
@create_empty_array.register(MultiBinary)
def _(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> Any:
    return fn((n, *space.shape), dtype=space.dtype)  # type: ignore[misc]


@create_empty_array.register(Tuple)
def _(space: Tuple, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[Any, ...]:
    return tuple(create_empty_array(s, n=n, fn=fn) for s in space.spaces)


@create_empty_array.register(Dict)
def _(space: Dict, n: int = 1, fn: Callable[..., Any] = np.zeros) -> dict[str, Any]:
    return {key: create_empty_array(s, n=n, fn=fn) for key, s in space.items()}


@create_empty_array.register(Text)
def _(space: Text, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[str, ...]:
    return tuple(space.characters[0] * space.min_length for _ in range(n))


@create_empty_array.register(OneOf)
def _(space: OneOf, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[Any, ...]:
    return tuple(() for _ in range(n))


@create_empty_array.register(Space)
def _(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> None:
    return None


def not_a_space(function: str, space: Any) -> TypeError:
    """Gymnasium's error for a non-space given to ``function``, with what is needed in a note."""
    error = TypeError(
        f"The space provided to `{function}` is not a gymnasium Space instance, type: {type(space)}, {space}"
    )
    noted(error, "A palaestra Space is needed (palaestra.spaces.*).")
    return error
