"""InvertedPendulum-v5: keep a pole upright on a cart by pushing the cart."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import SuiteEnv
from palaestra_mujoco._native import compiled
from palaestra_mujoco.mujoco_env import constructor_arguments, gather_plan

__all__ = ["InvertedPendulumEnv"]

# The whole 2 m rail in view, from the front.
DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"trackbodyid": 0, "distance": 2.04}


class InvertedPendulumEnv(SuiteEnv):
    """Balance the pole: +1 per step until it tilts more than 0.2 rad.

    Observation (float64, 4): cart position, pole angle, cart velocity, pole angular
    velocity. Action: the force on the cart, in ``[-3, 3]``. Reward: 1 (an ``int``) while
    balanced, 0 on the step that ends the episode. Terminates when the angle exceeds 0.2
    rad in size or the state is no longer finite.

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        reset_noise_scale: Half-width of the uniform start-state noise.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        ["cart position", "pole angle", "cart velocity", "pole angular velocity"],
        ["force on the cart"],
    )

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations
    resets_batches = True  # ... and starts their episodes in the batch's rows
    ends_in_c = True  # ... and ends their steps in one C loop (SuiteEnv.end_batch)
    #: The largest pole angle (rad, either way) that still counts as balanced.
    balance_limit = 0.2

    def __init__(
        self,
        xml_file: str = "inverted_pendulum.xml",
        frame_skip: int = 2,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        reset_noise_scale: float = 0.01,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
        self._box(4)
        self.observation_structure = {"qpos": self.model.nq, "qvel": self.model.nv}
        self._observed, self._observed_at = gather_plan(self._qpos, self._qvel)

    def _get_obs(self) -> np.ndarray:
        return self._observed[self._observed_at]  # type: ignore[no-any-return]

    def begin_step(self, action: np.ndarray) -> None:
        """Set the force on the cart."""
        action = self._checked_action(action)
        self._require_finite(action)
        self._ctrl[:] = action

    def end_step(self, begun: None) -> tuple[np.ndarray, int, bool, bool, dict[str, Any]]:
        """Reward 1 while the pole stands."""
        observation = self._get_obs()
        values = observation.tolist()
        terminated = not (abs(values[1]) <= self.balance_limit and all(map(math.isfinite, values)))
        reward = 0 if terminated else 1
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, False, {"reward_survive": reward}

    def begin_batch(self, sim: Any, actions: np.ndarray) -> None:
        """Nothing to note: the reward depends only on the state after the step."""

    def plain_end_batch(
        self, begun: None, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every simulation of a batch at once, with numpy (:meth:`end_batch`).

        Mirrored by ``balanced_ends`` in ``_compiled.c`` (:meth:`compiled_end_batch`).
        """
        self.observe_batch(sim.qpos, sim.qvel, observations)
        balanced = (np.abs(observations[:, 1]) <= self.balance_limit) & np.isfinite(observations).all(axis=1)
        return balanced.astype(np.float64), ~balanced, {"reward_survive": balanced.astype(np.int64)}

    def compiled_end_batch(
        self, begun: None, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] | None:
        """:meth:`plain_end_batch` in one C loop; ``None``, nothing written, where it leaves the batch to numpy."""
        if self.velocity_bound is not None:  # the loop observes without clipping
            return None
        n = len(observations)
        rewards, terminated, survive = np.empty(n), np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.int64)
        buffers = (sim.qpos, sim.qvel, observations, rewards, terminated, survive)
        if not compiled.balanced_ends(buffers, self.balance_limit):
            return None
        return rewards, terminated, {"reward_survive": survive}
