"""What each sub-env's episode starts read, held in rows: starts that touch no sub-env object.

A suite env's start (``SuiteEnv.start_state``) reads its noise scale, its initial state and
its generator, and its reset times the episode from its model. After a batch's physics those
objects are out of the caches, and the starts of short episodes (InvertedPendulum's last about
seven steps under random actions) are the calling thread's largest per-sub-env work.
:class:`RowStarts` holds what a start reads in arrays, taken from each sub-env when it starts
as its own start does (the vector env's Python path, the specification), and starts it from
them later in one C loop (``held_starts``), while nothing says it may have changed:

- its generator is still the vector env's generator for it (the same object);
- its model's timestep is still the one its episode was last timed with, and nothing pushed
  the sub-env since (``call``, ``set_attr``, a restore) and ``reset()`` was not called since
  (:meth:`BatchSimulation.time_starts` marks that);
- its rules were plain numbers when taken (a float or int scale in range, float64 initial
  states of the model's widths).

Otherwise the sub-env starts as its own start does, and its rules are taken again. A rule set
on one sub-env directly (``envs.envs[i].init_qpos = ...``) counts from its first start after
the next ``reset()`` or call: array steps read the sub-envs' settings through the vector env
(see :class:`~palaestra_mujoco.vector.MujocoVectorEnv`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco import _start_draws
from palaestra_mujoco._native import compiled
from palaestra_mujoco._start_draws import WIDEST_NOISE
from palaestra_mujoco.mujoco_env import _PLAIN_NUMBERS

__all__ = ["RowStarts"]


class RowStarts:
    """The held start rules of ``num_envs`` sub-envs with ``nq`` positions and ``nv`` velocities."""

    def __init__(self, num_envs: int, nq: int, nv: int) -> None:
        self._generators: list[Any] = [None] * num_envs  # each row's generator when taken
        self._bitgens = np.zeros(num_envs, dtype=np.uint64)  # its bit generator's address (0: none held)
        self._locks: list[Any] = [None] * num_envs
        self._scales = np.zeros(num_envs, dtype=np.float64)
        self._init_qpos = np.zeros((num_envs, nq), dtype=np.float64)
        self._init_qvel = np.zeros((num_envs, nv), dtype=np.float64)

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy (or an unpickled one) holds nothing: the addresses are this process's, of these
        # generators; each sub-env's rules are taken again at its next start.
        return RowStarts, (len(self._scales), self._init_qpos.shape[1], self._init_qvel.shape[1])

    def start(
        self,
        generators: list[Any],
        sim: Any,
        indices: list[int],
        first: int,
        normal: bool,
    ) -> int:
        """Start sub-envs ``indices`` from ``indices[first]`` on from their held rules, into ``sim``'s rows.

        Stops at the first one that must start as its own start does (see the module) and
        returns its position in ``indices`` (``len(indices)``: all done). Call only where
        :func:`~palaestra_mujoco._start_draws.compiled_starts_hold` holds for ``normal``.
        """
        assert compiled is not None
        held = (
            generators,
            self._generators,
            self._bitgens,
            self._locks,
            self._scales,
            self._init_qpos,
            self._init_qvel,
        )
        stopped: int = compiled.held_starts(
            held,
            sim.timing,
            indices,
            first,
            sim.qpos,
            sim.qvel,
            _start_draws.standard_normal if normal else None,
        )
        return stopped

    def stale_run(self, sim: Any, indices: list[int], first: int) -> int:
        """How many of ``indices`` from ``first`` on to start as their own starts do (at least one).

        The C loop stopped at ``first``; the rows after it that it would stop at for want of
        a timing or held rules (after ``reset()``, all of them) go with it in one batch.
        """
        rows = indices[first:]
        stale = np.isnan(sim.timing[1][rows]) | (self._bitgens[rows] == 0)
        return len(rows) if stale.all() else max(1, int(stale.argmin()))

    def hold(self, i: int, env: Any, generator: Any) -> None:
        """Take sub-env ``i``'s rules, after it started as its own start does with ``generator``.

        Rules the C loop does not read as numpy would (not plain numbers, another dtype or
        width, not a numpy Generator) are not held: the sub-env then always starts on its own.
        """
        self._bitgens[i] = 0
        self._generators[i] = self._locks[i] = None
        scale, init_qpos, init_qvel = env._reset_noise_scale, env.init_qpos, env.init_qvel
        if scale.__class__ not in _PLAIN_NUMBERS or generator.__class__ is not np.random.Generator:
            return
        try:
            high = float(scale)  # an int as numpy converts it
        except OverflowError:
            return
        if not 0.0 <= high <= WIDEST_NOISE:  # NaN fails: numpy's own error, from the sub-env's start
            return
        for value, row in ((init_qpos, self._init_qpos[i]), (init_qvel, self._init_qvel[i])):
            if value.__class__ is not np.ndarray or value.dtype != np.float64 or value.shape != row.shape:
                return
        self._init_qpos[i], self._init_qvel[i], self._scales[i] = init_qpos, init_qvel, high
        bit_generator = generator.bit_generator
        self._generators[i], self._locks[i] = generator, bit_generator.lock
        self._bitgens[i] = bit_generator.ctypes.bit_generator.value
