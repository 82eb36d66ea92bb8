"""Ant-v5: make a four-legged robot walk forward without flipping over."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import SuiteEnv
from palaestra_mujoco._row_sums import square_sums
from palaestra_mujoco.mujoco_env import constructor_arguments

__all__ = ["AntEnv"]

# Gymnasium's framing: 4 m from the middle of the model where it starts (the camera stays put).
DEFAULT_CAMERA_CONFIG: dict[str, Any] = {"distance": 4.0}


class AntEnv(SuiteEnv):
    """Walk forward (+x); the episode ends when the torso leaves ``healthy_z_range``.

    Observation (float64, 105 by default): positions except the torso's x-y (13), all
    velocities (14), then the clipped external contact forces of every body but the world
    (13 x 6 = 78). Action: eight hip and ankle torques in ``[-1, 1]``. Reward: forward speed
    + ``healthy_reward`` while healthy - control cost - ``contact_cost_weight`` times the
    sum of the squared clipped contact forces.

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        forward_reward_weight, ctrl_cost_weight, contact_cost_weight, healthy_reward: Reward
            terms.
        main_body: The body (index or name) whose x-y motion is the forward progress.
        terminate_when_unhealthy: End the episode when unhealthy.
        healthy_z_range: Closed interval of healthy torso heights (and the state must be
            finite).
        contact_force_range: Contact forces are clipped to this range.
        reset_noise_scale: Start-state noise (uniform on positions, normal on velocities).
        exclude_current_positions_from_observation: Leave the torso's x-y out.
        include_cfrc_ext_in_observation: Append the contact forces to the observation.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        ["z of the torso (its height)", (4, "orientation of the torso, a quaternion (w, x, y, z)"),
         (8, "joint angles: hip_1, ankle_1, hip_2, ankle_2, hip_3, ankle_3, hip_4, ankle_4"),
         (3, "velocity of the torso (x, y, z)"), (3, "angular velocity of the torso (x, y, z)"),
         (8, "joint angular velocities, in the order of the angles"),
         (78, "external contact forces on the 13 bodies past the world, cfrc_ext[1:] (6 each)")],
        ["hip_4 torque", "ankle_4 torque", "hip_1 torque", "ankle_1 torque",
         "hip_2 torque", "ankle_2 torque", "hip_3 torque", "ankle_3 torque"],
    )  # fmt: skip

    uses_body_forces = True  # cfrc_ext is observed and priced
    walk_info_keys = (
        "x_velocity",
        "y_velocity",
        "reward_forward",
        "reward_ctrl",
        "reward_contact",
        "reward_survive",
    )

    scores_batches = True  # MujocoVectorEnv scores a batch of them with array operations
    ends_in_c = True  # ... and ends their steps in one C loop where it can (SuiteEnv.end_batch)
    batch_outputs = ("xpos", "cfrc_ext")

    velocity_noise = "normal"

    def __init__(
        self,
        xml_file: str = "ant.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = DEFAULT_CAMERA_CONFIG,
        forward_reward_weight: float = 1,
        ctrl_cost_weight: float = 0.5,
        contact_cost_weight: float = 5e-4,
        healthy_reward: float = 1.0,
        main_body: int | str = 1,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (0.2, 1.0),
        contact_force_range: tuple[float, float] = (-1.0, 1.0),
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        include_cfrc_ext_in_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
        forces = self.data.cfrc_ext[1:].size if include_cfrc_ext_in_observation else 0
        self._layout(2 if exclude_current_positions_from_observation else 0, cfrc_ext=forces)
        self._main_body_id = self._body_id(main_body)
        self._main_xy = self.data.xpos[self._main_body_id, :2]
        self._cfrc_ext = self.data.cfrc_ext

    @property
    def contact_forces(self) -> np.ndarray:
        """External contact forces of every body, clipped to ``contact_force_range``."""
        low, high = self._contact_force_range
        # np.clip's definition, a third of its call cost (its wrapper is slow for a 14 x 6 array).
        clipped: np.ndarray = np.minimum(np.maximum(self._cfrc_ext, low), high)
        return clipped

    @property
    def contact_cost(self) -> float:
        """``contact_cost_weight`` times the sum of the squared clipped contact forces."""
        return self._contact_cost_of(self.contact_forces)

    def _contact_cost_of(self, forces: np.ndarray) -> float:
        return self.weighted_square_sum(self._contact_cost_weight, forces)

    @property
    def is_healthy(self) -> bool:
        """The state is finite and the torso height is inside ``healthy_z_range``."""
        finite = np.isfinite(self._qpos).all() and np.isfinite(self._qvel).all()
        return bool(finite and self._high_enough(self._qpos.item(2)))

    def _high_enough(self, z: Any) -> Any:
        """The torso height inside ``healthy_z_range``: a number gives a bool, an array one per row."""
        low, high = self._healthy_z_range
        return (low <= z) & (z <= high)

    @property
    def healthy_reward(self) -> float:
        """``healthy_reward`` while healthy, else 0."""
        return self.is_healthy * self._healthy_reward

    def _observation(self, forces: np.ndarray) -> np.ndarray:
        if self._include_cfrc_ext_in_observation:
            return np.concatenate((self._positions, self._qvel, forces[1:].ravel()))
        return np.concatenate((self._positions, self._qvel))

    def _get_obs(self) -> np.ndarray:
        return self._observation(self.contact_forces)

    def begin_step(self, action: np.ndarray) -> tuple[list[float], float]:
        """Set the torques; note the torso's position before and the control cost."""
        return self._main_xy.tolist(), self._priced(action)

    def end_step(
        self, begun: tuple[list[float], float]
    ) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the progress, the contacts and the posture."""
        before, ctrl = begun
        forces = self.contact_forces
        healthy = self.is_healthy
        contact = self._contact_cost_of(forces)
        reward, info = self._walk_scored(
            before, self._main_xy.tolist(), ctrl, contact, healthy, self._dt, self._planar_position()
        )
        if self.render_mode == "human":
            self.render()
        terminated = not healthy and bool(self._terminate_when_unhealthy)
        return self._observation(forces), np.float64(reward), terminated, False, info

    def _get_reset_info(self) -> dict[str, Any]:
        return self._planar_position()

    # -- a batch at once (MujocoEnv.begin_batch), the same formulas row by row --

    def begin_batch(self, sim: Any, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each main body's x-y before and control cost."""
        return sim.outputs["xpos"][:, self._main_body_id, :2].copy(), self.control_costs(actions)

    def compiled_end_batch(
        self, begun: tuple[np.ndarray, np.ndarray], sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] | None:
        """:meth:`plain_end_batch` in one C loop (``walk_ends``); ``None``, nothing observed, where it can't."""
        no_cost_clip = (None, None)  # the contact cost is not clipped; the forces are
        rules = (self._forward_reward_weight, self._healthy_reward, *self._healthy_z_range,
                 self._contact_cost_weight, *no_cost_clip, *self._contact_force_range)  # fmt: skip
        outputs = sim.outputs
        walk = {
            "after": outputs["xpos"][:, self._main_body_id, :2],
            "forces": outputs["cfrc_ext"].reshape(len(outputs["cfrc_ext"]), -1),
            "rules": rules,
            "extras": (),
            "open_range": False,
            "finite_state": True,
            "forces_observed": bool(self._include_cfrc_ext_in_observation),
            "more_position": {},
        }
        return self._walk_ends(begun, sim, observations, walk)

    def plain_end_batch(
        self, begun: tuple[np.ndarray, np.ndarray], sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every sub-env of a batch at once, with numpy (mirrored by ``walk_ends``)."""
        before, ctrl = begun
        qpos, qvel = sim.qpos, sim.qvel
        after = sim.outputs["xpos"][:, self._main_body_id, :2]
        low, high = self._contact_force_range
        forces = np.minimum(np.maximum(sim.outputs["cfrc_ext"], low), high)
        finite = np.isfinite(qpos).all(axis=1) & np.isfinite(qvel).all(axis=1)
        healthy = finite & self._high_enough(qpos[:, 2])
        contact = self._contact_cost_weight * square_sums(forces)
        rewards, info = self._walk_scored(
            before.T, after.T, ctrl, contact, healthy, sim.dt, self._planar_positions(qpos)
        )
        self.observe_batch(qpos, qvel, observations)
        if self._include_cfrc_ext_in_observation:
            observations[:, observations.shape[1] - forces[0, 1:].size :] = forces[:, 1:].reshape(
                len(forces), -1
            )
        terminated = ~healthy if self._terminate_when_unhealthy else np.zeros(len(healthy), dtype=np.bool_)
        return rewards, terminated, info
