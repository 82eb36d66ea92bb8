"""Reacher-v5: bring the tip of a two-link arm to a random target."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import PricedArm, norm, row_norms
from palaestra_mujoco.mujoco_env import constructor_arguments

__all__ = ["ReacherEnv"]

# Looking down on the arena.
DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"trackbodyid": 0}


class ReacherEnv(PricedArm):
    """Reach the target; episodes only end by the time limit.

    Observation (float64, 10): cosine and sine of both joint angles, the target's x-y,
    both joint velocities, and the x-y vector from the target to the fingertip. Action: two
    joint torques in ``[-1, 1]``. Reward: ``-reward_dist_weight`` times the
    fingertip-target distance and ``-reward_control_weight * sum(action**2)``.

    Each episode starts the arm near straight (uniform noise of 0.1 rad) and draws the
    target uniformly from the disc of radius 0.2.

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        reward_dist_weight, reward_control_weight: Reward terms.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        ["cos of the first joint's angle", "cos of the second joint's angle", "sin of the first joint's angle",
         "sin of the second joint's angle", "target x", "target y", "first joint's angular velocity",
         "second joint's angular velocity", "fingertip x - target x", "fingertip y - target y"],
        ["first joint's torque", "second joint's torque"],
    )  # fmt: skip

    snapshot_fields = (*PricedArm.snapshot_fields, "goal")

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations
    resets_batches = True  # ... and starts their episodes in the batch's rows
    observes_derived = True  # the fingertip's position
    batch_outputs = ("xpos",)

    def __init__(
        self,
        xml_file: str = "reacher.xml",
        frame_skip: int = 2,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        reward_dist_weight: float = 1,
        reward_control_weight: float = 1,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
        self._box(10)
        xpos = self.data.xpos
        self._fingertip_id, self._target_id = self._body_id("fingertip"), self._body_id("target")
        self._fingertip, self._target = xpos[self._fingertip_id], xpos[self._target_id]
        self._angles = self._qpos[:2]
        self.goal = np.zeros(2)

    def _get_obs(self) -> np.ndarray:
        angles = self._angles
        return np.concatenate(
            (
                np.cos(angles),
                np.sin(angles),
                self._qpos[2:],
                self._qvel[:2],
                (self._fingertip - self._target)[:2],
            )
        )

    def end_step(self, begun: float) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the distance."""
        ctrl = begun
        observation = self._get_obs()
        dist = -norm(self._fingertip - self._target) * self._reward_dist_weight
        if self.render_mode == "human":
            self.render()
        return observation, np.float64(dist + ctrl), False, False, {"reward_dist": dist, "reward_ctrl": ctrl}

    def end_batch(
        self, ctrl: np.ndarray, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every simulation of a batch at once."""
        self.observe_rows(sim, slice(None), observations)
        xpos = sim.outputs["xpos"]
        dist = -row_norms(xpos[:, self._fingertip_id] - xpos[:, self._target_id]) * self._reward_dist_weight
        return dist + ctrl, np.zeros(len(dist), dtype=np.bool_), {"reward_dist": dist, "reward_ctrl": ctrl}

    def observe_rows(self, sim: Any, rows: Any, observations: np.ndarray) -> None:
        """:meth:`_get_obs` of simulations ``rows`` (indices, or ``slice(None)`` for all)."""
        qpos, xpos = sim.qpos[rows], sim.outputs["xpos"][rows]
        angles = np.ascontiguousarray(qpos[:, :2])  # contiguous: the same cos/sin loop as one env's
        observations[:, 0:2] = np.cos(angles)
        observations[:, 2:4] = np.sin(angles)
        observations[:, 4:6] = qpos[:, 2:]
        observations[:, 6:8] = sim.qvel[rows, :2]
        observations[:, 8:10] = xpos[:, self._fingertip_id, :2] - xpos[:, self._target_id, :2]

    def start_state(self) -> tuple[np.ndarray, np.ndarray]:
        """Perturb the arm, then draw a target inside the disc of radius 0.2 (kept as ``goal``)."""
        rng = self.np_random
        qpos = rng.uniform(low=-0.1, high=0.1, size=self.model.nq) + self.init_qpos
        while True:
            self.goal = rng.uniform(low=-0.2, high=0.2, size=2)
            if norm(self.goal) < 0.2:
                break
        qpos[-2:] = self.goal
        qvel = self.init_qvel + rng.uniform(low=-0.005, high=0.005, size=self.model.nv)
        qvel[-2:] = 0
        return qpos, qvel
