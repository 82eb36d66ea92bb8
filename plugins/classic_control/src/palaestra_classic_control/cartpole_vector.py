"""CartPoleVectorEnv: Gymnasium's natively batched CartPole, with the same numbers."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from palaestra import spaces
from palaestra.plugin import AutoresetMode, BatchedVectorEnv, asserted_invalid, invalid_actions
from palaestra_classic_control import _kernels
from palaestra_classic_control._common import INSTALL_HINT, parse_reset_bounds
from palaestra_classic_control.cartpole import PHYSICS, dynamics_constants, observation_bounds

__all__ = ["CartPoleVectorEnv"]


class CartPoleVectorEnv(BatchedVectorEnv):
    """``num_envs`` cart-poles integrated together, as Gymnasium's ``CartPoleVectorEnv``.

    One generator (the vector env's ``np_random``) draws every initial state; the state is
    a ``(4, num_envs)`` float64 array; rewards are float32; step counts are int32. Given the
    same seed and actions, observations, rewards and flags are bit-identical to Gymnasium
    1.4.0's. The physics is :func:`palaestra_classic_control.cartpole.integrate` (through
    :mod:`palaestra_classic_control._kernels`, which picks the fastest exact way to apply it
    to a batch).

    Args:
        num_envs: Number of cart-poles.
        max_episode_steps: Steps before truncation.
        render_mode: ``"rgb_array"`` or ``None``.
        sutton_barto_reward: 0 per step and -1 on failure instead of +1 per step.
        autoreset_mode: ``NEXT_STEP`` (Gymnasium's only mode here), ``SAME_STEP`` or ``DISABLED``.
    """

    snapshot_fields = (*BatchedVectorEnv.snapshot_fields, "state", "low", "high")
    row_axes: ClassVar[dict[str, int | None] | None] = {"state": 1}  # a column per sub-env
    metadata = {"render_modes": ["rgb_array"], "render_fps": 50, "autoreset_mode": AutoresetMode.NEXT_STEP}
    shared_generator = True
    step_count_dtype = np.int32
    render_install_hint = INSTALL_HINT
    canvas_y_up = True  # drawn as Gymnasium draws it, y up
    single_action_space = spaces.Discrete(2)
    single_observation_space = observation_bounds()
    # The cart-pole's constants, set from cartpole.PHYSICS by __init__ (each env its own).
    force_mag: float
    length: float
    x_threshold: float
    theta_threshold_radians: float

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int = 500,
        render_mode: str | None = None,
        sutton_barto_reward: bool = False,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self._sutton_barto_reward = sutton_barto_reward
        vars(self).update(PHYSICS)
        self.low, self.high = -0.05, 0.05
        self.state: np.ndarray | None = None
        self._ones = np.ones(num_envs, dtype=np.float32)

    def check_actions(self, actions: Any) -> np.ndarray:
        """A ``(num_envs,)`` batch of 0s and 1s."""
        arr = actions if actions.__class__ is np.ndarray else np.asarray(actions)
        if (
            arr.shape != (self.num_envs,)
            or arr.dtype.kind not in "iub"
            or (arr.dtype.kind != "b" and (arr >> 1).any())
        ):
            raise invalid_actions(self, actions, asserted_invalid(actions))
        return arr

    def reset_envs(self, mask: np.ndarray, options: dict[str, Any] | None) -> None:
        """Draw the chosen cart-poles' states uniformly in ``[low, high]``, in one draw.

        A reset takes its bounds from its options (default ±0.05); an autoreset (``options``
        None) keeps the last reset's, as Gymnasium does.
        """
        if options is not None:
            self.low, self.high = parse_reset_bounds(options, -0.05, 0.05)
        count = int(np.count_nonzero(mask))
        draw = self.np_random.uniform(low=self.low, high=self.high, size=(4, count))
        if self.state is None or count == self.num_envs:
            self.state = draw
        else:
            self.state[:, mask] = draw

    def advance(self, actions: Any, stepping: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Integrate every cart-pole one step."""
        force = np.array((-self.force_mag, self.force_mag)).take(actions)  # take: bool actions index too
        limits = (self.x_threshold, self.theta_threshold_radians)
        assert self.state is not None, "step() is checked to follow reset()"
        k = dynamics_constants(self)
        self.state, terminated = _kernels.integrate_batch(self.state, force, k, limits)
        # Sutton-Barto: Gymnasium negates a float32 0/1 array, so "no failure" is -0.0.
        rewards = -terminated.astype(np.float32) if self._sutton_barto_reward else self._ones.copy()
        return rewards, terminated

    def observe(self) -> np.ndarray:
        """The states as ``(num_envs, 4)`` float32 rows."""
        assert self.state is not None, "observed after a reset"
        # C order, as a stack of single observations is: torch and SB3 take the array as it is.
        observation: np.ndarray = self.state.T.astype(np.float32, order="C")
        return observation

    @property
    def prev_done(self) -> np.ndarray:
        """Which sub-envs ended their episode in the last step (reset by the next one)."""
        return self._needs_reset

    @prev_done.setter
    def prev_done(self, value: Any) -> None:
        self._needs_reset = np.array(value, dtype=np.bool_).reshape(self.num_envs)
        self._pending = int(np.count_nonzero(self._needs_reset))

    def draw(self, canvas: Any, i: int) -> None:
        """Cart-pole ``i``."""
        state = self.state
        from palaestra_classic_control._drawing import draw_cartpole  # loaded with the first frame

        draw_cartpole(canvas, float(state[0, i]), float(state[2, i]), self.x_threshold, self.length)  # type: ignore[index]
