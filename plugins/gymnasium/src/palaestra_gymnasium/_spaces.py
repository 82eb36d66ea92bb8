"""Space conversion both ways, keeping each space's generator, and the values that need it.

The ten space types of both libraries have the same constructor arguments and sampling
streams, so a converted space is rebuilt from the source's public attributes and handed
the source's generator itself (not a copy): sampling either space draws from one stream.
Both converters are ``functools.singledispatch`` functions, so a package with its own
space type registers its conversion with ``@to_gymnasium_space.register(MySpace)``.

Values are the same objects in both libraries (numpy arrays, ints, strings, tuples,
dicts) except graphs: each library has its own ``GraphInstance`` named tuple.
:func:`graph_converter` builds the function that rewraps them, or ``None`` for a space
without a ``Graph`` inside, so that envs without graphs pass values through untouched.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces as gym_spaces

from palaestra import spaces
from palaestra_gymnasium._foreign import GymnasiumSpace, PalaestraSpace

__all__ = ["from_gymnasium_space", "graph_converter", "to_gymnasium_space"]

Convert = Callable[[Any], Any]


@functools.singledispatch
def to_gymnasium_space(space: Any) -> gymnasium.Space[Any]:
    """The Gymnasium space equal to a palaestra ``space``, sharing its generator.

    Args:
        space: A palaestra space: the ten standard types are rebuilt exactly; any other type
            is carried as a :class:`PalaestraSpace` (or a conversion registered for it).

    Raises:
        TypeError: ``space`` is not a space.
    """
    if isinstance(space, gymnasium.Space):
        return space
    if isinstance(space, GymnasiumSpace):
        return space.space  # type: ignore[no-any-return]  # it came from Gymnasium: the original
    if isinstance(space, spaces.Space):
        return PalaestraSpace(space)  # a type Gymnasium does not know: carried as it is
    raise TypeError(f"to_gymnasium_space: {space!r} is not a space ({type(space).__name__})")


@functools.singledispatch
def from_gymnasium_space(space: Any) -> spaces.Space[Any]:
    """The palaestra space equal to a Gymnasium ``space``, sharing its generator.

    Args:
        space: A Gymnasium space: the ten standard types are rebuilt exactly; any other type
            (MiniGrid's ``MissionSpace``) is carried as a :class:`GymnasiumSpace` (or a
            conversion registered for it).

    Raises:
        TypeError: ``space`` is not a space.
    """
    if isinstance(space, spaces.Space):
        return space
    if isinstance(space, PalaestraSpace):
        return space.space  # type: ignore[no-any-return]  # it came from palaestra: the original
    if isinstance(space, gymnasium.Space):
        return GymnasiumSpace(space)  # a type palaestra does not know (MiniGrid's MissionSpace)
    raise TypeError(f"from_gymnasium_space: {space!r} is not a space ({type(space).__name__})")


def _both_ways(palaestra_type: type, gymnasium_type: type, rebuild: Callable[..., Any]) -> None:
    """Register ``rebuild(space, target_module, convert)`` as the conversion in both directions."""

    def to_gym(space: Any) -> Any:
        return rebuild(space, gym_spaces, to_gymnasium_space)

    def from_gym(space: Any) -> Any:
        return rebuild(space, spaces, from_gymnasium_space)

    to_gymnasium_space.register(palaestra_type)(to_gym)
    from_gymnasium_space.register(gymnasium_type)(from_gym)


# Each rebuild reads the public attributes both libraries share and passes the generator on.
def _box(space: Any, lib: Any, _: Convert) -> Any:
    # An integer box stores an unbounded side as the dtype's extreme: say -inf/inf again, or
    # the rebuilt box would count it as bounded and sample it differently.
    low, high = space.low, space.high
    if space.dtype.kind == "f":
        return lib.Box(low, high, space.shape, space.dtype, seed=space.np_random)
    if not space.bounded_below.all():
        low = np.where(space.bounded_below, low.astype(np.float64), -np.inf)
    if not space.bounded_above.all():
        high = np.where(space.bounded_above, high.astype(np.float64), np.inf)
    return lib.Box(low, high, space.shape, space.dtype, seed=space.np_random)


_both_ways(spaces.Box, gym_spaces.Box, _box)
_both_ways(
    spaces.Discrete,
    gym_spaces.Discrete,
    lambda s, lib, _: lib.Discrete(int(s.n), seed=s.np_random, start=int(s.start), dtype=s.dtype),
)
_both_ways(
    spaces.MultiDiscrete,
    gym_spaces.MultiDiscrete,
    lambda s, lib, _: lib.MultiDiscrete(s.nvec, s.dtype, seed=s.np_random, start=s.start),
)
_both_ways(
    spaces.MultiBinary,
    gym_spaces.MultiBinary,
    lambda s, lib, _: lib.MultiBinary(s.n, seed=s.np_random),
)
_both_ways(
    spaces.Text,
    gym_spaces.Text,
    lambda s, lib, _: lib.Text(
        s.max_length, min_length=s.min_length, charset="".join(s.character_list), seed=s.np_random
    ),
)
_both_ways(
    spaces.Tuple,
    gym_spaces.Tuple,
    lambda s, lib, convert: lib.Tuple([convert(sub) for sub in s.spaces], seed=s.np_random),
)
_both_ways(
    spaces.Dict,
    gym_spaces.Dict,
    # A list of pairs keeps the source's key order (a plain dict would be sorted).
    lambda s, lib, convert: lib.Dict([(k, convert(sub)) for k, sub in s.spaces.items()], seed=s.np_random),
)
_both_ways(
    spaces.OneOf,
    gym_spaces.OneOf,
    lambda s, lib, convert: lib.OneOf([convert(sub) for sub in s.spaces], seed=s.np_random),
)


def _sequence(space: Any, lib: Any, convert: Convert) -> Any:
    converted = lib.Sequence(convert(space.feature_space), seed=space.np_random, stack=space.stack)
    if space.stack:
        converted.stacked_feature_space = convert(space.stacked_feature_space)
    return converted


def _graph(space: Any, lib: Any, convert: Convert) -> Any:
    edge_space = None if space.edge_space is None else convert(space.edge_space)
    converted = lib.Graph(convert(space.node_space), edge_space, seed=space.np_random)
    # Nodes and edges are drawn from batched copies with generators of their own: share those too.
    converted.batch_node_space = convert(space.batch_node_space)
    if space.batch_edge_space is not None:
        converted.batch_edge_space = convert(space.batch_edge_space)
    return converted


_both_ways(spaces.Sequence, gym_spaces.Sequence, _sequence)
_both_ways(spaces.Graph, gym_spaces.Graph, _graph)


def graph_converter(space: Any, graph_instance: type) -> Convert | None:
    """A function rebuilding every graph inside values of ``space`` as ``graph_instance``.

    Args:
        space: A space of either library.
        graph_instance: The target library's ``GraphInstance``.

    Returns:
        ``None`` when ``space`` holds no ``Graph`` (values pass unchanged), else the converter.
    """
    if isinstance(space, spaces.Graph | gym_spaces.Graph):
        return lambda value: graph_instance(*value)
    if isinstance(space, spaces.Tuple | gym_spaces.Tuple):
        return _sequence_of(space.spaces, graph_instance)
    if isinstance(space, spaces.Dict | gym_spaces.Dict):
        converters = {key: graph_converter(sub, graph_instance) for key, sub in space.spaces.items()}
        if all(c is None for c in converters.values()):
            return None
        return lambda value: {k: v if converters[k] is None else converters[k](v) for k, v in value.items()}  # type: ignore[misc]
    if isinstance(space, spaces.Sequence | gym_spaces.Sequence):
        inner = graph_converter(space.feature_space, graph_instance)
        return None if inner is None else lambda value: tuple(inner(item) for item in value)
    if isinstance(space, spaces.OneOf | gym_spaces.OneOf):
        options = [graph_converter(sub, graph_instance) for sub in space.spaces]
        if all(c is None for c in options):
            return None
        return lambda value: (
            value[0],
            value[1] if options[value[0]] is None else options[value[0]](value[1]),
        )
    return None


def _sequence_of(members: Any, graph_instance: type) -> Convert | None:
    converters = [graph_converter(sub, graph_instance) for sub in members]
    if all(c is None for c in converters):
        return None
    return lambda value: tuple(v if c is None else c(v) for c, v in zip(converters, value, strict=True))
