"""Natively batched classic-control envs (the specs' ``vector_entry_point``).

Each steps every sub-env's state at once with the dynamics function of its single env's
module (on arrays), on the core's :class:`~palaestra.vector.BatchedVectorEnv` template, so
it returns what ``SyncVectorEnv`` of ``make(id)`` envs returns for the same seeds and
actions, in every autoreset mode. ``CartPoleVectorEnv`` reproduces Gymnasium's own
``CartPoleVectorEnv`` instead (see :mod:`palaestra_classic_control.cartpole_vector`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from palaestra import spaces
from palaestra.plugin import AutoresetMode, BatchedVectorEnv, invalid_actions
from palaestra_classic_control import _kernels, acrobot, mountain_car, pendulum
from palaestra_classic_control._common import INSTALL_HINT
from palaestra_classic_control._ops import ARRAY
from palaestra_classic_control.acrobot import AcrobotEnv
from palaestra_classic_control.cartpole_vector import CartPoleVectorEnv
from palaestra_classic_control.continuous_mountain_car import Continuous_MountainCarEnv
from palaestra_classic_control.mountain_car import MountainCarEnv
from palaestra_classic_control.pendulum import PendulumEnv

__all__ = [
    "AcrobotVectorEnv",
    "CartPoleVectorEnv",
    "ContinuousMountainCarVectorEnv",
    "MountainCarVectorEnv",
    "PendulumVectorEnv",
]


class _StateArrays(BatchedVectorEnv):
    """A batched env whose state is a float64 array: one row of ``state_size`` per sub-env."""

    snapshot_fields = (*BatchedVectorEnv.snapshot_fields, "state")
    row_axes: ClassVar[dict[str, int | None] | None] = {"state": 0}  # one row per sub-env
    render_install_hint = INSTALL_HINT
    canvas_y_up = True  # drawn as Gymnasium draws it, y up
    state_size = 0

    def __init__(
        self, num_envs: int, max_episode_steps: int | None, render_mode: str | None, autoreset_mode: Any
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.state = np.zeros((num_envs, self.state_size), dtype=np.float64)

    def observe(self) -> np.ndarray:
        """The state rows as float32."""
        return self.state.astype(np.float32)


def _continuous_actions(env: BatchedVectorEnv, actions: Any) -> np.ndarray:
    """A ``(num_envs, 1)`` batch of finite numbers (out-of-range ones are clipped later)."""
    arr = np.asarray(actions)
    if arr.shape != (env.num_envs, 1) or arr.dtype.kind not in "fiu" or not np.isfinite(arr).all():
        raise invalid_actions(env, actions)
    return arr


class MountainCarVectorEnv(_StateArrays):
    """``MountainCar-v0`` for ``num_envs`` cars at once (bit-identical to the single env).

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes 200).
        render_mode: ``"rgb_array"`` or ``None``.
        goal_velocity: Minimum velocity at the goal.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
    """

    state_size = 2
    single_action_space = spaces.Discrete(3)
    single_observation_space = MountainCarEnv().observation_space
    # The valley's constants, set from mountain_car.VALLEY by __init__.
    min_position: float
    max_position: float
    goal_position: float

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        goal_velocity: float = 0,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        vars(self).update(mountain_car.VALLEY)
        self.goal_velocity = goal_velocity

    def reset_envs(self, mask: np.ndarray, options: dict[str, Any] | None) -> None:
        """Each car starts at rest at a position drawn as the single env draws it."""
        for i in np.flatnonzero(mask):
            self.state[i] = (mountain_car.initial_position(self.rng(int(i)), options), 0.0)

    def advance(self, actions: Any, stepping: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Every car's step (:func:`palaestra_classic_control.mountain_car.dynamics`)."""
        k = mountain_car.constants(self)
        position, velocity, terminated = mountain_car.dynamics(
            self.state[:, 0], self.state[:, 1], actions - 1, k, ARRAY
        )
        self.state = np.stack((position, velocity), axis=1)
        return np.full(self.num_envs, -1.0), terminated

    def draw(self, canvas: Any, i: int) -> None:
        """Car ``i`` in the valley."""
        from palaestra_classic_control._drawing import draw_mountain_car  # loaded with the first frame

        draw_mountain_car(
            canvas, float(self.state[i, 0]), self.min_position, self.max_position, self.goal_position
        )


class PendulumVectorEnv(_StateArrays):
    """``Pendulum-v1`` for ``num_envs`` pendulums at once (bit-identical to the single env).

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes 200).
        render_mode: ``"rgb_array"`` or ``None``.
        g: Gravitational acceleration.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
    """

    snapshot_fields = (*_StateArrays.snapshot_fields, "last_u")
    row_axes = {"state": 0, "last_u": 0}
    canvas_size = (500, 500)
    state_size = 2
    single_action_space = PendulumEnv().action_space
    single_observation_space = PendulumEnv().observation_space

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        g: float = 10.0,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.model = PendulumEnv(g=g)
        self.last_u: np.ndarray | None = np.full(num_envs, np.nan)  # NaN: no torque yet, no arrow

    def check_actions(self, actions: Any) -> np.ndarray:
        """Finite torques (out-of-range ones are clipped, as the single env does)."""
        return _continuous_actions(self, actions)

    def reset_envs(self, mask: np.ndarray, options: dict[str, Any] | None) -> None:
        """Each pendulum's start, drawn as the single env draws it."""
        for i in np.flatnonzero(mask):
            self.state[i] = pendulum.initial_state(self.rng(int(i)), options)
        if self.last_u is not None:
            self.last_u[mask] = np.nan  # no torque yet: no arrow in the picture

    def advance(self, actions: Any, stepping: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Every pendulum's step (:func:`palaestra_classic_control.pendulum.dynamics`)."""
        torque = np.clip(actions, -self.model.max_torque, self.model.max_torque)[:, 0]
        self.last_u = torque.astype(np.float64)
        th, thdot, costs = pendulum.dynamics(self.state[:, 0], self.state[:, 1], torque, self.model._k, ARRAY)
        self.state = np.stack((th, thdot), axis=1)
        return -costs, np.zeros(self.num_envs, dtype=np.bool_)

    def observe(self) -> np.ndarray:
        """``cos(theta), sin(theta), theta_dot`` as float32."""
        th, thdot = self.state[:, 0], self.state[:, 1]
        return np.stack((np.cos(th), np.sin(th), thdot), axis=1).astype(np.float32)

    def draw(self, canvas: Any, i: int) -> None:
        """Pendulum ``i`` and its last torque."""
        torque = None if self.last_u is None or np.isnan(self.last_u[i]) else float(self.last_u[i])
        from palaestra_classic_control._drawing import draw_pendulum  # loaded with the first frame

        draw_pendulum(canvas, float(self.state[i, 0]), torque)


class AcrobotVectorEnv(_StateArrays):
    """``Acrobot-v1`` for ``num_envs`` acrobots at once (bit-identical to the single env).

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes 500).
        render_mode: ``"rgb_array"`` or ``None``.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
    """

    snapshot_fields = (*_StateArrays.snapshot_fields, "_fresh", "_stepped")
    row_axes = {"state": 0, "_fresh": 0, "_stepped": 0}
    canvas_size = (500, 500)
    state_size = 4
    single_action_space = spaces.Discrete(3)
    single_observation_space = AcrobotEnv().observation_space
    model = AcrobotEnv  # the link constants, read as the single env's class attributes

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self._fresh = np.zeros(num_envs, dtype=np.bool_)
        self._stepped: np.ndarray | None = None  # the last step's observation of every row

    def reset_envs(self, mask: np.ndarray, options: dict[str, Any] | None) -> None:
        """Each acrobot's float32 start, drawn as the single env draws it."""
        for i in np.flatnonzero(mask):
            self.state[i] = acrobot.initial_state(self.rng(int(i)), options)
        self._fresh |= mask

    def advance(self, actions: Any, stepping: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Every acrobot's step (:func:`palaestra_classic_control.acrobot.step_state`)."""
        torque = np.array(self.model.AVAIL_TORQUE, dtype=np.float64)[actions]
        self.state, self._stepped, terminated = _kernels.acrobot_batch(self.state, torque, self.model)
        self._fresh[:] = False
        return np.where(terminated, 0.0, -1.0), terminated

    def observe(self) -> np.ndarray:
        """Cos and sin of both angles and both speeds, as the single env observes them."""
        if self._stepped is None:  # no step yet
            t1, t2, v1, v2 = self.state.T
            obs = np.ascontiguousarray(acrobot.observation(t1, t2, v1, v2, np.cos, np.sin).T)
        else:
            obs = self._stepped.copy()
        if self._fresh.any():  # a fresh start is float32: its trigonometry is float32 too
            fresh = self.state[self._fresh].astype(np.float32)
            f1, f2, g1, g2 = fresh.T
            obs[self._fresh] = acrobot.observation(f1, f2, g1, g2, np.cos, np.sin).T
        return obs

    def draw(self, canvas: Any, i: int) -> None:
        """Acrobot ``i``."""
        from palaestra_classic_control._drawing import draw_acrobot  # loaded with the first frame

        theta1, theta2 = self.state[i, :2]
        if self._fresh[i]:  # a fresh start is float32, and so is the single env's picture of it
            theta1, theta2 = np.float32(theta1), np.float32(theta2)
        draw_acrobot(canvas, theta1, theta2, self.model.LINK_LENGTH_1)


class ContinuousMountainCarVectorEnv(_StateArrays):
    """``MountainCarContinuous-v0`` for ``num_envs`` cars (bit-identical to the single env).

    Gymnasium 1.4.0 keeps this env's state in float32 after the first step, with Python
    floats and float32 scalars mixing in ways whose rounding depends on whether the force
    was clipped; the sub-envs are therefore stepped one by one with the single env's code.

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes 999).
        render_mode: ``"rgb_array"`` or ``None``.
        goal_velocity: Minimum velocity at the goal.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
    """

    snapshot_fields = (*_StateArrays.snapshot_fields, "envs")  # the sub-envs step themselves
    row_axes = {"state": 0, "envs": None}
    state_size = 2
    single_action_space = Continuous_MountainCarEnv().action_space
    single_observation_space = Continuous_MountainCarEnv().observation_space

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        goal_velocity: float = 0,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.envs = [Continuous_MountainCarEnv(goal_velocity=goal_velocity) for _ in range(num_envs)]

    def check_actions(self, actions: Any) -> np.ndarray:
        """Finite forces (out-of-range ones are clipped, as the single env does)."""
        return _continuous_actions(self, actions)

    def reset_envs(self, mask: np.ndarray, options: dict[str, Any] | None) -> None:
        """Reset each sub-env with its own generator."""
        for i in np.flatnonzero(mask):
            env = self.envs[i]
            env.np_random = self.rng(int(i))
            env.reset(options=options)
            self.state[i] = env.state

    def advance(self, actions: Any, stepping: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Step the sub-envs one by one (those being reset are skipped: they draw nothing)."""
        rewards = np.zeros(self.num_envs)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        for i, env in enumerate(self.envs):
            if stepping is None or stepping[i]:
                _, rewards[i], terminated[i], _, _ = env.step(actions[i])
                self.state[i] = env.state
        return rewards, terminated

    def draw(self, canvas: Any, i: int) -> None:
        """Car ``i`` in the valley."""
        env = self.envs[i]
        from palaestra_classic_control._drawing import draw_mountain_car  # loaded with the first frame

        position = env.state[0]  # type: ignore[index]  # reset before any frame
        draw_mountain_car(canvas, position, env.min_position, env.max_position, env.goal_position)
