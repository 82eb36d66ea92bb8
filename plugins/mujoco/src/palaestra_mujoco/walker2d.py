"""Walker2d-v5: make a planar biped walk forward without falling."""

from __future__ import annotations

from typing import Any

from palaestra_mujoco._planar import UprightWalker, side_camera
from palaestra_mujoco.mujoco_env import constructor_arguments

__all__ = ["Walker2dEnv"]

DEFAULT_CAMERA_CONFIG: dict[str, Any] = side_camera(2, 4.0)


# The six hinges, right leg first (the model's actuator names, for the meanings below).
JOINTS = ("thigh", "leg", "foot", "thigh_left", "leg_left", "foot_left")


class Walker2dEnv(UprightWalker):
    """Walk forward; the episode ends when the walker falls (unless told not to).

    Observation (float64, 17 by default): positions except ``rootx`` (8), velocities
    clipped to ``[-10, 10]`` (9). Action: six leg torques in ``[-1, 1]``. Reward: forward
    speed + ``healthy_reward`` while healthy - control cost. Healthy: torso height in
    ``healthy_z_range`` and pitch in ``healthy_angle_range`` (open intervals).

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        forward_reward_weight, ctrl_cost_weight, healthy_reward: Reward terms.
        terminate_when_unhealthy: End the episode when unhealthy.
        healthy_z_range, healthy_angle_range: Open intervals of health.
        reset_noise_scale: Half-width of the uniform start-state noise.
        exclude_current_positions_from_observation: Leave ``rootx`` out.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        ["rootz: height of the torso", "rooty: angle of the torso", *(f"{j} angle" for j in JOINTS),
         "rootx velocity", "rootz velocity", "rooty angular velocity",
         *(f"{j} angular velocity" for j in JOINTS)],
        [f"{joint} torque" for joint in JOINTS],
    )  # fmt: skip

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations
    resets_batches = True  # ... and starts their episodes in the batch's rows
    ends_in_c = True  # ... and ends their steps in one C loop (SuiteEnv.end_batch)

    def __init__(
        self,
        xml_file: str = "walker2d_v5.xml",
        frame_skip: int = 4,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-3,
        healthy_reward: float = 1.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (0.8, 2.0),
        healthy_angle_range: tuple[float, float] = (-1.0, 1.0),
        reset_noise_scale: float = 5e-3,
        exclude_current_positions_from_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
