"""Observation buffers in shared memory, viewed as numpy arrays in every process."""

from __future__ import annotations

import multiprocessing as mp
from functools import singledispatch
from typing import Any

import numpy as np

from palaestra.error import CustomSpaceError, DynamicSpaceError, InvalidEnvArgumentValue
from palaestra.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Space,
    Text,
    Tuple,
)
from palaestra.spaces._batching import not_a_space
from palaestra.spaces.utils import flatten, unflatten

__all__ = [
    "buffer_bytes",
    "check_fits",
    "create_shared_memory",
    "read_from_shared_memory",
    "reads_are_live_views",
    "write_to_shared_memory",
]


def _require_space(space: Any, function: str) -> None:
    if not isinstance(space, Space):
        raise not_a_space(function, space)


@singledispatch
def create_shared_memory(space: Space[Any], n: int = 1, ctx: Any = mp) -> Any:
    """Allocate shared memory for ``n`` elements of ``space`` (nested like the space).

    Raises:
        CustomSpaceError: The space has no fixed-size array form (Text, Graph, ...).
    """
    _require_space(space, "create_shared_memory")
    raise CustomSpaceError(
        f"Space of type `{type(space)}` doesn't have an registered `create_shared_memory` function. Register "
        f"`{type(space)}` for `create_shared_memory` to support it. (Or pass shared_memory=False: "
        "AsyncVectorEnv then sends observations through its pipes.)"
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


@create_shared_memory.register(Text)
def _(space: Text, n: int = 1, ctx: Any = mp) -> Any:
    # Each string as its flattened form: max_length character indices, padded past the end.
    return ctx.RawArray("i", max(n * space.max_length, 1))


@create_shared_memory.register(OneOf)
def _(space: OneOf, n: int = 1, ctx: Any = mp) -> tuple[Any, ...]:
    # Which subspace each sub-env's sample is from, then a buffer per subspace.
    return (ctx.RawArray("q", n), *(create_shared_memory(s, n=n, ctx=ctx) for s in space.spaces))


@create_shared_memory.register(Graph)
@create_shared_memory.register(Sequence)
def _(space: Space[Any], n: int = 1, ctx: Any = mp) -> Any:
    raise DynamicSpaceError(
        f"As {space} has a dynamic shape so its not possible to make a static shared memory. For "
        "`AsyncVectorEnv`, disable `shared_memory`. (Its samples have no fixed size: with "
        "shared_memory=False, AsyncVectorEnv sends them through its pipes.)"
    )


@create_shared_memory.register(Tuple)
def _(space: Tuple, n: int = 1, ctx: Any = mp) -> tuple[Any, ...]:
    return tuple(create_shared_memory(s, n=n, ctx=ctx) for s in space.spaces)


@create_shared_memory.register(Dict)
def _(space: Dict, n: int = 1, ctx: Any = mp) -> dict[str, Any]:
    return {key: create_shared_memory(s, n=n, ctx=ctx) for key, s in space.spaces.items()}


@singledispatch
def read_from_shared_memory(space: Space[Any], shared_memory: Any, n: int = 1) -> Any:
    """Numpy views (no copy) of ``n`` elements of ``space`` stored in ``shared_memory``."""
    _require_space(space, "read_from_shared_memory")
    raise CustomSpaceError(
        f"Space of type `{type(space)}` doesn't have an registered `read_from_shared_memory` function. "
        f"Register `{type(space)}` for `read_from_shared_memory` to support it."
    )


@read_from_shared_memory.register(Box)
@read_from_shared_memory.register(Discrete)
@read_from_shared_memory.register(MultiDiscrete)
@read_from_shared_memory.register(MultiBinary)
def _(space: Space[Any], shared_memory: Any, n: int = 1) -> np.ndarray[Any, Any]:
    assert space.dtype is not None and space.shape is not None
    count = n * int(np.prod(space.shape, dtype=np.int64))
    return np.frombuffer(shared_memory, dtype=space.dtype, count=count).reshape((n, *space.shape))


@read_from_shared_memory.register(Text)
def _(space: Text, shared_memory: Any, n: int = 1) -> tuple[str, ...]:
    rows = np.frombuffer(shared_memory, dtype=np.int32, count=n * space.max_length)
    rows = rows.reshape((n, space.max_length))
    return tuple(unflatten(space, row) for row in rows)


@read_from_shared_memory.register(OneOf)
def _(space: OneOf, shared_memory: Any, n: int = 1) -> tuple[tuple[int, Any], ...]:
    chosen = np.frombuffer(shared_memory[0], dtype=np.int64, count=n).copy()  # np.int64, as sampled
    samples = [
        read_from_shared_memory(s, m, n=n) for s, m in zip(space.spaces, shared_memory[1:], strict=True)
    ]
    return tuple((k, _element(space.spaces[k], samples[k], i)) for i, k in enumerate(chosen))


def _element(space: Space[Any], batch: Any, i: int) -> Any:
    """Element ``i`` of a read batch, in the form ``space.sample()`` gives (a copy, not a view)."""
    if isinstance(space, Tuple):
        return tuple(_element(s, b, i) for s, b in zip(space.spaces, batch, strict=True))
    if isinstance(space, Dict):
        return {key: _element(s, batch[key], i) for key, s in space.spaces.items()}
    if isinstance(space, Box):
        return space.element(batch[i])
    if isinstance(space, (Text, OneOf)):
        return batch[i]
    return batch[i].copy() if isinstance(batch[i], np.ndarray) else batch[i]


@read_from_shared_memory.register(Tuple)
def _(space: Tuple, shared_memory: Any, n: int = 1) -> tuple[Any, ...]:
    return tuple(read_from_shared_memory(s, m, n=n) for s, m in zip(space.spaces, shared_memory, strict=True))


@read_from_shared_memory.register(Dict)
def _(space: Dict, shared_memory: Any, n: int = 1) -> dict[str, Any]:
    return {key: read_from_shared_memory(s, shared_memory[key], n=n) for key, s in space.spaces.items()}


@singledispatch
def write_to_shared_memory(space: Space[Any], index: int, value: Any, shared_memory: Any) -> None:
    """Write element ``value`` of ``space`` at position ``index`` of ``shared_memory``."""
    _require_space(space, "write_to_shared_memory")
    raise CustomSpaceError(
        f"Space of type `{type(space)}` doesn't have an registered `write_to_shared_memory` function. "
        f"Register `{type(space)}` for `write_to_shared_memory` to support it."
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


@write_to_shared_memory.register(Text)
def _(space: Text, index: int, value: Any, shared_memory: Any) -> None:
    size = space.max_length
    view = np.frombuffer(shared_memory, dtype=np.int32, count=size, offset=index * size * 4)
    np.copyto(view, flatten(space, value))


@write_to_shared_memory.register(OneOf)
def _(space: OneOf, index: int, value: Any, shared_memory: Any) -> None:
    chosen, sample = value
    np.frombuffer(shared_memory[0], dtype=np.int64, count=1, offset=index * 8)[0] = chosen
    # Only the chosen subspace's buffer is written: the others' slots keep stale data, unread.
    write_to_shared_memory(space.spaces[chosen], index, sample, shared_memory[1 + chosen])


@write_to_shared_memory.register(Tuple)
def _(space: Tuple, index: int, value: Any, shared_memory: Any) -> None:
    for s, v, m in zip(space.spaces, value, shared_memory, strict=True):
        write_to_shared_memory(s, index, v, m)


@write_to_shared_memory.register(Dict)
def _(space: Dict, index: int, value: Any, shared_memory: Any) -> None:
    for key, s in space.spaces.items():
        write_to_shared_memory(s, index, value[key], shared_memory[key])


def reads_are_live_views(space: Space[Any]) -> bool:
    """Whether :func:`read_from_shared_memory` gives views that follow later writes.

    Numeric spaces (and Tuples and Dicts of them) read as numpy views made once; a Text or
    OneOf reads as new Python objects, so its batch must be read again after every write.
    """
    if isinstance(space, (Tuple, Dict)):
        children = space.spaces.values() if isinstance(space, Dict) else space.spaces
        return all(reads_are_live_views(s) for s in children)
    return not isinstance(space, (Text, OneOf))


def available_memory() -> int | None:
    """Bytes of memory this machine can still give (Linux's ``MemAvailable``), or None where unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_fits(nbytes: int, what: str) -> None:
    """Refuse to allocate ``nbytes`` of shared buffers for ``what`` when the machine lacks the memory.

    Filling a buffer that cannot fit would take minutes before failing (or swap); the check
    costs one read of ``/proc/meminfo``.

    Raises:
        InvalidEnvArgumentValue: More than the memory available, naming both sizes.
    """
    available = available_memory()
    if available is not None and nbytes > available:
        raise InvalidEnvArgumentValue(
            f"{what} needs {nbytes / 2**30:,.1f} GiB of shared buffers and this machine has "
            f"{available / 2**30:,.1f} GiB available: pass fewer sub-envs"
        )


def buffer_bytes(space: Space[Any], n: int) -> int:
    """Bytes :func:`create_shared_memory` takes for ``n`` elements of ``space`` (0 where it has no fixed size)."""
    if isinstance(space, (Box, Discrete, MultiDiscrete, MultiBinary)):
        assert space.dtype is not None and space.shape is not None
        return n * int(np.prod(space.shape, dtype=np.int64)) * space.dtype.itemsize
    if isinstance(space, (Tuple, Dict)):
        parts = space.spaces.values() if isinstance(space, Dict) else space.spaces
        return sum(buffer_bytes(part, n) for part in parts)
    return 0
