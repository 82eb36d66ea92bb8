"""Observation buffers in shared memory, viewed as numpy arrays in every process."""

from __future__ import annotations

import multiprocessing as mp
from functools import singledispatch
from typing import Any

import numpy as np

from palaestra.error import CustomSpaceError
from palaestra.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Space, Tuple

__all__ = ["create_shared_memory", "read_from_shared_memory", "write_to_shared_memory"]


@singledispatch
def create_shared_memory(space: Space[Any], n: int = 1, ctx: Any = mp) -> Any:
    """Allocate shared memory for ``n`` elements of ``space`` (nested like the space).

    Raises:
        CustomSpaceError: The space has no fixed-size array form (Text, Graph, ...).
    """
    raise CustomSpaceError(
        f"Space of type `{type(space)}` doesn't have a registered `create_shared_memory` function; "
        "use shared_memory=False or register one."
    )


@create_shared_memory.register(Box)
@create_shared_memory.register(Discrete)
@create_shared_memory.register(MultiDiscrete)
@create_shared_memory.register(MultiBinary)
def _(space: Space[Any], n: int = 1, ctx: Any = mp) -> Any:
    assert space.dtype is not None and space.shape is not None
    size = n * int(np.prod(space.shape, dtype=np.int64))
    # A raw byte array: the dtype is applied by the numpy view.
    return ctx.RawArray("B", max(size * space.dtype.itemsize, 1))


@create_shared_memory.register(Tuple)
def _(space: Tuple, n: int = 1, ctx: Any = mp) -> tuple[Any, ...]:
    return tuple(create_shared_memory(s, n=n, ctx=ctx) for s in space.spaces)


@create_shared_memory.register(Dict)
def _(space: Dict, n: int = 1, ctx: Any = mp) -> dict[str, Any]:
    return {key: create_shared_memory(s, n=n, ctx=ctx) for key, s in space.spaces.items()}


@singledispatch
def read_from_shared_memory(space: Space[Any], shared_memory: Any, n: int = 1) -> Any:
    """Numpy views (no copy) of ``n`` elements of ``space`` stored in ``shared_memory``."""
    raise CustomSpaceError(
        f"Space of type `{type(space)}` doesn't have a registered `read_from_shared_memory` function."
    )


@read_from_shared_memory.register(Box)
@read_from_shared_memory.register(Discrete)
@read_from_shared_memory.register(MultiDiscrete)
@read_from_shared_memory.register(MultiBinary)
def _(space: Space[Any], shared_memory: Any, n: int = 1) -> np.ndarray[Any, Any]:
    assert space.dtype is not None and space.shape is not None
    count = n * int(np.prod(space.shape, dtype=np.int64))
    return np.frombuffer(shared_memory, dtype=space.dtype, count=count).reshape((n, *space.shape))


@read_from_shared_memory.register(Tuple)
def _(space: Tuple, shared_memory: Any, n: int = 1) -> tuple[Any, ...]:
    return tuple(read_from_shared_memory(s, m, n=n) for s, m in zip(space.spaces, shared_memory, strict=True))


@read_from_shared_memory.register(Dict)
def _(space: Dict, shared_memory: Any, n: int = 1) -> dict[str, Any]:
    return {key: read_from_shared_memory(s, shared_memory[key], n=n) for key, s in space.spaces.items()}


@singledispatch
def write_to_shared_memory(space: Space[Any], index: int, value: Any, shared_memory: Any) -> None:
    """Write element ``value`` of ``space`` at position ``index`` of ``shared_memory``."""
    raise CustomSpaceError(
        f"Space of type `{type(space)}` doesn't have a registered `write_to_shared_memory` function."
    )


@write_to_shared_memory.register(Box)
@write_to_shared_memory.register(Discrete)
@write_to_shared_memory.register(MultiDiscrete)
@write_to_shared_memory.register(MultiBinary)
def _(space: Space[Any], index: int, value: Any, shared_memory: Any) -> None:
    assert space.dtype is not None and space.shape is not None
    size = int(np.prod(space.shape, dtype=np.int64))
    view = np.frombuffer(
        shared_memory, dtype=space.dtype, count=size, offset=index * size * space.dtype.itemsize
    )
    np.copyto(view, np.asarray(value, dtype=space.dtype).reshape(size))


@write_to_shared_memory.register(Tuple)
def _(space: Tuple, index: int, value: Any, shared_memory: Any) -> None:
    for s, v, m in zip(space.spaces, value, shared_memory, strict=True):
        write_to_shared_memory(s, index, v, m)


@write_to_shared_memory.register(Dict)
def _(space: Dict, index: int, value: Any, shared_memory: Any) -> None:
    for key, s in space.spaces.items():
        write_to_shared_memory(s, index, value[key], shared_memory[key])
