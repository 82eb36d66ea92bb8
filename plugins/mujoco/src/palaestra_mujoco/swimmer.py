"""Swimmer-v5: make a three-segment swimmer move forward through a viscous fluid."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import SuiteEnv, norm, row_norms
from palaestra_mujoco.mujoco_env import constructor_arguments

__all__ = ["SwimmerEnv"]

# Follow the swimmer from above and behind.
DEFAULT_CAMERA_CONFIG: dict[str, Any] | None = None  # the whole model, from its middle


class SwimmerEnv(SuiteEnv):
    """Swim forward (+x); episodes only end by the time limit.

    Observation (float64, 8 by default): positions except the x-y position (3), then all
    velocities (5). Action: two rotor torques in ``[-1, 1]``. Reward: forward speed times
    ``forward_reward_weight`` minus ``ctrl_cost_weight * sum(action**2)``.

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        forward_reward_weight, ctrl_cost_weight: Reward terms.
        reset_noise_scale: Half-width of the uniform start-state noise.
        exclude_current_positions_from_observation: Leave the x-y position out.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        ["angle of the front tip", "angle of the first rotor", "angle of the second rotor",
         "velocity of the tip along x", "velocity of the tip along y", "angular velocity of the front tip",
         "angular velocity of the first rotor", "angular velocity of the second rotor"],
        ["torque of the first rotor", "torque of the second rotor"],
    )  # fmt: skip

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations
    resets_batches = True  # ... and starts their episodes in the batch's rows

    def __init__(
        self,
        xml_file: str = "swimmer.xml",
        frame_skip: int = 4,
        default_camera_config: dict[str, Any] | None = DEFAULT_CAMERA_CONFIG,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-4,
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
        self._layout(2 if exclude_current_positions_from_observation else 0)
        self._xy = self._qpos[:2]

    def begin_step(self, action: np.ndarray) -> tuple[list[float], float]:
        """Set the rotor torques; note the position before and the control cost."""
        return self._xy.tolist(), self._priced(action)

    def end_step(
        self, begun: tuple[list[float], float]
    ) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the progress."""
        (x_before, y_before), ctrl = begun
        xy = self._xy.copy()
        x_after, y_after = xy.tolist()
        reward, info = self._scored(x_before, y_before, x_after, y_after, norm(xy), ctrl, self._dt)
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), np.float64(reward), False, False, info

    def begin_batch(self, sim: Any, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each position before and control cost."""
        return sim.qpos[:, :2].copy(), self.control_costs(actions)

    def end_batch(
        self, begun: tuple[np.ndarray, np.ndarray], sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every simulation of a batch at once."""
        before, ctrl = begun
        xy = sim.qpos[:, :2].copy()
        rewards, info = self._scored(
            before[:, 0], before[:, 1], xy[:, 0].copy(), xy[:, 1].copy(), row_norms(xy), ctrl, sim.dt
        )
        self.observe_batch(sim.qpos, sim.qvel, observations)
        return rewards, np.zeros(len(rewards), dtype=np.bool_), info

    def _scored(
        self, x_before: Any, y_before: Any, x_after: Any, y_after: Any, distance: Any, ctrl: Any, dt: Any
    ) -> tuple[Any, dict[str, Any]]:
        """The reward and info of a step: of one env from numbers, of a batch from arrays."""
        x_velocity, y_velocity = (x_after - x_before) / dt, (y_after - y_before) / dt
        forward = self._forward_reward_weight * x_velocity
        info = {
            "x_position": x_after,
            "y_position": y_after,
            "distance_from_origin": distance,
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "reward_forward": forward,
            "reward_ctrl": -ctrl,
        }
        return forward - ctrl, info

    def _reset_info(self, qpos: np.ndarray) -> dict[str, Any]:
        xy = qpos[:2].copy()
        x, y = xy.tolist()
        return {"x_position": x, "y_position": y, "distance_from_origin": norm(xy)}
