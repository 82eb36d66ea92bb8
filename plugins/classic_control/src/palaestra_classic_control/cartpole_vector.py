"""CartPoleVectorEnv: Gymnasium's natively batched CartPole, with the same numbers."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra import spaces
from palaestra.error import InvalidAction
from palaestra.vector import AutoresetMode, VectorEnv
from palaestra.vector.utils import batch_space
from palaestra_classic_control._common import parse_reset_bounds
from palaestra_classic_control.cartpole import PHYSICS, observation_bounds

__all__ = ["CartPoleVectorEnv"]

# Below this many sub-envs a plain loop beats numpy's per-call overhead.
SMALL_BATCH = 48


def _libm_matches_numpy() -> bool:
    """Whether numpy's array cos/sin round like libm's here (then the loop is bit-exact)."""
    probe = np.linspace(-3.0, 3.0, 1001)
    return bool(
        np.array_equal(np.cos(probe), [math.cos(v) for v in probe.tolist()])
        and np.array_equal(np.sin(probe), [math.sin(v) for v in probe.tolist()])
    )


_LOOP_IS_EXACT = _libm_matches_numpy()


class CartPoleVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` cart-poles integrated together, as Gymnasium's ``CartPoleVectorEnv``.

    One generator (the vector env's ``np_random``) draws every initial state. The step
    ignores the actions of sub-envs whose episode ended in the previous step and resets them
    instead (NEXT_STEP autoreset). Rewards are float32. Given the same seed and actions,
    observations, rewards and flags are bit-identical to Gymnasium 1.4.0's.

    The arithmetic is the same sequence of array operations, done into preallocated
    buffers, and the reset draw is skipped when no sub-env needs one (a zero-size draw
    consumes no randomness). Up to ``SMALL_BATCH`` sub-envs, where numpy's per-call cost
    dominates, the whole step runs as a loop over Python floats with the same operations
    (only where libm's cos/sin round like numpy's, checked at import).

    Args:
        num_envs: Number of cart-poles.
        max_episode_steps: Steps before truncation.
        render_mode: ``"rgb_array"`` or ``None``.
        sutton_barto_reward: 0 per step and -1 on failure instead of +1 per step.
    """

    snapshot_fields = ("state", "_steps", "_done", "_done_count", "low", "high")

    metadata = {"render_modes": ["rgb_array"], "render_fps": 50, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int = 500,
        render_mode: str | None = None,
        sutton_barto_reward: bool = False,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self._sutton_barto_reward = sutton_barto_reward
        self.num_envs = num_envs
        self.max_episode_steps = max_episode_steps
        self.render_mode = render_mode
        vars(self).update(PHYSICS)
        self.low, self.high = -0.05, 0.05
        self.single_action_space = spaces.Discrete(2)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_observation_space = observation_bounds()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.state: np.ndarray | None = None
        self._loop = _LOOP_IS_EXACT and num_envs <= SMALL_BATCH
        self._restart_counters()
        self._canvas: Any = None
        self._buffers = np.empty((5, num_envs))
        self._force_table = np.array([-self.force_mag, self.force_mag])
        self._ones = np.ones(num_envs, dtype=np.float32)

    def _forces(self, action: Any) -> np.ndarray:
        arr = np.asarray(action)
        if (
            arr.shape != (self.num_envs,)
            or arr.dtype.kind not in "iub"
            or (arr.dtype.kind != "b" and (arr >> 1).any())
        ):
            raise InvalidAction(
                f"CartPoleVectorEnv.step: actions {action!r} are not in the action space {self.action_space}"
            )
        return self._force_table[arr]

    def step(self, action: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Integrate every cart-pole one step; reset those that ended last step."""
        if self.state is None:
            raise RuntimeError("CartPoleVectorEnv.step called before reset; call reset() first.")
        if self._loop:
            return self._step_loop(self._actions_list(action))
        self.state = self._integrate_arrays(self._forces(action))
        terminated = np.abs(self.state[0]) > self.x_threshold
        terminated |= np.abs(self.state[2]) > self.theta_threshold_radians
        return self._finish(terminated, self.state.T)

    def _actions_list(self, action: Any) -> list[int]:
        arr = action if action.__class__ is np.ndarray else np.asarray(action)
        values = arr.tolist() if arr.shape == (self.num_envs,) and arr.dtype.kind in "iub" else None
        if values is None or any(v != 0 and v != 1 for v in values):
            raise InvalidAction(
                f"CartPoleVectorEnv.step: actions {action!r} are not in the action space {self.action_space}"
            )
        return values

    def _step_loop(
        self, actions: list[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The whole step per sub-env on Python floats: the same operations as the arrays.

        Step counts and end flags live in Python lists here (see :attr:`steps`). A
        sub-env that ended last step takes its new start state from one draw of
        ``(4, count)`` numbers, as in Gymnasium 1.4.0, which draws them after integrating.
        """
        pml, total, g, length, mp, tau, fm = (
            self.polemass_length,
            self.total_mass,
            self.gravity,
            self.length,
            self.masspole,
            self.tau,
            self.force_mag,
        )
        cos, sin = math.cos, math.sin
        euler = self.kinematics_integrator == "euler"
        x_limit, angle_limit = self.x_threshold, self.theta_threshold_radians
        limit, sutton_barto = self.max_episode_steps, self._sutton_barto_reward
        starts: Any = ()
        count = self._done_count
        if count:
            draw = self.np_random.uniform(low=self.low, high=self.high, size=(4, count))
            starts = iter(draw.T.tolist())  # column k: the start of the k-th ended sub-env
        flat: list[float] = []
        terminations, truncations, rewards, steps, done = [], [], [], [], []
        rows = self.state.T.tolist()  # type: ignore[union-attr]
        for (x, x_dot, theta, theta_dot), a, step, ended in zip(
            rows, actions, self._steps, self._done, strict=True
        ):
            if ended:
                flat += next(starts)
                terminations.append(False)
                truncations.append(False)
                rewards.append(0.0)
                steps.append(0)
                done.append(False)
                continue
            c = cos(theta)
            sn = sin(theta)
            temp = ((fm if a == 1 else -fm) + pml * (theta_dot * theta_dot) * sn) / total
            thetaacc = (g * sn - c * temp) / (length * (4.0 / 3.0 - mp * (c * c) / total))
            xacc = temp - pml * thetaacc * c / total
            if euler:
                x, x_dot, theta, theta_dot = (
                    x + tau * x_dot,
                    x_dot + tau * xacc,
                    theta + tau * theta_dot,
                    theta_dot + tau * thetaacc,
                )
            else:
                x_dot = x_dot + tau * xacc
                theta_dot = theta_dot + tau * thetaacc
                x, theta = x + tau * x_dot, theta + tau * theta_dot
            flat += (x, x_dot, theta, theta_dot)
            # abs(v) > limit is Gymnasium 1.4.0's (v < -limit) | (v > limit), NaN included.
            terminated = abs(x) > x_limit or abs(theta) > angle_limit
            step += 1
            truncated = step >= limit
            terminations.append(terminated)
            truncations.append(truncated)
            # Sutton-Barto: Gymnasium 1.4.0 negates a float32 0/1 array, so "no failure" is -0.0.
            rewards.append((-1.0 if terminated else -0.0) if sutton_barto else 1.0)
            steps.append(step)
            done.append(terminated or truncated)
        self._steps, self._done = steps, done
        self._done_count = done.count(True)
        state = np.array(flat, np.float64).reshape(len(rows), 4)
        self.state = state.T  # Gymnasium 1.4.0's (4, num_envs) layout, as a view
        return (
            state.astype(np.float32),
            np.array(rewards, np.float32),
            np.array(terminations, np.bool_),
            np.array(truncations, np.bool_),
            {},
        )

    def _integrate_arrays(self, force: np.ndarray) -> np.ndarray:
        """Vectorised physics (Gymnasium 1.4.0's array operations, done in place)."""
        x, x_dot, theta, theta_dot = self.state
        c, sn, temp, acc, other = self._buffers
        np.cos(theta, out=c)
        np.sin(theta, out=sn)
        # Gymnasium 1.4.0's operation sequence, done in place (multiplication and addition are
        # commutative in IEEE arithmetic, so a*b and b*a round the same).
        np.multiply(theta_dot, theta_dot, out=temp)
        temp *= self.polemass_length
        temp *= sn
        temp += force
        temp /= self.total_mass
        np.multiply(sn, self.gravity, out=acc)
        np.multiply(c, temp, out=other)
        acc -= other
        np.multiply(c, c, out=other)
        other *= self.masspole
        other /= self.total_mass
        np.subtract(4.0 / 3.0, other, out=other)
        other *= self.length
        acc /= other  # thetaacc
        np.multiply(acc, self.polemass_length, out=other)
        other *= c
        other /= self.total_mass
        np.subtract(temp, other, out=other)  # xacc
        state = np.empty_like(self.state)
        tau = self.tau
        if self.kinematics_integrator == "euler":
            np.multiply(x_dot, tau, out=state[0])
            state[0] += x
            np.multiply(other, tau, out=state[1])
            state[1] += x_dot
            np.multiply(theta_dot, tau, out=state[2])
            state[2] += theta
            np.multiply(acc, tau, out=state[3])
            state[3] += theta_dot
        else:
            np.multiply(other, tau, out=state[1])
            state[1] += x_dot
            np.multiply(state[1], tau, out=state[0])
            state[0] += x
            np.multiply(acc, tau, out=state[3])
            state[3] += theta_dot
            np.multiply(state[3], tau, out=state[2])
            state[2] += theta
        return state

    def _finish(
        self, terminated: np.ndarray, rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Count steps, reset the sub-envs that ended last step, batch the results.

        ``rows`` is the new state as a (num_envs, 4) array or view.
        """
        state = self.state
        self._steps += 1
        truncated = self._steps >= self.max_episode_steps
        reward = -np.array(terminated, dtype=np.float32) if self._sutton_barto_reward else self._ones.copy()
        done_before = self._done
        if self._done_count:
            state[:, done_before] = self.np_random.uniform(
                low=self.low, high=self.high, size=(4, self._done_count)
            )
            self._steps[done_before] = 0
            reward[done_before] = 0.0
            terminated[done_before] = False
            truncated[done_before] = False
        self._done = terminated | truncated
        self._done_count = int(self._done.sum())
        return rows.astype(np.float32), reward, terminated, truncated, {}

    def _restart_counters(self) -> None:
        """Zero step counts and end flags: Python lists for the loop, arrays otherwise."""
        n = self.num_envs
        if self._loop:
            self._steps: Any = [0] * n
            self._done: Any = [False] * n
        else:
            self._steps = np.zeros(n, dtype=np.int32)
            self._done = np.zeros(n, dtype=np.bool_)
        self._done_count = 0

    @property
    def steps(self) -> np.ndarray:
        """Steps taken in each sub-env's current episode (int32)."""
        return np.asarray(self._steps, dtype=np.int32)

    @steps.setter
    def steps(self, value: Any) -> None:
        counts = np.array(value, dtype=np.int32).reshape(self.num_envs)
        self._steps = counts.tolist() if self._loop else counts

    @property
    def prev_done(self) -> np.ndarray:
        """Which sub-envs ended their episode in the last step (reset by the next one)."""
        return np.asarray(self._done, dtype=np.bool_)

    @prev_done.setter
    def prev_done(self, value: Any) -> None:
        flags = np.array(value, dtype=np.bool_).reshape(self.num_envs)
        self._done = flags.tolist() if self._loop else flags
        self._done_count = int(flags.sum())

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw every initial state uniformly in ``[low, high]`` (default ±0.05)."""
        super().reset(seed=seed)
        self.low, self.high = parse_reset_bounds(options, -0.05, 0.05)
        self.state = self.np_random.uniform(low=self.low, high=self.high, size=(4, self.num_envs))
        self._restart_counters()
        return self.state.T.astype(np.float32), {}

    def render(self) -> tuple[np.ndarray, ...] | None:
        """One rgb frame per cart-pole."""
        if self.render_mode is None:
            from palaestra import logger

            logger.warn("You are calling render without a render mode; pass render_mode='rgb_array'.")
            return None
        if self.state is None:
            raise ValueError("CartPoleVectorEnv has no state yet; call reset() first.")
        if self._canvas is None:
            from palaestra_classic_control._render import Canvas

            self._canvas = Canvas(600, 400, "rgb_array", 50, "CartPole")
        from palaestra_classic_control._drawing import draw_cartpole

        frames = []
        for x in self.state.T:
            draw_cartpole(self._canvas, float(x[0]), float(x[2]), self.x_threshold, self.length)
            frames.append(self._canvas.present())
        return tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        """Release the drawing surface."""
        self._canvas = None
