"""Spaces of a type the other library does not know, carried across the bridge as they are.

A third-party ``gymnasium.Space`` subclass (MiniGrid's ``MissionSpace``, BabyAI's) has no
palaestra counterpart to be rebuilt as, so :class:`GymnasiumSpace` presents it as a
palaestra space that asks the original for everything: ``sample`` (with its masks and
probabilities), ``contains``, ``seed`` and the generator (one stream, shared), equality,
JSON. :class:`PalaestraSpace` is the same in the other direction. Converting back unwraps.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from palaestra import spaces

__all__ = ["GymnasiumSpace", "PalaestraSpace"]


class _Foreign:
    """The behaviour both directions share; ``space`` is the wrapped space."""

    space: Any

    @property
    def np_random(self) -> Any:
        """The wrapped space's generator (the same object: one stream)."""
        return self.space.np_random

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> Any:
        """An element drawn by the wrapped space."""
        if mask is None and probability is None:
            return self.space.sample()
        return self.space.sample(mask=mask, probability=probability)

    def seed(self, seed: Any = None) -> Any:
        """Seed the wrapped space."""
        return self.space.seed(seed)

    def contains(self, x: Any) -> bool:
        """Whether the wrapped space contains ``x``."""
        return bool(self.space.contains(x))

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)

    @property
    def is_np_flattenable(self) -> bool:
        """Whatever the wrapped space says."""
        return bool(getattr(self.space, "is_np_flattenable", False))

    def to_jsonable(self, sample_n: Any) -> Any:
        """The wrapped space's JSON form of a batch."""
        return self.space.to_jsonable(sample_n)

    def from_jsonable(self, sample_n: Any) -> Any:
        """The wrapped space's elements from JSON."""
        return self.space.from_jsonable(sample_n)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.space == other.space

    def __hash__(self) -> int:
        return hash((type(self), id(self.space)))

    def __getattr__(self, name: str) -> Any:
        # The wrapped type's own attributes (MissionSpace.mission_func, ...) read through.
        if name.startswith("__") or name == "space":
            raise AttributeError(name)
        return getattr(self.__dict__["space"], name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.space!r})"


class GymnasiumSpace(_Foreign, spaces.Space[Any]):
    """A Gymnasium space of a type palaestra has no counterpart for, as a palaestra space.

    Args:
        space: The ``gymnasium.Space``; sampling, membership, seeding and equality are its own.
    """

    def __init__(self, space: gymnasium.Space[Any]) -> None:
        spaces.Space.__init__(self, space.shape, space.dtype)
        self.space = space


class PalaestraSpace(_Foreign, gymnasium.Space[Any]):
    """A palaestra space of a type Gymnasium has no counterpart for, as a Gymnasium space.

    Args:
        space: The ``palaestra.spaces.Space``; sampling, membership, seeding and equality are its own.
    """

    def __init__(self, space: spaces.Space[Any]) -> None:
        gymnasium.Space.__init__(self, space.shape, space.dtype)
        self.space = space
