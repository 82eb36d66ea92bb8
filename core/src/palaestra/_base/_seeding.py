"""Seeded random number generators, identical to Gymnasium's streams."""

from __future__ import annotations

import numpy as np

from palaestra.error import InvalidSeed

__all__ = ["RNG", "OwnsGenerator", "RandomNumberGenerator", "np_random"]

RNG = RandomNumberGenerator = np.random.Generator


def np_random(seed: int | None = None) -> tuple[np.random.Generator, int]:
    """Create a PCG64 generator seeded through a ``SeedSequence``.

    Args:
        seed: A non-negative Python ``int``, or ``None`` for fresh OS entropy.

    Returns:
        The generator and the entropy it was seeded with (``seed`` itself when given).

    Raises:
        InvalidSeed: ``seed`` is not a Python int (``np.int64`` and floats are refused,
            as in Gymnasium) or is negative.
    """
    if seed is not None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidSeed(
                f"Seed must be a python integer, actual type: {type(seed)}. "
                "Pass int(seed) for numpy integers."
            )
        if seed < 0:
            raise InvalidSeed(f"Seed must be greater or equal to zero, actual value: {seed}")
    seed_seq = np.random.SeedSequence(seed)
    rng = np.random.Generator(np.random.PCG64(seed_seq))
    return rng, int(seed_seq.entropy)  # type: ignore[arg-type]


class OwnsGenerator:
    """``np_random`` and ``np_random_seed`` for an object with its own generator.

    The generator is created from OS entropy on first use; :meth:`_reseed` replaces it
    with a seeded one, and assigning ``np_random`` directly makes the seed unknown (-1).
    Shared by ``Env`` and ``VectorEnv``.
    """

    _np_random: np.random.Generator | None = None
    _np_random_seed: int | None = None

    def _reseed(self, seed: int | None = None) -> None:
        self._np_random, self._np_random_seed = np_random(seed)

    @property
    def np_random(self) -> np.random.Generator:
        """The generator, created from OS entropy on first use."""
        if self._np_random is None:
            self._reseed()
        return self._np_random  # type: ignore[return-value]

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random = value
        self._np_random_seed = -1  # the seed behind an assigned generator is unknown

    @property
    def np_random_seed(self) -> int:
        """The seed of ``np_random``; ``-1`` when a generator was assigned directly."""
        if self._np_random_seed is None:
            self._reseed()
        return self._np_random_seed  # type: ignore[return-value]
