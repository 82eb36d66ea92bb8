"""Seeded random number generators, identical to Gymnasium's streams."""

from __future__ import annotations

import numpy as np

from palaestra.error import InvalidSeed

__all__ = ["RandomNumberGenerator", "np_random"]

RandomNumberGenerator = np.random.Generator


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
