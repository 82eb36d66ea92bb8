"""Tuple: a fixed-length product of spaces."""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any

import numpy as np

from palaestra.error import InvalidSampleArgumentType
from palaestra.spaces._space import Space, checked_arguments, require_one_of, require_spaces

__all__ = ["Tuple"]

_INT32_MAX = int(np.iinfo(np.int32).max)


class Tuple(Space[tuple[Any, ...]], typing.Sequence[Any]):
    """Tuples whose element ``i`` belongs to ``spaces[i]``.

    Seeding with an int seeds the tuple's own generator and draws one sub-seed per
    sub-space from it.

    Args:
        spaces: The sub-spaces.
        seed: Seed (int, or a sequence of per-space seeds) or generator.
    """

    columnar_json = True

    @checked_arguments("Tuple(spaces, seed=None) takes spaces, an iterable of palaestra spaces")
    def __init__(
        self,
        spaces: Iterable[Space[Any]],
        seed: int | typing.Sequence[Any] | np.random.Generator | None = None,
    ) -> None:
        self.spaces = tuple(spaces)
        require_spaces("Tuple", self.spaces)
        super().__init__(None, None, seed)  # type: ignore[arg-type]

    @property
    def is_np_flattenable(self) -> bool:
        """Whether every sub-space is flattenable."""
        return all(space.is_np_flattenable for space in self.spaces)

    def seed(self, seed: int | typing.Sequence[Any] | None = None) -> tuple[Any, ...]:
        """Seed the sub-spaces.

        Args:
            seed: ``None`` (fresh entropy everywhere), an int (sub-seeds drawn from it) or
                one seed per sub-space.

        Returns:
            The sub-spaces' seeds.
        """
        if seed is None:
            return tuple(space.seed(None) for space in self.spaces)
        if isinstance(seed, int) and not isinstance(seed, bool):
            super().seed(seed)
            subseeds = self.np_random.integers(_INT32_MAX, size=len(self.spaces))
            return tuple(space.seed(int(sub)) for space, sub in zip(self.spaces, subseeds, strict=True))
        if isinstance(seed, (tuple, list)):
            if len(seed) != len(self.spaces):
                raise ValueError(
                    "Expects that the subspaces of seeds equals the number of subspaces. Actual "
                    f"length of seeds: {len(seed)}, length of subspaces: {len(self.spaces)}"
                )
            return tuple(space.seed(sub) for sub, space in zip(seed, self.spaces, strict=True))
        raise TypeError(f"Expected seed type: list, tuple, int or None, actual type: {type(seed)} ({self!r})")

    def sample(
        self, mask: tuple[Any, ...] | None = None, probability: tuple[Any, ...] | None = None
    ) -> tuple[Any, ...]:
        """Sample each sub-space, passing the matching entry of ``mask``/``probability``."""
        if mask is None and probability is None:
            return tuple(space.sample() for space in self.spaces)
        require_one_of(mask, probability)
        kind = "mask" if mask is not None else "probability"
        parts = mask if mask is not None else probability
        if not isinstance(parts, tuple) or len(parts) != len(self.spaces):
            raise InvalidSampleArgumentType(
                f"{self!r}: the {kind} must be a tuple with one entry per sub-space "
                f"({len(self.spaces)}), actual value: {parts!r}"
            )
        return tuple(space.sample(**{kind: part}) for space, part in zip(self.spaces, parts, strict=True))

    def contains(self, x: Any) -> bool:
        """Whether ``x`` (a tuple, list or array) matches every sub-space."""
        if isinstance(x, (list, np.ndarray)):
            x = tuple(x)
        return (
            isinstance(x, tuple)
            and len(x) == len(self.spaces)
            and all(space.contains(part) for space, part in zip(self.spaces, x, strict=True))
        )

    def __repr__(self) -> str:
        return "Tuple(" + ", ".join(str(s) for s in self.spaces) + ")"

    def to_jsonable(self, sample_n: typing.Iterable[Any]) -> list[Any]:
        """Convert a batch of tuples to one list per sub-space."""
        samples = list(sample_n)
        return [space.to_jsonable([sample[i] for sample in samples]) for i, space in enumerate(self.spaces)]

    def from_jsonable(self, sample_n: list[Any]) -> list[tuple[Any, ...]]:
        """Convert per-sub-space lists back to a list of tuples."""
        columns = [space.from_jsonable(sample_n[i]) for i, space in enumerate(self.spaces)]
        return list(zip(*columns, strict=True))

    @typing.overload
    def __getitem__(self, index: int) -> Space[Any]: ...

    @typing.overload
    def __getitem__(self, index: slice) -> tuple[Space[Any], ...]: ...

    def __getitem__(self, index: int | slice) -> Space[Any] | tuple[Space[Any], ...]:
        return self.spaces[index]

    def __len__(self) -> int:
        return len(self.spaces)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tuple) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]
