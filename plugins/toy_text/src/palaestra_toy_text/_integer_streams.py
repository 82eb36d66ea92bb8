"""``Generator.integers(n)`` for many sub-envs' generators at once (a speed trick behind one seam).

The specification is plain numpy: sub-env ``i`` draws ``rng(i).integers(n)``, one Python call
per draw. numpy draws a bounded integer below ``n`` (``n < 2**32``) as Lemire's method on the
generator's 32-bit outputs: ``m = u32 * n``; while the low 32 bits of ``m`` are below
``2**32 % n``, draw again; the draw is ``m >> 32``. PCG64's 32-bit outputs are the low, then
the high half of each 64-bit output (``has_uint32``/``uinteger`` in its state hold a pending
high half). :class:`IntegerStreams` reads each generator's 64-bit outputs in chunks with
``random_raw``, keeps the 32-bit halves not yet used, and applies the same rule to a whole
batch of sub-envs in a few array operations. Each sub-env sees exactly the draws its own
generator would give, in the same order; ``tests/plugins/toy_text/test_integer_streams.py``
holds them to ``Generator.integers`` bit for bit.

What a sub-env's generator gives *after* its stream has buffered ahead is no longer what the
plain draws would leave: everything of a sub-env that draws must draw through its stream.
"""

from __future__ import annotations

from collections.abc import MutableSequence

import numpy as np

__all__ = ["IntegerStreams"]

_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)


class IntegerStreams:
    """Bounded integer draws from one generator per sub-env, many sub-envs per call.

    Args:
        num_envs: Number of sub-envs (streams).
        generators: The sub-envs' generators (PCG64 ones), a list the owner keeps current;
            an entry must be set before its sub-env draws. Held, not copied: a snapshot that
            copies the list and the streams together keeps them paired.
        chunk: 32-bit outputs read from a generator at once.
    """

    def __init__(
        self, num_envs: int, generators: MutableSequence[np.random.Generator | None], chunk: int = 64
    ) -> None:
        self.generators = generators
        self.chunk = chunk
        self.buffer = np.zeros((num_envs, chunk), dtype=np.uint32)
        self.position = np.full(num_envs, chunk, dtype=np.int64)  # == chunk: nothing buffered
        self._made: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}

    def forget(self, i: int) -> None:
        """Drop sub-env ``i``'s buffered outputs (its generator was replaced)."""
        self.position[i] = self.chunk

    def draw(self, envs: np.ndarray, *bounds: int) -> np.ndarray:
        """``integers(n)`` for each bound in turn, for each sub-env in ``envs``, as int64.

        Args:
            envs: Sub-env indices (an int64 array without repeats).
            *bounds: Exclusive bounds ``1 <= n < 2**32``, drawn in this order (at most
                ``chunk`` of them).

        Returns:
            A ``(len(envs), len(bounds))`` array: row ``j`` holds sub-env ``envs[j]``'s draws.
        """
        count = len(bounds)
        if envs.size == 0 or 1 in bounds:  # numpy draws nothing for a range of one value
            return self._one_by_one(envs, bounds)
        position = self.position[envs]
        if (position > self.chunk - count).any():
            for i in envs[position > self.chunk - count].tolist():
                self._refill(i)
            position = self.position[envs]
        self.position[envs] = position + count
        multipliers, thresholds = self._constants(bounds)
        flat = envs * self.chunk + position
        if count > 1:
            flat = flat[:, None] + np.arange(count)
        scaled = self.buffer.ravel()[flat].astype(np.uint64).reshape(envs.size, count) * multipliers
        # Lemire's method rejects a draw whose low half is below 2**32 % n (rare: n / 2**32).
        if ((scaled & _LOW32) < thresholds).any():
            self.position[envs] = position
            return self._one_by_one(envs, bounds)
        drawn: np.ndarray = (scaled >> _SHIFT).astype(np.int64)
        return drawn

    def _constants(self, bounds: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The bounds and their rejection thresholds as uint64 arrays (made once per tuple)."""
        constants = self._made.get(bounds)
        if constants is None:
            constants = (np.array(bounds, np.uint64), np.array([2**32 % n for n in bounds], np.uint64))
            self._made[bounds] = constants
        return constants

    def _one_by_one(self, envs: np.ndarray, bounds: tuple[int, ...]) -> np.ndarray:
        """The plain rule, one draw at a time: what :meth:`draw` does when a draw is redrawn."""
        drawn = np.zeros((envs.size, len(bounds)), dtype=np.int64)
        for j, i in enumerate(envs.tolist()):
            for k, n in enumerate(bounds):
                drawn[j, k] = self.draw_one(i, n)
        return drawn

    def draw_one(self, i: int, n: int) -> int:
        """One ``integers(n)`` of sub-env ``i`` (``1 <= n < 2**32``)."""
        if n == 1:
            return 0
        threshold = 2**32 % n
        while True:
            if self.position[i] >= self.chunk:
                self._refill(i)
            scaled = int(self.buffer[i, self.position[i]]) * n
            self.position[i] += 1
            if scaled & 0xFFFFFFFF >= threshold:
                return scaled >> 32

    def _refill(self, i: int) -> None:
        """Move sub-env ``i``'s unused outputs to the front and fill the rest from its generator."""
        generator = self.generators[i]
        if generator is None:
            raise RuntimeError(f"sub-env {i} has no generator yet: its owner sets one before it draws")
        bit_generator = generator.bit_generator
        row = self.buffer[i]
        kept = self.chunk - int(self.position[i])
        row[:kept] = row[self.chunk - kept :].copy()
        state = dict(bit_generator.state)
        if state.get("has_uint32"):  # a high half left by an earlier 32-bit draw comes next
            row[kept] = state["uinteger"]
            state["has_uint32"], kept = 0, kept + 1
            bit_generator.state = state
        missing = self.chunk - kept
        words = (missing + 1) // 2
        raw = bit_generator.random_raw(words).astype(np.uint64)
        halves = np.empty(2 * words, dtype=np.uint32)
        halves[0::2] = raw & _LOW32
        halves[1::2] = raw >> _SHIFT
        row[kept:] = halves[:missing]
        if missing < 2 * words:  # an odd count leaves a high half: the generator holds it, as numpy does
            state = dict(bit_generator.state)
            state["has_uint32"], state["uinteger"] = 1, int(halves[-1])
            bit_generator.state = state
        self.position[i] = 0
