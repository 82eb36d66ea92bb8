"""Each sub-env's own simulation stepped on threads, its state gathered into batch arrays.

For array scoring where ``mujoco.batch`` cannot serve: envs that read the bodies' contact
forces (``mj_rnePostConstraint`` after the step: Ant, the humanoids), or a MuJoCo without the
batch API. The physics runs as the threaded sub-env steps run it (each sub-env's ``mj_step``
on the crew, the GIL released inside it); after it, the fields the scoring reads are copied
into ``(num_envs, ...)`` arrays, so the first sub-env scores every row with array operations
instead of each sub-env scoring itself in Python. It offers :class:`BatchSimulation`'s face
(``qpos``, ``qvel``, ``ctrl``, ``outputs``, ``dt``, ``push``, ``pull``, ``step``); the
sub-envs' own data always hold their latest state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra_mujoco._native import compiled
from palaestra_mujoco._threads import Crew, run_each, run_physics

__all__ = ["GatheredSimulation", "copy_pairs", "plain_copy_pairs"]


class GatheredSimulation:
    """The sub-envs' own ``MjData``, stepped by ``crew`` (or the caller) and gathered as rows.

    ``qpos``, ``qvel`` and each of ``outputs`` hold every sub-env's field as of its last step
    or push; ``ctrl`` is written into the sub-envs' controls at each step; ``dt`` and
    ``timestep`` hold each sub-env's seconds per env step and per physics step as of its
    last reset.
    """

    restarts = False  # episodes start by each sub-env's own reset

    def __init__(self, envs: Sequence[Any], crew: Crew | None, outputs: Sequence[str] = ()) -> None:
        self._envs = envs
        self._crew = crew
        self.dt = np.array([env._dt for env in envs], dtype=np.float64)
        self.timestep = np.array([env._timestep for env in envs], dtype=np.float64)
        self.ctrl = np.zeros((len(envs), envs[0].model.nu), dtype=np.float64)
        self._controls = [env.data.ctrl for env in envs]
        # Each gathered field: its rows and each sub-env's live view of it (restores copy
        # into the same MjData, so the views stay valid).
        self._gathered: list[tuple[np.ndarray, list[np.ndarray]]] = []
        self.outputs: dict[str, np.ndarray] = {}
        for name in ("qpos", "qvel", *outputs):
            views = [getattr(env.data, name) for env in envs]
            rows = np.stack(views)
            self._gathered.append((rows, views))
            if name in outputs:
                self.outputs[name] = rows
        self.qpos: np.ndarray = self._gathered[0][0]
        self.qvel: np.ndarray = self._gathered[1][0]
        # Each sub-env's (row, field) pairs, for gathering it where it was stepped, and its
        # (controls, row) pair, for setting them there.
        self._pairs = [tuple((rows[i], views[i]) for rows, views in self._gathered) for i in range(len(envs))]
        self._control_pairs = [((controls, self.ctrl[i]),) for i, controls in enumerate(self._controls)]

    def push(self, i: int) -> None:
        """Take sub-env ``i``'s state into the rows (after its reset, a restore or a call)."""
        self._take_timing(i)
        self._gather(i)

    def _take_timing(self, i: int) -> None:
        """Sub-env ``i``'s seconds per env step and per physics step, as of its last reset."""
        self.dt[i] = self._envs[i]._dt
        self.timestep[i] = self._envs[i]._timestep

    def _gather(self, i: int) -> None:
        """Sub-env ``i``'s fields into its rows."""
        copy_pairs(self._pairs[i])

    def pull(self, i: int) -> None:
        """Nothing to do: a sub-env's own data is where it steps."""

    def start(self, indices: list[int], qpos: np.ndarray, qvel: np.ndarray) -> None:
        """Start episodes of sub-envs ``indices`` at states ``qpos[j]``, ``qvel[j]``, on the crew.

        What a suite env's reset does to its data, each sub-env in a thread of its own:
        ``mj_resetData``, the state set, ``mj_forward`` (``set_state``); then its fields
        gathered. The caller has timed each episode (``time_episode``) and drawn the states.
        """
        envs, pairs = self._envs, self._pairs

        def start_one(j: int) -> None:
            env = envs[indices[j]]
            model, data = env.model, env.data
            env._mujoco.mj_resetData(model, data)
            copy_pairs(((env._qpos, qpos[j]), (env._qvel, qvel[j])))
            env._mj_forward(model, data)
            copy_pairs(pairs[indices[j]])

        run_each(self._crew, len(indices), start_one)
        for i in indices:
            self._take_timing(i)

    def step(self, ids: np.ndarray | None) -> None:
        """Advance the sub-envs ``ids`` (``None``: all) by one env step each, then gather them."""
        indices = range(len(self._envs)) if ids is None else ids.tolist()
        # Each sub-env's controls set and its fields gathered by the thread that steps it, while
        # its data is in that core's caches.
        run_physics(self._crew, self._envs, indices, before=self._control, after=self._gather)

    def _control(self, i: int) -> None:
        """Sub-env ``i``'s controls from its row of :attr:`ctrl`."""
        copy_pairs(self._control_pairs[i])


def plain_copy_pairs(pairs: tuple[tuple[np.ndarray, np.ndarray], ...]) -> None:
    """``destination[...] = source`` for each ``(destination, source)`` of ``pairs``."""
    for destination, source in pairs:
        destination[...] = source


def copy_pairs(pairs: tuple[tuple[np.ndarray, np.ndarray], ...]) -> None:
    """:func:`plain_copy_pairs`, in one C call where it can (float64 arrays, each in one piece)."""
    if compiled is None or not compiled.copy_pairs(pairs):
        plain_copy_pairs(pairs)
