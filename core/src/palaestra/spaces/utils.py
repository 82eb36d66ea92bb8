"""Flattening spaces and their elements to flat numpy arrays.

Every function is a :func:`functools.singledispatch` generic, so a third-party space
supports flattening by registering its own implementation::

    @flatdim.register(MySpace)
    def _(space: MySpace) -> int: ...
"""

from __future__ import annotations

import math
from functools import singledispatch
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from palaestra.spaces._batching import concatenate, create_empty_array, iterate
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

if TYPE_CHECKING:
    from numpy.typing import NDArray  # annotations only: numpy.typing costs a millisecond to import

__all__ = ["FlatType", "flatdim", "flatten", "flatten_space", "is_space_dtype_shape_equiv", "unflatten"]

#: What ``flatten`` returns: a 1-D array, or, for spaces holding a Graph or Sequence
#: (which have no fixed-size array form), a tuple, dict or GraphInstance.
FlatType: TypeAlias = "NDArray[Any] | dict[str, Any] | tuple[Any, ...] | GraphInstance"

_NOT_FLAT = (
    "cannot be flattened to a numpy array, probably because it contains a `Graph` or `Sequence` subspace"
)


@singledispatch
def _flat_dtype(space: Space[Any]) -> np.dtype[Any]:
    if space.dtype is None:
        raise ValueError(f"{space} does not have a dtype, therefore, it {_NOT_FLAT}.")
    return space.dtype


@_flat_dtype.register(Text)
def _(space: Text) -> np.dtype[Any]:
    return np.dtype(np.int32)


@_flat_dtype.register(Tuple)
def _(space: Tuple) -> np.dtype[Any]:
    return np.result_type(*(_flat_dtype(s) for s in space.spaces))


@_flat_dtype.register(Dict)
def _(space: Dict) -> np.dtype[Any]:
    return np.result_type(*(_flat_dtype(s) for s in space.spaces.values()))


@_flat_dtype.register(OneOf)
def _(space: OneOf) -> np.dtype[Any]:
    dtype = np.result_type(*(_flat_dtype(s) for s in space.spaces))
    max_index = len(space.spaces) - 1
    # The index is stored in the same array, so the dtype must be able to hold it.
    if (dtype.kind == "b" and max_index > 1) or (dtype.kind in "iu" and max_index > np.iinfo(dtype).max):
        dtype = np.result_type(dtype, np.min_scalar_type(max_index))
    return dtype


@singledispatch
def flatdim(space: Space[Any]) -> int:
    """The length of the flat array that elements of ``space`` flatten to.

    Raises:
        ValueError: The space has no fixed flat size (Graph, Sequence).
        NotImplementedError: No implementation is registered for the space type.
    """
    if space.is_np_flattenable is False:
        raise ValueError(f"{space} {_NOT_FLAT}")
    raise NotImplementedError(f"Unknown space: `{space}`")


def _children(space: Tuple | Dict) -> list[Space[Any]]:
    """A container's subspaces in order (a Dict's in key order)."""
    return list(space.spaces.values()) if isinstance(space, Dict) else list(space.spaces)


def _parts(space: Tuple | Dict, x: Any) -> list[Any]:
    """An element of a container split into the elements of its subspaces, in order."""
    return [x[key] for key in space.spaces] if isinstance(space, Dict) else list(x)


def _assemble(space: Tuple | Dict, parts: list[Any]) -> Any:
    """The inverse of :func:`_parts`: a tuple, or a dict keyed like ``space``."""
    return dict(zip(space.spaces, parts, strict=True)) if isinstance(space, Dict) else tuple(parts)


@flatdim.register(Box)
@flatdim.register(MultiBinary)
@flatdim.register(Discrete)
@flatdim.register(MultiDiscrete)
@flatdim.register(Text)
def _(space: Space[Any]) -> int:
    # Arrays keep one entry per element; discrete values become one-hot vectors; text
    # becomes one character index per position.
    if isinstance(space, Discrete):
        return int(space.n)
    if isinstance(space, MultiDiscrete):
        return int(space.nvec.sum())
    if isinstance(space, Text):
        return space.max_length
    return math.prod(space.shape)  # type: ignore[arg-type]


@flatdim.register(Tuple)
@flatdim.register(Dict)
def _(space: Tuple | Dict) -> int:
    if not space.is_np_flattenable:
        raise ValueError(f"{space} {_NOT_FLAT}")
    return sum(map(flatdim, _children(space)))


@flatdim.register(Graph)
def _(space: Graph) -> int:
    raise ValueError("Cannot get flattened size as the Graph Space has a dynamic size.")


@flatdim.register(OneOf)
def _(space: OneOf) -> int:
    if not space.is_np_flattenable:
        raise ValueError(f"{space} {_NOT_FLAT}")
    return 1 + max(map(flatdim, space.spaces))  # the index, then the widest alternative


@singledispatch
def flatten(space: Space[Any], x: Any) -> Any:
    """Flatten element ``x`` of ``space``.

    Discrete values become one-hot vectors, Text an index array padded with
    ``len(charset)``; composite spaces concatenate their parts (or keep their structure
    when a part is not flattenable).
    """
    raise NotImplementedError(f"Unknown space: `{space}`")


@flatten.register(Box)
@flatten.register(MultiBinary)
def _(space: Box | MultiBinary, x: Any) -> NDArray[Any]:
    return np.asarray(x, dtype=space.dtype).flatten()


def _block_offsets(space: MultiDiscrete) -> NDArray[Any]:
    """Where each entry's one-hot block starts in the flat vector, plus the total length.

    In int64 whatever the space's dtype: numpy mixes unsigned and signed integers into floats.
    """
    return np.concatenate(([0], np.cumsum(space.nvec.flatten(), dtype=np.int64)))


@flatten.register(Discrete)
@flatten.register(MultiDiscrete)
def _(space: Discrete | MultiDiscrete, x: Any) -> NDArray[Any]:
    # A 1 at each value's position inside its own block of the one-hot vector.
    if isinstance(space, Discrete):
        size, hot = space.n, x - space.start
    else:
        offsets = _block_offsets(space)
        values = np.asarray(x, dtype=np.int64) - space.start.astype(np.int64)
        size, hot = offsets[-1], offsets[:-1] + values.flatten()
    onehot = np.zeros(size, dtype=space.dtype)
    onehot[hot] = 1
    return onehot


@flatten.register(Tuple)
@flatten.register(Dict)
def _(space: Tuple | Dict, x: Any) -> Any:
    flat = [flatten(s, part) for s, part in zip(_children(space), _parts(space, x), strict=True)]
    # One array when every part is an array; otherwise the container keeps its shape.
    return np.concatenate([np.array(f) for f in flat]) if space.is_np_flattenable else _assemble(space, flat)


def _restack(source: Space[Any], target: Space[Any], items: Any, convert: Any) -> Any:
    """Convert each item of a stacked batch and stack the results in ``target``'s layout."""
    converted = [convert(item) for item in iterate(source, items)]
    out = create_empty_array(target, n=len(converted))
    return concatenate(target, converted, out)


@flatten.register(Graph)
def _(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _restack(
        space.batch_node_space,
        flatten_space(space.node_space),
        x.nodes,
        lambda node: flatten(space.node_space, node),
    )
    edges = None
    if x.edges is not None:
        assert space.edge_space is not None and space.batch_edge_space is not None
        edge_space = space.edge_space
        edges = _restack(
            space.batch_edge_space, flatten_space(edge_space), x.edges, lambda edge: flatten(edge_space, edge)
        )
    return GraphInstance(nodes, edges, x.edge_links)


@flatten.register(Text)
def _(space: Text, x: str) -> NDArray[np.int32]:
    arr = np.full((space.max_length,), len(space.character_set), dtype=np.int32)
    for i, char in enumerate(x):
        arr[i] = space.character_index(char)
    return arr


@flatten.register(Sequence)
def _(space: Sequence, x: Any) -> Any:
    if space.stack:
        return _restack(
            space.stacked_feature_space,
            flatten_space(space.feature_space),
            x,
            lambda item: flatten(space.feature_space, item),
        )
    return tuple(flatten(space.feature_space, item) for item in x)


@flatten.register(OneOf)
def _(space: OneOf, x: tuple[int, Any]) -> Any:
    index, value = x
    if not space.is_np_flattenable:  # an alternative without an array form: keep the pair
        return index, flatten(space.spaces[index], value)
    dtype = _flat_dtype(space)
    flat: NDArray[Any] = flatten(space.spaces[index], value).astype(dtype, copy=False)
    width = flatdim(space) - 1
    if flat.size < width:  # pad to the widest alternative, with the first value (Gymnasium's)
        # An empty alternative pads with the lowest bound, in the flat dtype (not its own).
        fill = flat[0] if flat.size else _one_of_bounds(space)[0]
        flat = np.concatenate([flat, np.full(width - flat.size, fill, dtype=dtype)])
    return np.concatenate([np.array([index], dtype=dtype), flat])


def _one_of_bounds(space: OneOf) -> tuple[Any, Any]:
    """The lowest and highest entry any alternative flattens to (0 when all are empty)."""
    boxes = [flatten_space(s) for s in space.spaces]
    lows = [np.min(box.low) for box in boxes if box.low.size]
    highs = [np.max(box.high) for box in boxes if box.high.size]
    return (min(lows), max(highs)) if lows else (0, 0)


@singledispatch
def unflatten(space: Space[Any], x: Any) -> Any:
    """Invert :func:`flatten`: rebuild an element of ``space`` from its flat form.

    Raises:
        ValueError: ``x`` is not a valid flattening (e.g. an all-zero one-hot).
    """
    raise NotImplementedError(f"Unknown space: `{space}`")


@unflatten.register(Box)
def _(space: Box, x: Any) -> Any:
    return space.element(x)


@unflatten.register(MultiBinary)
def _(space: MultiBinary, x: Any) -> NDArray[Any]:
    return np.asarray(x, dtype=space.dtype).reshape(space.shape)


@unflatten.register(Discrete)
def _(space: Discrete, x: NDArray[Any]) -> Any:
    nonzero = np.nonzero(x)
    if len(nonzero[0]) == 0:
        raise ValueError(
            f"{x} is not a valid one-hot encoded vector and can not be unflattened to space "
            f"{space}. Not all valid samples in a flattened space can be unflattened."
        )
    return space.start + nonzero[0][0].astype(space.dtype)


@unflatten.register(MultiDiscrete)
def _(space: MultiDiscrete, x: NDArray[Any]) -> NDArray[Any]:
    offsets = _block_offsets(space)
    (indices,) = np.nonzero(x)
    if len(indices) == 0:
        raise ValueError(
            f"{x} is not a concatenation of one-hot encoded vectors and can not be unflattened "
            f"to space {space}. Not all valid samples in a flattened space can be unflattened."
        )
    return np.asarray(indices - offsets[:-1], dtype=space.dtype).reshape(space.shape) + space.start


def _split(x: Any, spaces: Any, owner: Space[Any]) -> list[Any]:
    if not isinstance(x, np.ndarray):
        raise TypeError(f"{owner} is numpy-flattenable, so only numpy arrays unflatten to it; got {type(x)}")
    dims = np.asarray([flatdim(s) for s in spaces], dtype=np.int_)
    return np.split(x, np.cumsum(dims[:-1]))


@unflatten.register(Tuple)
@unflatten.register(Dict)
def _(space: Tuple | Dict, x: Any) -> Any:
    children = _children(space)
    if space.is_np_flattenable:
        parts = _split(x, children, space)
    else:
        container = dict if isinstance(space, Dict) else tuple
        if not isinstance(x, container):
            raise TypeError(
                f"{space} is not numpy-flattenable, so only {container.__name__}s unflatten to it; "
                f"got {type(x)}"
            )
        parts = _parts(space, x)
    return _assemble(space, [unflatten(s, part) for s, part in zip(children, parts, strict=True)])


@unflatten.register(Graph)
def _(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _restack(
        flatten_space(space.node_space),
        space.node_space,
        x.nodes,
        lambda node: unflatten(space.node_space, node),
    )
    edges = None
    if x.edges is not None:
        assert space.edge_space is not None
        edge_space = space.edge_space
        edges = _restack(
            flatten_space(edge_space), edge_space, x.edges, lambda edge: unflatten(edge_space, edge)
        )
    return GraphInstance(nodes, edges, x.edge_links)


@unflatten.register(Text)
def _(space: Text, x: NDArray[np.int32]) -> str:
    size = len(space.character_set)
    # int() also accepts float entries, as produced when a Dict/Tuple flattens to float64.
    return "".join(space.character_list[int(i)] for i in x if i < size)


@unflatten.register(Sequence)
def _(space: Sequence, x: Any) -> Any:
    if space.stack:
        return _restack(
            flatten_space(space).stacked_feature_space,  # a batch of flat items
            space.feature_space,
            x,
            lambda item: unflatten(space.feature_space, item),
        )
    return tuple(unflatten(space.feature_space, item) for item in x)


@unflatten.register(OneOf)
def _(space: OneOf, x: Any) -> tuple[Any, Any]:
    if not space.is_np_flattenable:
        index, flat = x
        return np.int64(index), unflatten(space.spaces[index], flat)
    index = np.int64(x[0])
    sub = space.spaces[index]
    trimmed = x[1 : 1 + flatdim(sub)].astype(_flat_dtype(sub))
    return index, unflatten(sub, trimmed)


@singledispatch
def flatten_space(space: Space[Any]) -> Any:
    """The space of flattened elements of ``space`` (a Box when flattenable)."""
    raise NotImplementedError(f"Unknown space: `{space}`")


@flatten_space.register(Box)
@flatten_space.register(Discrete)
@flatten_space.register(MultiBinary)
@flatten_space.register(MultiDiscrete)
def _(space: Space[Any]) -> Box:
    if isinstance(space, Box):  # the same bounds, laid out flat
        return Box(space.low.flatten(), space.high.flatten(), dtype=space.dtype)
    # One-hot and binary entries lie in [0, 1].
    return Box(low=0, high=1, shape=(flatdim(space),), dtype=space.dtype)


def _concat_boxes(spaces: Any) -> Box:
    boxes = [flatten_space(s) for s in spaces]
    return Box(
        low=np.concatenate([b.low for b in boxes]),
        high=np.concatenate([b.high for b in boxes]),
        dtype=np.result_type(*[b.dtype for b in boxes]),
    )


@flatten_space.register(Tuple)
@flatten_space.register(Dict)
def _(space: Tuple | Dict) -> Box | Tuple | Dict:
    if space.is_np_flattenable:
        return _concat_boxes(_children(space))
    flat = _assemble(space, [flatten_space(s) for s in _children(space)])
    return Dict(spaces=flat, sort_keys=space.sort_keys) if isinstance(space, Dict) else Tuple(spaces=flat)


@flatten_space.register(Graph)
def _(space: Graph) -> Graph:
    edge = None if space.edge_space is None else flatten_space(space.edge_space)
    return Graph(node_space=flatten_space(space.node_space), edge_space=edge)


@flatten_space.register(Text)
def _(space: Text) -> Box:
    return Box(low=0, high=len(space.character_set), shape=(space.max_length,), dtype=np.int32)


@flatten_space.register(Sequence)
def _(space: Sequence) -> Sequence:
    return Sequence(flatten_space(space.feature_space), stack=space.stack)


@flatten_space.register(OneOf)
def _(space: OneOf) -> Box | OneOf:
    if not space.is_np_flattenable:
        return OneOf([flatten_space(s) for s in space.spaces])
    width = max(flatdim(s) for s in space.spaces) + 1
    low, high = _one_of_bounds(space)
    lows = np.concatenate([[0], np.full(width - 1, low)])
    highs = np.concatenate([[len(space.spaces) - 1], np.full(width - 1, high)])
    dtype = _flat_dtype(space)
    # Cast first: the bounds come from the subspaces, so no precision is really lost.
    return Box(low=lows.astype(dtype), high=highs.astype(dtype), shape=(width,), dtype=dtype)


@singledispatch
def is_space_dtype_shape_equiv(space_1: Space[Any], space_2: Space[Any]) -> bool:
    """Whether two spaces hold elements of the same dtypes and shapes (bounds may differ)."""
    if isinstance(space_1, Space) and isinstance(space_2, Space):
        raise NotImplementedError(
            f"`is_space_dtype_shape_equiv` has no implementation for {type(space_1).__name__}"
        )
    raise TypeError(f"Expected two spaces, got {type(space_1)} and {type(space_2)}")


@is_space_dtype_shape_equiv.register(Box)
@is_space_dtype_shape_equiv.register(Discrete)
@is_space_dtype_shape_equiv.register(MultiDiscrete)
@is_space_dtype_shape_equiv.register(MultiBinary)
def _(space_1: Space[Any], space_2: Space[Any]) -> bool:
    return (
        type(space_1) is type(space_2) and space_1.shape == space_2.shape and space_1.dtype == space_2.dtype
    )


@is_space_dtype_shape_equiv.register(Text)
def _(space_1: Text, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Text)
        and space_1.max_length == space_2.max_length
        and space_1.character_set == space_2.character_set
    )


@is_space_dtype_shape_equiv.register(Dict)
def _(space_1: Dict, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Dict)
        and space_1.keys() == space_2.keys()
        and all(is_space_dtype_shape_equiv(space_1[k], space_2[k]) for k in space_1)
    )


@is_space_dtype_shape_equiv.register(Tuple)
@is_space_dtype_shape_equiv.register(OneOf)
def _(space_1: Tuple | OneOf, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, type(space_1))
        and len(space_1) == len(space_2)
        and all(
            is_space_dtype_shape_equiv(a, b) for a, b in zip(space_1.spaces, space_2.spaces, strict=False)
        )
    )


@is_space_dtype_shape_equiv.register(Graph)
def _(space_1: Graph, space_2: Space[Any]) -> bool:
    if not isinstance(space_2, Graph) or not is_space_dtype_shape_equiv(
        space_1.node_space, space_2.node_space
    ):
        return False
    if space_1.edge_space is None or space_2.edge_space is None:
        return space_1.edge_space is None and space_2.edge_space is None
    return is_space_dtype_shape_equiv(space_1.edge_space, space_2.edge_space)


@is_space_dtype_shape_equiv.register(Sequence)
def _(space_1: Sequence, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Sequence)
        and space_1.stack is space_2.stack
        and is_space_dtype_shape_equiv(space_1.feature_space, space_2.feature_space)
    )
