"""Natively batched classic-control envs (the specs' ``vector_entry_point``).

``CartPoleVectorEnv`` reproduces Gymnasium's own ``CartPoleVectorEnv`` (one generator for
all sub-envs). The others reproduce ``SyncVectorEnv`` of the single envs made by ``make``:
see :mod:`palaestra_classic_control._batched`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra import spaces
from palaestra_classic_control._batched import BatchedEnv
from palaestra_classic_control._common import parse_reset_bounds, to_float
from palaestra_classic_control.acrobot import AcrobotEnv
from palaestra_classic_control.cartpole_vector import CartPoleVectorEnv
from palaestra_classic_control.continuous_mountain_car import Continuous_MountainCarEnv
from palaestra_classic_control.pendulum import DEFAULT_X, DEFAULT_Y

__all__ = [
    "AcrobotVectorEnv",
    "CartPoleVectorEnv",
    "ContinuousMountainCarVectorEnv",
    "MountainCarVectorEnv",
    "PendulumVectorEnv",
]


class MountainCarVectorEnv(BatchedEnv):
    """``MountainCar-v0`` for ``num_envs`` cars at once (bit-identical to the single env).

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes 200).
        render_mode: ``"rgb_array"`` or ``None``.
        goal_velocity: Minimum velocity at the goal.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
    """

    metadata = {**BatchedEnv.metadata, "render_fps": 30}
    state_size = 2
    single_action_space = spaces.Discrete(3)
    single_observation_space = spaces.Box(
        np.array([-1.2, -0.07], np.float32), np.array([0.6, 0.07], np.float32), dtype=np.float32
    )

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        goal_velocity: float = 0,
        autoreset_mode: Any = "NextStep",
    ) -> None:
        self.goal_velocity = goal_velocity
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)

    def _reset_one(self, i: int, rng: np.random.Generator, options: dict[str, Any] | None) -> None:
        low, high = parse_reset_bounds(options, -0.6, -0.4)
        self.state[i] = (float(rng.uniform(low=low, high=high)), 0.0)

    def _advance(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        position, velocity = self.state[:, 0], self.state[:, 1]
        velocity = velocity + ((actions - 1) * 0.001 + np.cos(3 * position) * -0.0025)
        velocity = np.clip(velocity, -0.07, 0.07)
        position = np.clip(position + velocity, -1.2, 0.6)
        velocity[(position == -1.2) & (velocity < 0)] = 0.0
        terminated = (position >= 0.5) & (velocity >= self.goal_velocity)
        return np.stack((position, velocity), axis=1), np.full(self.num_envs, -1.0), terminated

    def _observe(self, states: np.ndarray) -> np.ndarray:
        return states.astype(np.float32)

    def _canvas_size(self) -> tuple[int, int]:
        return 600, 400

    def _draw(self, canvas: Any, state: np.ndarray) -> None:
        from palaestra_classic_control._drawing import draw_mountain_car

        draw_mountain_car(canvas, float(state[0]), -1.2, 0.6, 0.5)


class PendulumVectorEnv(BatchedEnv):
    """``Pendulum-v1`` for ``num_envs`` pendulums at once.

    States are bit-identical to the single env's. Rewards agree to within one rounding:
    the single env squares with ``pow`` on numpy scalars and the batched env multiplies
    arrays, which can differ in the last bit (about 1e-16 relative).

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes 200).
        render_mode: ``"rgb_array"`` or ``None``.
        g: Gravitational acceleration.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
    """

    snapshot_fields = (*BatchedEnv.snapshot_fields, "last_u")

    metadata = {**BatchedEnv.metadata, "render_fps": 30}
    state_size = 2
    single_action_space = spaces.Box(-2.0, 2.0, (1,), np.float32)
    single_observation_space = spaces.Box(
        -np.array([1.0, 1.0, 8.0], np.float32), np.array([1.0, 1.0, 8.0], np.float32), dtype=np.float32
    )

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        g: float = 10.0,
        autoreset_mode: Any = "NextStep",
    ) -> None:
        self.g = g
        self._k_gravity = 3 * g / (2 * 1.0)
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.last_u: np.ndarray | None = None

    def _check_actions(self, actions: Any) -> np.ndarray:
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs, 1) or arr.dtype.kind not in "fiu" or np.isnan(arr).any():
            from palaestra.error import InvalidAction

            raise InvalidAction(f"PendulumVectorEnv.step: actions {actions!r} are not in {self.action_space}")
        return arr

    def _reset_one(self, i: int, rng: np.random.Generator, options: dict[str, Any] | None) -> None:
        if options is None:
            high = np.array([DEFAULT_X, DEFAULT_Y])
        else:
            high = np.array(
                [
                    to_float(options.get("x_init", DEFAULT_X), "x_init"),
                    to_float(options.get("y_init", DEFAULT_Y), "y_init"),
                ]
            )
        self.state[i] = rng.uniform(low=-high, high=high)

    def _advance(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        u = np.clip(actions, -2.0, 2.0)[:, 0]
        self.last_u = u
        th, thdot = self.state[:, 0], self.state[:, 1]
        normalized = ((th + np.pi) % (2 * np.pi)) - np.pi
        costs = normalized * normalized + 0.1 * (thdot * thdot) + (0.001 * (u * u)).astype(np.float64)
        accel = self._k_gravity * np.sin(th) + (3.0 * u).astype(np.float64)
        newthdot = np.clip(thdot + accel * 0.05, -8, 8)
        newth = th + newthdot * 0.05
        return np.stack((newth, newthdot), axis=1), -costs, np.zeros(self.num_envs, dtype=np.bool_)

    def _observe(self, states: np.ndarray) -> np.ndarray:
        th, thdot = states[:, 0], states[:, 1]
        return np.stack((np.cos(th), np.sin(th), thdot), axis=1).astype(np.float32)

    def _canvas_size(self) -> tuple[int, int]:
        return 500, 500

    def _draw(self, canvas: Any, state: np.ndarray) -> None:
        from palaestra_classic_control._drawing import draw_pendulum

        draw_pendulum(canvas, float(state[0]), None)


def _pow2(values: np.ndarray) -> np.ndarray:
    # libm pow(x, 2) (what the single env uses) is not always x*x in the last bit, and the
    # Acrobot is chaotic enough to amplify that; square element by element with pow.
    return np.array([v**2 for v in values.tolist()])


class AcrobotVectorEnv(BatchedEnv):
    """``Acrobot-v1`` for ``num_envs`` acrobots at once (bit-identical to the single env).

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes 500).
        render_mode: ``"rgb_array"`` or ``None``.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
    """

    snapshot_fields = (*BatchedEnv.snapshot_fields, "_fresh")

    metadata = {**BatchedEnv.metadata, "render_fps": 15}
    state_size = 4
    single_action_space = spaces.Discrete(3)
    single_observation_space = AcrobotEnv().observation_space

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: Any = "NextStep",
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self._fresh = np.zeros(num_envs, dtype=np.bool_)

    def _reset_one(self, i: int, rng: np.random.Generator, options: dict[str, Any] | None) -> None:
        low, high = parse_reset_bounds(options, -0.1, 0.1)
        self.state[i] = rng.uniform(low=low, high=high, size=(4,)).astype(np.float32)
        self._fresh[i] = True

    def _dsdt(self, s: list[np.ndarray]) -> list[Any]:
        theta1, theta2, dtheta1, dtheta2, a = s
        pi = math.pi
        cos2, sin2 = np.cos(theta2), np.sin(theta2)
        d1 = 1.0 * 0.5**2 + 1.0 * (1.0**2 + 0.5**2 + 2 * 1.0 * 0.5 * cos2) + 1.0 + 1.0
        d2 = 1.0 * (0.5**2 + 1.0 * 0.5 * cos2) + 1.0
        phi2 = 1.0 * 0.5 * 9.8 * np.cos(theta1 + theta2 - pi / 2.0)
        phi1 = (
            -1.0 * 1.0 * 0.5 * _pow2(dtheta2) * sin2
            - 2 * 1.0 * 1.0 * 0.5 * dtheta2 * dtheta1 * sin2
            + (1.0 * 0.5 + 1.0 * 1.0) * 9.8 * np.cos(theta1 - pi / 2)
            + phi2
        )
        ddtheta2 = (a + d2 / d1 * phi1 - 1.0 * 1.0 * 0.5 * _pow2(dtheta1) * sin2 - phi2) / (
            1.0 * 0.5**2 + 1.0 - _pow2(d2) / d1
        )
        ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
        return [dtheta1, dtheta2, ddtheta1, ddtheta2, np.zeros_like(a)]

    def _advance(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        torque = np.array(AcrobotEnv.AVAIL_TORQUE, dtype=np.float64)[actions]
        y0 = [*self.state.T, torque]
        dt, dt2, sixth = 0.2, 0.1, 0.2 / 6.0
        k1 = self._dsdt(y0)
        k2 = self._dsdt([y + dt2 * k for y, k in zip(y0, k1, strict=True)])
        k3 = self._dsdt([y + dt2 * k for y, k in zip(y0, k2, strict=True)])
        k4 = self._dsdt([y + dt * k for y, k in zip(y0, k3, strict=True)])
        ns = [y + sixth * (a + 2 * b + 2 * c + d) for y, a, b, c, d in zip(y0, k1, k2, k3, k4, strict=True)]
        t1 = _wrap(ns[0])
        t2 = _wrap(ns[1])
        v1 = np.minimum(np.maximum(ns[2], -AcrobotEnv.MAX_VEL_1), AcrobotEnv.MAX_VEL_1)
        v2 = np.minimum(np.maximum(ns[3], -AcrobotEnv.MAX_VEL_2), AcrobotEnv.MAX_VEL_2)
        terminated = -np.cos(t1) - np.cos(t2 + t1) > 1.0
        self._fresh[:] = False
        rewards = np.where(terminated, 0.0, -1.0)
        return np.stack((t1, t2, v1, v2), axis=1), rewards, terminated

    def _observe(self, states: np.ndarray) -> np.ndarray:
        obs = np.stack(
            (
                np.cos(states[:, 0]),
                np.sin(states[:, 0]),
                np.cos(states[:, 1]),
                np.sin(states[:, 1]),
                states[:, 2],
                states[:, 3],
            ),
            axis=1,
        ).astype(np.float32)
        fresh = self._fresh if len(states) == self.num_envs else None
        if fresh is not None and fresh.any():
            # A fresh reset state is float32 and the single env takes float32 cos/sin of it.
            s = states[fresh].astype(np.float32)
            obs[fresh] = np.stack(
                (np.cos(s[:, 0]), np.sin(s[:, 0]), np.cos(s[:, 1]), np.sin(s[:, 1]), s[:, 2], s[:, 3]), axis=1
            )
        return obs

    def _canvas_size(self) -> tuple[int, int]:
        return 500, 500

    def _draw(self, canvas: Any, state: np.ndarray) -> None:
        from palaestra_classic_control._drawing import draw_acrobot

        draw_acrobot(canvas, float(state[0]), float(state[1]), 1.0)


def _wrap(x: np.ndarray) -> np.ndarray:
    x = x.copy()
    diff = 2 * math.pi
    while (high := x > math.pi).any():
        x[high] = x[high] - diff
    while (low := x < -math.pi).any():
        x[low] = x[low] + diff
    return x


class ContinuousMountainCarVectorEnv(BatchedEnv):
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

    snapshot_fields = (*BatchedEnv.snapshot_fields, "envs")  # the sub-envs step themselves

    metadata = {**BatchedEnv.metadata, "render_fps": 30}
    state_size = 2
    single_action_space = spaces.Box(-1.0, 1.0, (1,), np.float32)
    single_observation_space = Continuous_MountainCarEnv().observation_space

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        goal_velocity: float = 0,
        autoreset_mode: Any = "NextStep",
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.envs = [Continuous_MountainCarEnv(goal_velocity=goal_velocity) for _ in range(num_envs)]

    def _check_actions(self, actions: Any) -> np.ndarray:
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs, 1) or arr.dtype.kind not in "fiu" or np.isnan(arr).any():
            from palaestra.error import InvalidAction

            raise InvalidAction(
                f"ContinuousMountainCarVectorEnv.step: actions {actions!r} are not in {self.action_space}"
            )
        return arr

    def _reset_one(self, i: int, rng: np.random.Generator, options: dict[str, Any] | None) -> None:
        env = self.envs[i]
        env.np_random = rng
        env.reset(options=options)
        self.state[i] = env.state

    def _advance(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        # Sub-envs about to be reset are stepped too; the reset then replaces their state,
        # and this env's step draws no randomness, so nothing else changes.
        rewards = np.zeros(self.num_envs)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        states = np.empty_like(self.state)
        for i, env in enumerate(self.envs):
            _, rewards[i], terminated[i], _, _ = env.step(actions[i])
            states[i] = env.state
        return states, rewards, terminated

    def _observe(self, states: np.ndarray) -> np.ndarray:
        return states.astype(np.float32)

    def _canvas_size(self) -> tuple[int, int]:
        return 600, 400

    def _draw(self, canvas: Any, state: np.ndarray) -> None:
        from palaestra_classic_control._drawing import draw_mountain_car

        draw_mountain_car(canvas, float(state[0]), -1.2, 0.6, 0.45)
