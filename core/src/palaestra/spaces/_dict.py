"""Dict: a mapping from keys to spaces."""

from __future__ import annotations

import collections.abc
import typing
from collections import OrderedDict
from collections.abc import Iterable, Iterator, KeysView, Sequence
from typing import Any

import numpy as np

from palaestra.error import InvalidSampleArgumentType
from palaestra.spaces._space import Space, checked_arguments, require_one_of, require_spaces

__all__ = ["Dict"]

_INT32_MAX = int(np.iinfo(np.int32).max)


class Dict(Space[dict[str, Any]], typing.Mapping[str, Space[Any]]):
    """Dictionaries whose value under each key belongs to that key's space.

    Key order drives sampling, seeding and flattening: a plain dict is sorted by key
    (unless ``sort_keys=False``); an ``OrderedDict`` or a sequence of pairs keeps its order.

    Args:
        spaces: The sub-spaces, as a mapping or a sequence of ``(key, space)`` pairs.
        seed: Seed (int, or a dict of per-key seeds) or generator.
        sort_keys: Sort the keys of a plain mapping.
        **spaces_kwargs: More sub-spaces given as keywords.
    """

    columnar_json = True

    @checked_arguments(
        "Dict(spaces=None, seed=None, **spaces_kwargs) takes spaces, a mapping (or sequence of pairs) "
        "from names to palaestra spaces"
    )
    def __init__(
        self,
        spaces: collections.abc.Mapping[str, Space[Any]] | Sequence[tuple[str, Space[Any]]] | None = None,
        seed: dict[str, Any] | int | np.random.Generator | None = None,
        *,
        sort_keys: bool = True,
        **spaces_kwargs: Space[Any],
    ) -> None:
        self.sort_keys = sort_keys
        self.spaces: dict[str, Space[Any]] = self._ordered(spaces, sort_keys)
        for key, space in spaces_kwargs.items():
            if key in self.spaces:
                raise ValueError(f"Dict space keyword '{key}' already exists in the spaces dictionary.")
            self.spaces[key] = space
        for key, space in self.spaces.items():
            require_spaces("Dict", (space,), key)
        super().__init__(None, None, seed)  # type: ignore[arg-type]

    @staticmethod
    def _ordered(spaces: Any, sort_keys: bool) -> dict[str, Space[Any]]:
        if isinstance(spaces, OrderedDict):
            return dict(spaces.items())
        if isinstance(spaces, collections.abc.Mapping):
            if sort_keys:
                try:
                    return dict(sorted(spaces.items()))
                except TypeError:  # keys that do not compare keep their order
                    return dict(spaces.items())
            return dict(spaces.items())
        if isinstance(spaces, Sequence):
            return dict(spaces)
        if spaces is None:
            return {}
        raise TypeError(
            "Unexpected Dict space input, expecting dict, OrderedDict or Sequence, "
            f"actual type: {type(spaces)}"
        )

    @property
    def is_np_flattenable(self) -> bool:
        """Whether every sub-space is flattenable."""
        return all(space.is_np_flattenable for space in self.spaces.values())

    def seed(self, seed: int | dict[str, Any] | None = None) -> dict[str, Any]:
        """Seed the sub-spaces.

        Args:
            seed: ``None``, an int (sub-seeds drawn from it in key order) or a dict with
                exactly the space's keys.

        Returns:
            The seed of each sub-space, by key.
        """
        if seed is None:
            return {key: space.seed(None) for key, space in self.spaces.items()}
        if isinstance(seed, int) and not isinstance(seed, bool):
            super().seed(seed)
            subseeds = self.np_random.integers(_INT32_MAX, size=len(self.spaces))
            return {
                key: space.seed(int(sub))
                for (key, space), sub in zip(self.spaces.items(), subseeds, strict=True)
            }
        if isinstance(seed, dict):
            if seed.keys() != self.spaces.keys():
                raise ValueError(
                    f"The seed keys: {seed.keys()} are not identical to space keys: {self.spaces.keys()}"
                )
            return {key: self.spaces[key].seed(seed[key]) for key in seed}
        raise TypeError(f"Expected seed type: dict, int or None, actual type: {type(seed)} ({self!r})")

    def sample(
        self, mask: dict[str, Any] | None = None, probability: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Sample each sub-space, passing the matching entry of ``mask``/``probability``."""
        if mask is None and probability is None:
            return {key: space.sample() for key, space in self.spaces.items()}
        require_one_of(mask, probability)
        kind = "mask" if mask is not None else "probability"
        parts = mask if mask is not None else probability
        if not isinstance(parts, dict) or parts.keys() != self.spaces.keys():
            raise InvalidSampleArgumentType(
                f"{self!r}: the {kind} must be a dict with the space's keys "
                f"{list(self.spaces)}, actual value: {parts!r}"
            )
        return {key: space.sample(**{kind: parts[key]}) for key, space in self.spaces.items()}

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a dict with the same keys whose values are all members."""
        if isinstance(x, dict) and x.keys() == self.spaces.keys():
            return all(x[key] in space for key, space in self.spaces.items())
        return False

    def __getitem__(self, key: str) -> Space[Any]:
        return self.spaces[key]

    def keys(self) -> KeysView[str]:
        """The keys, in order."""
        return KeysView(self.spaces)

    def __setitem__(self, key: str, value: Space[Any]) -> None:
        require_spaces("Dict", (value,), key, setting=True)
        self.spaces[key] = value

    def __len__(self) -> int:
        return len(self.spaces)

    def __iter__(self) -> Iterator[str]:
        return iter(self.spaces)

    def __repr__(self) -> str:
        return "Dict(" + ", ".join(f"{k!r}: {s}" for k, s in self.spaces.items()) + ")"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dict) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]

    def to_jsonable(self, sample_n: Iterable[Any]) -> dict[str, Any]:
        """Convert a batch of dicts to one list per key."""
        samples = list(sample_n)
        return {key: space.to_jsonable([s[key] for s in samples]) for key, space in self.spaces.items()}

    def from_jsonable(self, sample_n: dict[str, Any]) -> list[dict[str, Any]]:
        """Convert per-key lists back to a list of dicts."""
        columns = {key: space.from_jsonable(sample_n[key]) for key, space in self.spaces.items()}
        count = len(next(iter(columns.values())))
        return [{key: col[i] for key, col in columns.items()} for i in range(count)]
