"""HalfCheetah-v5: make a planar two-legged robot run forward as fast as possible."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import SuiteEnv
from palaestra_mujoco._native import compiled
from palaestra_mujoco.mujoco_env import constructor_arguments

__all__ = ["SCORE_COLUMNS", "HalfCheetahEnv"]

#: The info of a step, key by key, in the order :meth:`HalfCheetahEnv._scored` writes them
#: (the C end of a batch step fills the columns in this order).
SCORE_COLUMNS = ("x_position", "x_velocity", "reward_forward", "reward_ctrl")

# Gymnasium's framing: 4 m from the middle of the model where it starts (the camera stays put).
DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"distance": 4.0}


# The six hinges, back leg first (the model's actuator names, for the meanings below).
JOINTS = ("bthigh", "bshin", "bfoot", "fthigh", "fshin", "ffoot")


class HalfCheetahEnv(SuiteEnv):
    """Run forward; there is no falling, so episodes only end by the time limit.

    Observation (float64, 17 by default): joint positions except ``rootx`` (8), then all
    joint velocities (9). Action: six joint torques in ``[-1, 1]``. Reward: forward speed
    times ``forward_reward_weight`` minus ``ctrl_cost_weight * sum(action**2)``.

    Args:
        xml_file: Model file or MJCF text.
        frame_skip: Physics steps (0.01 s each) per env step.
        default_camera_config: Free-camera placement for rendering.
        forward_reward_weight: Weight of the forward speed.
        ctrl_cost_weight: Weight of the squared action.
        reset_noise_scale: Scale of the start-state noise (uniform on positions, normal on
            velocities).
        exclude_current_positions_from_observation: Leave ``rootx`` out of the observation.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        ["rootz: height of the front tip", "rooty: angle of the torso",
         *(f"{joint} angle" for joint in JOINTS),
         "rootx velocity", "rootz velocity", "rooty angular velocity",
         *(f"{joint} angular velocity" for joint in JOINTS)],
        [f"{joint} torque" for joint in JOINTS],
    )  # fmt: skip

    velocity_noise = "normal"

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations
    resets_batches = True  # ... and starts their episodes in the batch's rows
    ends_in_c = True  # ... and ends their steps in one C loop (SuiteEnv.end_batch)

    def __init__(
        self,
        xml_file: str = "half_cheetah.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 0.1,
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
        self._layout(1 if exclude_current_positions_from_observation else 0)

    def end_step(
        self, begun: tuple[float, float]
    ) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the forward progress."""
        x_before, ctrl = begun
        reward, info = self._scored(x_before, self._qpos.item(0), ctrl, self._dt)
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), np.float64(reward), False, False, info

    def plain_end_batch(
        self, begun: tuple[np.ndarray, np.ndarray], sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every simulation of a batch at once, with numpy (:meth:`end_batch`).

        Mirrored by ``forward_ends`` in ``_compiled.c`` (:meth:`compiled_end_batch`).
        """
        x_before, ctrl = begun
        qpos, qvel = sim.qpos, sim.qvel
        rewards, info = self._scored(x_before, qpos[:, 0].copy(), ctrl, sim.dt)
        self.observe_batch(qpos, qvel, observations)
        return rewards, np.zeros(len(rewards), dtype=np.bool_), info

    def compiled_end_batch(
        self, begun: tuple[np.ndarray, np.ndarray], sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] | None:
        """:meth:`plain_end_batch` in one C loop; ``None``, nothing written, where it leaves the batch to numpy."""
        x_before, ctrl = begun
        n = len(x_before)
        rewards, columns = np.empty(n), [np.empty(n) for _ in SCORE_COLUMNS]
        buffers = (sim.qpos, sim.qvel, observations, x_before, ctrl, sim.dt, rewards, *columns)
        skipped = self.observation_structure.get("skipped_qpos", 0)
        if not compiled.forward_ends(buffers, self._forward_reward_weight, self.velocity_bound, skipped):
            return None
        return rewards, np.zeros(n, dtype=np.bool_), dict(zip(SCORE_COLUMNS, columns, strict=True))

    def _scored(self, x_before: Any, x_after: Any, ctrl: Any, dt: Any) -> tuple[Any, dict[str, Any]]:
        """The reward and info of a step: of one env from numbers, of a batch from arrays.

        The info's keys are :data:`SCORE_COLUMNS`, in that order (a test holds the two equal).
        """
        x_velocity = (x_after - x_before) / dt
        forward = self._forward_reward_weight * x_velocity
        info = {
            "x_position": x_after,
            "x_velocity": x_velocity,
            "reward_forward": forward,
            "reward_ctrl": -ctrl,
        }
        return forward - ctrl, info

    def _reset_info(self, qpos: np.ndarray) -> dict[str, Any]:
        return {"x_position": qpos.item(0)}
