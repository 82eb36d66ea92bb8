"""Pusher-v5: push a cylinder to a goal with a seven-joint arm."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import PricedArm, norm, row_norms
from palaestra_mujoco.mujoco_env import constructor_arguments, gather_plan

__all__ = ["PusherEnv"]

# Looking down at the table over the arm's shoulder.
DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"trackbodyid": -1, "distance": 4.0}


# The arm's seven joints, shoulder to wrist (the model's names, for the meanings below).
JOINTS = (
    "r_shoulder_pan", "r_shoulder_lift", "r_upper_arm_roll", "r_elbow_flex", "r_forearm_roll",
    "r_wrist_flex", "r_wrist_roll",
)  # fmt: skip


class PusherEnv(PricedArm):
    """Push the cylinder onto the goal; episodes only end by the time limit.

    Observation (float64, 23): the seven arm joint angles and velocities, then the
    positions of the fingertip, the cylinder and the goal (3 each). Action: seven joint
    torques in ``[-2, 2]``. Reward: ``-reward_dist_weight`` times the cylinder-goal
    distance, ``-reward_near_weight`` times the fingertip-cylinder distance and
    ``-reward_control_weight * sum(action**2)``.

    Each episode puts the goal at the origin and the cylinder uniformly in
    ``[-0.3, 0] x [-0.2, 0.2]`` (relative to their model positions), at least 0.17 from it.

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        reward_near_weight, reward_dist_weight, reward_control_weight: Reward terms.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        [*(f"{joint} angle" for joint in JOINTS), *(f"{joint} angular velocity" for joint in JOINTS),
         (3, "fingertip position (x, y, z)"), (3, "object position (x, y, z)"), (3, "goal position (x, y, z)")],
        [f"{joint} torque" for joint in JOINTS],
    )  # fmt: skip

    snapshot_fields = (*PricedArm.snapshot_fields, "goal_pos", "cylinder_pos")

    # The arm, the cylinder and the goal are separate islands: solving them apart is what
    # Gymnasium 1.4.0 does, and it rounds differently from solving them together.
    skipped_stages = ()

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations
    resets_batches = True  # ... and starts their episodes in the batch's rows
    observes_derived = True  # the fingertip's, the object's and the goal's positions
    batch_outputs = ("xpos",)

    def __init__(
        self,
        xml_file: str = "pusher_v5.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        reward_near_weight: float = 0.5,
        reward_dist_weight: float = 1,
        reward_control_weight: float = 0.1,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
        self._box(23)
        xpos = self.data.xpos
        self._body_ids = [self._body_id(name) for name in ("tips_arm", "object", "goal")]
        self._tip, self._object, self._goal = (xpos[i] for i in self._body_ids)
        self.goal_pos = np.zeros(2)
        self.cylinder_pos = np.zeros(2)
        self._observed, self._observed_at = gather_plan(
            self._qpos[:7], self._qvel[:7], self._tip, self._object, self._goal
        )

    def _get_obs(self) -> np.ndarray:
        return self._observed[self._observed_at]  # type: ignore[no-any-return]

    def end_step(self, begun: float) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the push."""
        ctrl = begun
        observation = self._get_obs()
        near = -norm(self._object - self._tip) * self._reward_near_weight
        dist = -norm(self._object - self._goal) * self._reward_dist_weight
        info = {"reward_dist": dist, "reward_ctrl": ctrl, "reward_near": near}
        if self.render_mode == "human":
            self.render()
        return observation, np.float64(dist + ctrl + near), False, False, info

    def end_batch(
        self, ctrl: np.ndarray, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every simulation of a batch at once."""
        self.observe_rows(sim, slice(None), observations)
        tip, cylinder, goal = (sim.outputs["xpos"][:, i] for i in self._body_ids)
        near = -row_norms(cylinder - tip) * self._reward_near_weight
        dist = -row_norms(cylinder - goal) * self._reward_dist_weight
        info = {"reward_dist": dist, "reward_ctrl": ctrl, "reward_near": near}
        return dist + ctrl + near, np.zeros(len(dist), dtype=np.bool_), info

    def observe_rows(self, sim: Any, rows: Any, observations: np.ndarray) -> None:
        """:meth:`_get_obs` of simulations ``rows`` (indices, or ``slice(None)`` for all)."""
        observations[:, 0:7] = sim.qpos[rows, :7]
        observations[:, 7:14] = sim.qvel[rows, :7]
        observations[:, 14:23] = sim.outputs["xpos"][rows][:, self._body_ids].reshape(-1, 9)

    def start_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The goal at the origin, the cylinder at a random spot away from it (both kept)."""
        rng = self.np_random
        self.goal_pos = np.zeros(2)
        while True:
            x = rng.uniform(low=-0.3, high=0, size=1)
            y = rng.uniform(low=-0.2, high=0.2, size=1)
            self.cylinder_pos = np.concatenate((x, y))
            if norm(self.cylinder_pos - self.goal_pos) > 0.17:
                break
        qpos = self.init_qpos.copy()
        qpos[-4:-2] = self.cylinder_pos
        qpos[-2:] = self.goal_pos
        qvel = self.init_qvel + rng.uniform(low=-0.005, high=0.005, size=self.model.nv)
        qvel[-4:] = 0
        return qpos, qvel
