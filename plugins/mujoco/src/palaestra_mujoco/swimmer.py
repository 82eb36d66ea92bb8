"""Swimmer-v5: make a three-segment swimmer move forward through a viscous fluid."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.utils import EzPickle
from palaestra_mujoco._locomotion import SuiteEnv, control_cost, norm

__all__ = ["SwimmerEnv"]

# Follow the swimmer from above and behind.
DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"trackbodyid": 1, "distance": 4.0, "elevation": -50.0}


class SwimmerEnv(SuiteEnv, EzPickle):
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

    def __init__(
        self,
        xml_file: str = "swimmer.xml",
        frame_skip: int = 4,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-4,
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        EzPickle.__init__(
            self,
            xml_file,
            frame_skip,
            default_camera_config,
            forward_reward_weight,
            ctrl_cost_weight,
            reset_noise_scale,
            exclude_current_positions_from_observation,
            **kwargs,
        )
        self._forward_reward_weight = forward_reward_weight
        self._ctrl_cost_weight = ctrl_cost_weight
        self._reset_noise_scale = reset_noise_scale
        self._exclude_current_positions_from_observation = exclude_current_positions_from_observation
        super().__init__(xml_file, frame_skip, default_camera_config, **kwargs)
        self.uses_body_forces = False
        skipped = 2 if exclude_current_positions_from_observation else 0
        self._positions = self._qpos[skipped:]
        self._xy = self._qpos[:2]
        self._box(self.model.nq - skipped + self.model.nv)
        self.observation_structure = {
            "skipped_qpos": skipped,
            "qpos": self.model.nq - skipped,
            "qvel": self.model.nv,
        }

    def control_cost(self, action: np.ndarray) -> float:
        """The control cost of ``action``."""
        return control_cost(self._ctrl_cost_weight, action)

    def _get_obs(self) -> np.ndarray:
        return np.concatenate((self._positions, self._qvel))

    def step(self, action: np.ndarray) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Apply the rotor torques for ``frame_skip`` physics steps and score the progress."""
        action = self._checked_action(action)
        x_before, y_before = self._xy.tolist()
        self._step_physics(action, self.frame_skip)
        xy = self._xy.copy()
        x_after, y_after = xy.tolist()
        dt = self._dt
        x_velocity, y_velocity = (x_after - x_before) / dt, (y_after - y_before) / dt
        forward = self._forward_reward_weight * x_velocity
        ctrl = control_cost(self._ctrl_cost_weight, action)
        info = {
            "x_position": x_after,
            "y_position": y_after,
            "distance_from_origin": norm(xy),
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "reward_forward": forward,
            "reward_ctrl": -ctrl,
        }
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), np.float64(forward - ctrl), False, False, info

    def reset_model(self) -> np.ndarray:
        """Start from the initial pose with uniform noise on positions and velocities."""
        self._noisy_start(self._reset_noise_scale)
        return self._get_obs()

    def _get_reset_info(self) -> dict[str, Any]:
        x, y = self._xy.tolist()
        return {"x_position": x, "y_position": y, "distance_from_origin": norm(self._xy.copy())}
