"""OneOf: an element of exactly one of several spaces."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from palaestra.error import InvalidSampleArgumentType
from palaestra.spaces._space import Space, checked_arguments, require_one_of, require_spaces

__all__ = ["OneOf"]

_INT32_MAX = int(np.iinfo(np.int32).max)


class OneOf(Space[tuple[int, Any]]):
    """Pairs ``(i, x)`` with ``x`` in ``spaces[i]``.

    Args:
        spaces: The alternatives (at least one).
        seed: Seed (int, or one seed for itself plus one per space) or generator.
    """

    @checked_arguments("OneOf(spaces, seed=None) takes spaces, a non-empty sequence of palaestra spaces")
    def __init__(self, spaces: Iterable[Space[Any]], seed: Any = None) -> None:
        if not isinstance(spaces, Iterable):
            raise TypeError(f"{spaces} is not an iterable")
        self.spaces = tuple(spaces)
        if not self.spaces:
            raise ValueError("Empty `OneOf` spaces are not supported.")
        require_spaces("OneOf", self.spaces)
        super().__init__(None, None, seed)

    @property
    def is_np_flattenable(self) -> bool:
        """Whether every alternative is flattenable."""
        return all(space.is_np_flattenable for space in self.spaces)

    def seed(self, seed: Any = None) -> tuple[Any, ...]:
        """Seed the choice generator and every alternative.

        Returns:
            The own seed followed by each alternative's seed.
        """
        if seed is None:
            return (super().seed(None), *(space.seed(None) for space in self.spaces))
        if isinstance(seed, int) and not isinstance(seed, bool):
            own = super().seed(seed)
            subseeds = self.np_random.integers(_INT32_MAX, size=len(self.spaces))
            super().seed(seed)
            return (own, *(s.seed(int(v)) for s, v in zip(self.spaces, subseeds, strict=True)))
        if isinstance(seed, (tuple, list)):
            if len(seed) != len(self.spaces) + 1:
                raise ValueError(
                    "Expects that the subspaces of seeds equals the number of subspaces + 1. "
                    f"Actual length of seeds: {len(seed)}, length of subspaces: {len(self.spaces)}"
                )
            return (super().seed(seed[0]), *(s.seed(v) for s, v in zip(self.spaces, seed[1:], strict=True)))
        raise TypeError(f"Expected None, int, or tuple of ints, actual type: {type(seed)} ({self!r})")

    def sample(
        self, mask: tuple[Any, ...] | None = None, probability: tuple[Any, ...] | None = None
    ) -> tuple[int, Any]:
        """Pick an alternative uniformly, then sample it with its entry of the mask."""
        index = self.np_random.integers(0, len(self.spaces), dtype=np.int64)
        space = self.spaces[index]
        require_one_of(mask, probability)
        if mask is None and probability is None:
            return index, space.sample()  # type: ignore[return-value]
        kind = "mask" if mask is not None else "probability"
        parts = mask if mask is not None else probability
        if not isinstance(parts, tuple) or len(parts) != len(self.spaces):
            raise InvalidSampleArgumentType(
                f"{self!r}: the {kind} must be a tuple with one entry per alternative "
                f"({len(self.spaces)}), actual value: {parts!r}"
            )
        return index, space.sample(**{kind: parts[index]})  # type: ignore[return-value]

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is ``(i, value)`` with an ``int``/``np.int64`` index and a valid value."""
        if not (isinstance(x, tuple) and len(x) == 2):
            return False
        index, value = x
        # Only Python ints and np.int64 count as an index, as in Gymnasium 1.4.0.
        valid_index = isinstance(index, (int, np.int64)) and 0 <= index < len(self.spaces)
        return bool(valid_index and self.spaces[index].contains(value))

    def __repr__(self) -> str:
        return "OneOf(" + ", ".join(str(s) for s in self.spaces) + ")"

    def to_jsonable(self, sample_n: Iterable[tuple[int, Any]]) -> list[list[Any]]:
        """Convert pairs to ``[index, jsonable value]`` lists.

        Tuple and Dict alternatives keep their one-element batch form, so they round-trip
        (Gymnasium keeps only their first column); other spaces match Gymnasium's format.
        """
        out = []
        for i, x in sample_n:
            encoded = self.spaces[i].to_jsonable([x])
            out.append([int(i), encoded if self.spaces[i].columnar_json else encoded[0]])
        return out

    def from_jsonable(self, sample_n: Iterable[list[Any]]) -> list[tuple[Any, Any]]:
        """Convert ``[index, value]`` lists back to pairs."""
        out = []
        for i, x in sample_n:
            sub = self.spaces[i]
            out.append((np.int64(i), sub.from_jsonable(x if sub.columnar_json else [x])[0]))
        return out

    def __getitem__(self, index: int) -> Space[Any]:
        return self.spaces[index]

    def __len__(self) -> int:
        return len(self.spaces)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OneOf) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]
