"""Hopper-v5: make a one-legged planar robot hop forward without falling."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._planar import UprightWalker, side_camera
from palaestra_mujoco.mujoco_env import constructor_arguments

__all__ = ["HopperEnv"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = side_camera(2, 3.0)


class HopperEnv(UprightWalker):
    """Hop forward; the episode ends when the hopper falls (unless told not to).

    Observation (float64, 11 by default): positions except ``rootx`` (5), velocities
    clipped to ``[-10, 10]`` (6). Action: thigh, leg and foot torques in ``[-1, 1]``.
    Reward: forward speed + ``healthy_reward`` while healthy - control cost. Healthy: the
    torso height is in ``healthy_z_range``, its pitch in ``healthy_angle_range`` and every
    other state entry (positions from the pitch on, all velocities) in
    ``healthy_state_range``.

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        forward_reward_weight, ctrl_cost_weight, healthy_reward: Reward terms.
        terminate_when_unhealthy: End the episode when unhealthy.
        healthy_state_range, healthy_z_range, healthy_angle_range: Open intervals of health.
        reset_noise_scale: Half-width of the uniform start-state noise.
        exclude_current_positions_from_observation: Leave ``rootx`` out.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        ["rootz: height of the torso", "rooty: angle of the torso", "thigh angle", "leg angle", "foot angle",
         "rootx velocity", "rootz velocity", "rooty angular velocity",
         "thigh angular velocity", "leg angular velocity", "foot angular velocity"],
        ["thigh torque", "leg torque", "foot torque"],
    )  # fmt: skip

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations
    resets_batches = True  # ... and starts their episodes in the batch's rows
    ends_in_c = True  # ... and ends their steps in one C loop (SuiteEnv.end_batch)

    def __init__(
        self,
        xml_file: str = "hopper.xml",
        frame_skip: int = 4,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-3,
        healthy_reward: float = 1.0,
        terminate_when_unhealthy: bool = True,
        healthy_state_range: tuple[float, float] = (-100.0, 100.0),
        healthy_z_range: tuple[float, float] = (0.7, float("inf")),
        healthy_angle_range: tuple[float, float] = (-0.2, 0.2),
        reset_noise_scale: float = 5e-3,
        exclude_current_positions_from_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
        # Everything after the height: the pitch and joint angles, then all velocities.
        self._state_tail = np.empty(self.model.nq - 2 + self.model.nv)
        self._tail_positions = self._qpos[2:]

    @property
    def is_healthy(self) -> bool:
        """Height, pitch and the rest of the state all inside their healthy ranges."""
        if not self._upright(self._qpos.item(1), self._qpos.item(2)):
            return False
        tail = self._state_tail
        split = len(self._tail_positions)
        tail[:split] = self._tail_positions
        tail[split:] = self._qvel
        return bool(self._state_in_range(tail.min(), tail.max()))

    def healthy_batch(self, qpos: np.ndarray, qvel: np.ndarray) -> np.ndarray:
        """:attr:`is_healthy` of each simulation of a batch."""
        # Every number inside the range is the single env's "extremes inside" (a NaN fails
        # both); reduced across the columns (tail.T), where numpy's reductions along a short
        # row are slow.
        columns = np.concatenate((qpos[:, 2:], qvel), axis=1).T
        healthy: np.ndarray = self._upright(qpos[:, 1], qpos[:, 2]) & self._state_in_range(
            columns, columns
        ).all(axis=0)
        return healthy

    def healthy_state_range(self) -> tuple[Any, Any]:
        """``healthy_state_range``: what :meth:`healthy_batch` checks the rest of the state against."""
        low, high = self._healthy_state_range
        return low, high

    def _state_in_range(self, lowest: Any, highest: Any) -> Any:
        """The state's extremes inside ``healthy_state_range``; min/max propagate NaN, which fails it."""
        low, high = self._healthy_state_range
        return (low < lowest) & (highest < high)
