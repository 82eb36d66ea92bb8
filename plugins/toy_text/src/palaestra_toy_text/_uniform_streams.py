"""``Generator.random()`` for many sub-envs' generators at once (a speed trick behind one seam).

The specification is plain numpy: sub-env ``i`` draws ``rng(i).random()``, one Python call per
draw. numpy makes that number from the generator's next 64-bit output ``x`` as
``(x >> 11) * 2**-53`` (PCG64's ``next_double``; a pending 32-bit half left by an earlier
``integers`` draw is neither used nor dropped). :func:`draw_uniforms` reads each generator's
64-bit outputs in chunks with ``random_raw`` into a row of ``words``, and turns the next one of
every chosen sub-env into its number in a few array operations: each sub-env sees exactly the
numbers its own generator would give, in the same order
(``tests/plugins/toy_text/test_uniform_streams.py`` holds them to ``Generator.random`` bit for
bit).

The state is two arrays the owner keeps with its other per-sub-env rows (so snapshots and
held rows keep them paired with the generators): ``words`` ``(num_envs, CHUNK)`` uint64 and
``next`` ``(num_envs,)`` int64, the index of each row's next unused word (``CHUNK``: none left).
What a sub-env's generator gives *after* its stream has read ahead is no longer what the plain
draws would leave: a sub-env that draws through its stream must draw nothing else.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["CHUNK", "draw_uniforms", "new_streams"]

#: 64-bit outputs read from a generator at once.
CHUNK = 64
_EXPONENT = np.uint64(11)
_SCALE = 2.0**-53


def new_streams(num_envs: int) -> tuple[np.ndarray, np.ndarray]:
    """``(words, next)`` for ``num_envs`` sub-envs, nothing read yet."""
    return np.zeros((num_envs, CHUNK), dtype=np.uint64), np.full(num_envs, CHUNK, dtype=np.int64)


def draw_uniforms(
    generator_of: Callable[[int], np.random.Generator],
    words: np.ndarray,
    next_word: np.ndarray,
    envs: np.ndarray,
) -> np.ndarray:
    """One ``random()`` of each sub-env in ``envs`` (an int64 array without repeats), as float64.

    ``generator_of(i)`` is sub-env ``i``'s generator, asked for only when its stream refills
    (an owner may create a never-seeded one there, as its plain draw would).
    """
    position = next_word[envs]
    empty = position >= CHUNK
    if empty.any():
        for i in envs[empty].tolist():
            words[i] = generator_of(i).bit_generator.random_raw(CHUNK)
        position[empty] = 0
    next_word[envs] = position + 1
    drawn: np.ndarray = (words[envs, position] >> _EXPONENT).astype(np.float64) * _SCALE
    return drawn
