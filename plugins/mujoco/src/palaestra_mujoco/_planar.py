"""The common body of Hopper and Walker2d: planar robots that must stay upright."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import SuiteEnv

__all__ = ["UprightWalker", "side_camera"]


def side_camera(distance: float) -> dict[str, Any]:
    """Follow the torso from ``distance`` metres, looking slightly down at hip height."""
    return {"trackbodyid": 1, "distance": distance, "lookat": np.array((0.0, 0.0, 1.15)), "elevation": -20.0}


class UprightWalker(SuiteEnv):
    """Move forward in the x-z plane while the torso stays high enough and level enough.

    Subclasses define :meth:`is_healthy`. Observation: positions except ``rootx`` (unless
    kept), then velocities clipped to ``[-10, 10]``. Reward: forward speed, plus
    ``healthy_reward`` while healthy, minus the control cost.
    """

    def __init__(self, arguments: dict[str, Any]) -> None:
        super().__init__(arguments)
        self._layout(1 if self._exclude_current_positions_from_observation else 0)

    @property
    def is_healthy(self) -> bool:
        """Whether the robot is still up (height, pitch and, for some, the whole state)."""
        raise NotImplementedError

    @property
    def healthy_reward(self) -> float:
        """``healthy_reward`` while healthy, else 0."""
        return self.is_healthy * self._healthy_reward

    def _get_obs(self) -> np.ndarray:
        observation: np.ndarray = self._observed[self._observed_at]
        # Velocities clipped to [-10, 10] in place: np.clip's result at a fraction of its cost.
        velocities = observation[len(self._positions) :]
        np.maximum(velocities, -10.0, out=velocities)
        np.minimum(velocities, 10.0, out=velocities)
        return observation

    def begin_step(self, action: np.ndarray) -> tuple[float, float]:
        """Set the torques; note the position before and the control cost."""
        return self._qpos.item(0), self._priced(action)

    def end_step(
        self, begun: tuple[float, float]
    ) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the progress and the posture."""
        x_before, ctrl = begun
        x_after = self._qpos.item(0)
        x_velocity = (x_after - x_before) / self._dt
        healthy = self.is_healthy
        forward = self._forward_reward_weight * x_velocity
        survive = healthy * self._healthy_reward
        reward = np.float64((forward + survive) - ctrl)
        info = {
            "x_position": x_after,
            "z_distance_from_origin": self._qpos.item(1) - self.init_qpos.item(1),
            "x_velocity": x_velocity,
            "reward_forward": forward,
            "reward_ctrl": -ctrl,
            "reward_survive": survive,
        }
        if self.render_mode == "human":
            self.render()
        terminated = not healthy and bool(self._terminate_when_unhealthy)
        return self._get_obs(), reward, terminated, False, info

    def _get_reset_info(self) -> dict[str, Any]:
        return {
            "x_position": self._qpos.item(0),
            "z_distance_from_origin": self._qpos.item(1) - self.init_qpos.item(1),
        }
