"""Every sub-env's simulation in one ``mujoco.batch.Batch``: a whole batch stepped per C call.

MuJoCo 4's batch steps many simulations of one model on its own C thread pool, the GIL
released once per batch, bit for bit as a loop of ``mj_step`` over separate ``MjData``.
The sub-envs keep their own ``MjData`` for what happens rarely (resets draw their start
state there, rendering and snapshots read it); :class:`BatchSimulation` copies a state in
after a reset and copies a simulation out only when its env's data is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["BatchSimulation", "batch_available"]

# What a step continues from (MuJoCo's integration state plus the user inputs); every
# derived quantity is recomputed by the step's own mj_forward.
_STATE_FIELDS = (
    "qpos",
    "qvel",
    "act",
    "history",
    "qacc_warmstart",
    "ctrl",
    "qfrc_applied",
    "xfrc_applied",
    "eq_active",
    "mocap_pos",
    "mocap_quat",
    "userdata",
    "plugin_state",
    "plastic",
)


def batch_available() -> bool:
    """Whether this MuJoCo has the batch API (MuJoCo 4 and later); call after importing mujoco."""
    try:
        import mujoco.batch  # noqa: F401
    except ImportError:
        return False
    return True


class BatchSimulation:
    """One persistent simulation per sub-env, all stepped by one call on ``num_threads`` C threads.

    ``qpos``, ``qvel`` and ``ctrl`` are live ``(num_envs, ...)`` arrays of the batch;
    ``outputs`` maps each name in ``outputs`` to its field of MjData as each simulation's
    last step left it (as after ``mj_step``: computed before its last physics step);
    ``dt`` holds each sub-env's seconds per env step as of its last reset. Simulation ``i``
    runs on sub-env ``i``'s own ``MjModel``, read live: edits to a sub-env's model (masses,
    friction, gravity: domain randomization) take effect as they do in that env.
    """

    def __init__(self, envs: Sequence[Any], num_threads: int, outputs: Sequence[str] = ()) -> None:
        import mujoco.batch

        first = envs[0]
        self._envs = envs
        self._mujoco = mujoco
        self._batch = mujoco.batch.Batch(first.model, len(envs), nthread=num_threads, persistent=True)
        self._batch.set_models([env.model for env in envs])
        self.dt = np.array([env._dt for env in envs], dtype=np.float64)
        self.qpos: np.ndarray = self._batch.bind("qpos")
        self.qvel: np.ndarray = self._batch.bind("qvel")
        self.ctrl: np.ndarray = self._batch.bind("ctrl")
        self._time = self._batch.bind("time")
        self.outputs: dict[str, np.ndarray] = {name: self._batch.bind(name) for name in outputs}
        data = first.data
        self._state = [
            (name, self._batch.bind(name))
            for name in _STATE_FIELDS
            if hasattr(data, name) and np.size(getattr(data, name))
        ]
        # Which sub-envs' own MjData holds their latest state (all do before the first step).
        self._current = np.ones(len(envs), dtype=np.bool_)

    def push(self, i: int) -> None:
        """Continue simulation ``i`` from sub-env ``i``'s own data (after its reset or restore)."""
        env = self._envs[i]
        if env.frame_skip != self.frame_skip:
            raise ValueError(
                f"sub-env {i} has frame_skip {env.frame_skip} and sub-env 0 {self.frame_skip}: a batch "
                "steps all its simulations alike; give every sub-env the same frame_skip"
            )
        self.dt[i] = env._dt
        data = env.data
        self._time[i] = data.time
        for name, rows in self._state:
            rows[i] = getattr(data, name)
        self._current[i] = True

    @property
    def frame_skip(self) -> int:
        """Physics steps per env step: sub-env 0's (the others' are checked equal at each push)."""
        frame_skip: int = self._envs[0].frame_skip
        return frame_skip

    def step(self, ids: np.ndarray | None) -> None:
        """Advance the simulations ``ids`` (``None``: all) by ``frame_skip`` physics steps.

        Raises:
            mujoco.FatalError: MuJoCo failed in some simulations (as ``mj_step`` raises it);
                those kept their state, the others stepped. Reset before going on.
        """
        # Marked first: after a failure the batch still holds each simulation's true state.
        if ids is None:
            self._current[:] = False
        else:
            self._current[ids] = False
        try:
            self._batch.step(ids, self.frame_skip)
        except self._mujoco.batch.SimulationError as error:
            raise self._mujoco.FatalError(str(error)) from error

    def pull(self, i: int) -> None:
        """Bring sub-env ``i``'s own data up to date (derived quantities included)."""
        if not self._current[i]:
            self._batch.get_data(i, self._envs[i].data)
            self._current[i] = True
