"""Every sub-env's simulation in one ``mujoco.batch.Batch``: a whole batch stepped per C call.

MuJoCo 4's batch steps many simulations of one model on its own C thread pool, the GIL
released once per batch, bit for bit as a loop of ``mj_step`` over separate ``MjData``.
The sub-envs keep their own ``MjData`` for what happens rarely (rendering and snapshots
read it); :class:`BatchSimulation` copies a state in after a sub-env's own reset, or starts
an episode in the batch's rows (:meth:`BatchSimulation.restart`), and copies a simulation
out only when its env's data is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra_mujoco._native import compiled

__all__ = ["BatchSimulation", "batch_available", "plain_zero_rows", "zero_rows"]

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
# What mj_resetData leaves at zero whatever the model: a model whose other state fields are
# empty starts every episode from zeros but for the positions and velocities it is given.
_ZEROED_BY_RESET = ("qacc_warmstart", "ctrl", "qfrc_applied", "xfrc_applied")

# Where a sub-env's own MjData stands against its simulation in the batch.
_BEHIND = 0  # stepped in the batch since: copy the simulation out
_CURRENT = 1  # holds the latest state
_STARTED = 2  # an episode started in the batch's rows: reset the data and bring it forward


def plain_zero_rows(arrays: list[np.ndarray], rows: list[int]) -> None:
    """``array[rows] = 0.0`` for each of ``arrays``."""
    for array in arrays:
        array[rows] = 0.0


def zero_rows(arrays: list[np.ndarray], rows: list[int]) -> None:
    """:func:`plain_zero_rows`, in one C loop where it can (float64 fields, each row in one piece)."""
    if compiled is None or not compiled.zero_rows(arrays, rows):
        plain_zero_rows(arrays, rows)


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
        # Each sub-env's model options, and the timestep its episode was timed with (NaN: not
        # since the sub-env was last pushed or reset() called): a start times again only the
        # sub-envs whose model changed it (domain randomization) or whose mark is NaN.
        self._timed_with = np.full(len(envs), np.nan)
        #: ``(options, timed_with)``: what :meth:`time_starts` reads (the held starts' C loop reads it too).
        self.timing = ([env._options for env in envs], self._timed_with)
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
        #: Whether :meth:`restart` may start episodes here: the state beyond positions,
        #: velocities and the fields a reset zeroes is empty in this model.
        self.restarts = all(name in ("qpos", "qvel", *_ZEROED_BY_RESET) for name, _ in self._state)
        # What a start zeroes: the time and the fields mj_resetData zeroes.
        self._zeroed = [self._time, *(rows for name, rows in self._state if name in _ZEROED_BY_RESET)]
        # Where each sub-env's own MjData stands (all hold their state before the first step).
        self._current = np.full(len(envs), _CURRENT, dtype=np.int8)

    def push(self, i: int) -> None:
        """Continue simulation ``i`` from sub-env ``i``'s own data (after its reset or restore)."""
        env = self._timed(i)
        # What a call through the vector env set (frame_skip, say) counts from the sub-env's next start.
        self._timed_with[i] = np.nan
        data = env.data
        self._time[i] = data.time
        for name, rows in self._state:
            rows[i] = getattr(data, name)
        self._current[i] = _CURRENT

    def restart(self, rows: np.ndarray) -> None:
        """Start episodes in simulations ``rows``, from the positions and velocities written there.

        What a sub-env's reset does to its data (``mj_resetData``, then ``set_state``), done
        to the batch's rows, once the started sub-envs are timed (:meth:`time_starts`): time
        and the other state fields zeroed (:attr:`restarts` must hold). The sub-envs' own
        data follow when read (:meth:`pull`).
        """
        zero_rows(self._zeroed, rows.tolist())
        self._current[rows] = _STARTED

    def time_starts(self, indices: list[int]) -> None:
        """Time the episodes that sub-envs ``indices`` start, as each one's reset times its own.

        A sub-env is timed again (its ``time_episode``, its frame skip checked) when its
        model's timestep changed since its last start, and at its first start after a
        :meth:`push` or :meth:`retime`; otherwise its timing stands as it was (reading only
        its model's timestep saves touching the sub-env: the starts are the calling thread's
        commonest per-sub-env work).
        """
        options, timed_with = self.timing
        for i in indices:
            if options[i].timestep != timed_with[i]:  # NaN compares unequal: timed again
                self._time_again(i)

    def _time_again(self, i: int) -> None:
        """Sub-env ``i``'s ``time_episode``, its frame skip checked (:meth:`_timed`), the timestep noted."""
        env = self._envs[i]
        env.time_episode()
        self._timed(i)
        self._timed_with[i] = env._timestep

    def retime(self, mask: np.ndarray) -> None:
        """Time the sub-envs in ``mask`` again at their next start (``reset()`` checks those it resets)."""
        self._timed_with[mask] = np.nan

    def forward(self, rows: np.ndarray) -> None:
        """Compute the derived quantities of simulations ``rows`` at their state (``mj_forward``).

        For an env whose first observation reads them: after :meth:`restart`, the rows'
        ``outputs`` are then those of a sub-env's own reset.
        """
        try:
            self._batch.forward(rows)
        except self._mujoco.batch.SimulationError as error:
            raise self._mujoco.FatalError(str(error)) from error

    def _timed(self, i: int) -> Any:
        """Sub-env ``i``, its seconds per step noted after checking its frame skip matches."""
        env = self._envs[i]
        if env.frame_skip != self.frame_skip:
            raise ValueError(
                f"sub-env {i} has frame_skip {env.frame_skip} and sub-env 0 {self.frame_skip}: a batch "
                "steps all its simulations alike; give every sub-env the same frame_skip"
            )
        self.dt[i] = env._dt
        return env

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
            self._current[:] = _BEHIND
        else:
            self._current[ids] = _BEHIND
        try:
            self._batch.step(ids, self.frame_skip)
        except self._mujoco.batch.SimulationError as error:
            raise self._mujoco.FatalError(str(error)) from error

    def pull(self, i: int) -> None:
        """Bring sub-env ``i``'s own data up to date (derived quantities included)."""
        where = self._current[i]
        if where == _BEHIND:
            self._batch.get_data(i, self._envs[i].data)
        elif where == _STARTED:  # as the sub-env's own reset leaves its data
            env = self._envs[i]
            self._mujoco.mj_resetData(env.model, env.data)
            env.set_state(self.qpos[i], self.qvel[i])
        self._current[i] = _CURRENT
