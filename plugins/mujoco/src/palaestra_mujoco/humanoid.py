"""Humanoid-v5 (walk forward) and HumanoidStandup-v5 (get up from lying on the floor)."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import SuiteEnv
from palaestra_mujoco._row_sums import square_sums, weighted_rows
from palaestra_mujoco.mujoco_env import constructor_arguments, gather_plan

__all__ = ["HumanoidEnv", "HumanoidStandupEnv"]

# Gymnasium's framing: looking slightly down from a free camera (trackbodyid is not followed).
WALK_CAMERA_CONFIG: dict[str, Any] = {
    "trackbodyid": 1,
    "distance": 4.0,
    "lookat": np.array((0.0, 0.0, 2.0)),
    "elevation": -20.0,
}
STANDUP_CAMERA_CONFIG: dict[str, Any] = {
    "trackbodyid": 1,
    "distance": 4.0,
    "lookat": np.array((0.0, 0.0, 0.8925)),
    "elevation": -20.0,
}


# The 17 motors, in the model's order (its actuator names, for the meanings below).
ACTUATED_JOINTS = (
    "abdomen_y", "abdomen_z", "abdomen_x", "right_hip_x", "right_hip_z", "right_hip_y", "right_knee",
    "left_hip_x", "left_hip_z", "left_hip_y", "left_knee", "right_shoulder1", "right_shoulder2",
    "right_elbow", "left_shoulder1", "left_shoulder2", "left_elbow",
)  # fmt: skip


class _HumanoidBody(SuiteEnv):
    """Observation assembly shared by both humanoid tasks.

    Observation: positions (without the torso's x-y unless kept), velocities, then as
    switched on: body inertias ``cinert`` (10 per body), body velocities ``cvel`` (6 per
    body), actuator forces on the joints ``qfrc_actuator`` (one per joint DoF) and external
    contact forces ``cfrc_ext`` (6 per body); the world body is left out of each.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        [(22, "joint positions, qpos[2:]: the torso's height, its orientation quaternion and the 17 joint angles"),
         (23, "joint velocities, qvel: the torso's linear and angular velocity and the 17 joint velocities"),
         (130, "inertia of the 13 bodies past the world, cinert[1:] (10 numbers each)"),
         (78, "velocities of those bodies, cvel[1:] (6 each: angular, then linear)"),
         (17, "actuator forces on the 17 joints, qfrc_actuator[6:]"),
         (78, "external contact forces on those bodies, cfrc_ext[1:] (6 each)")],
        [f"{joint} torque" for joint in ACTUATED_JOINTS],
    )  # fmt: skip

    uses_body_forces = True  # cfrc_ext is observed and priced
    prices_in_float64 = True  # Gymnasium 1.4.0 prices data.ctrl

    def __init__(self, settings: dict[str, Any], options: dict[str, Any]) -> None:
        super().__init__(settings, options)
        data = self.data
        skipped = 2 if self._exclude_current_positions_from_observation else 0
        parts = {
            "cinert": data.cinert[1:] if self._include_cinert_in_observation else None,
            "cvel": data.cvel[1:] if self._include_cvel_in_observation else None,
            "qfrc_actuator": data.qfrc_actuator[6:] if self._include_qfrc_actuator_in_observation else None,
            "cfrc_ext": data.cfrc_ext[1:] if self._include_cfrc_ext_in_observation else None,
        }
        sizes = {name: 0 if part is None else part.size for name, part in parts.items()}
        self._layout(skipped, **sizes, ten_length=0, ten_velocity=0)
        # Views into MjData: the observation gathers live buffers in one indexing.
        self._observed, self._observed_at = gather_plan(
            self._qpos[skipped:],
            self._qvel,
            *(part.reshape(-1) for part in parts.values() if part is not None),
        )
        self._cfrc_ext = data.cfrc_ext
        self._ten_length, self._ten_velocity = data.ten_length, data.ten_velocity

    def control_cost(self, action: Any = None) -> float:
        """``ctrl_cost_weight * sum(ctrl**2)``, in float64 as ``data.ctrl`` holds the controls.

        Args:
            action: The controls to price; ``None`` prices those last applied.
        """
        controls = self._ctrl if action is None else np.asarray(action, dtype=np.float64)
        return self.weighted_square_sum(self._ctrl_cost_weight, controls)

    def _external_force_cost(self, weight: float, bounds: tuple[float, float]) -> float:
        """``weight`` times the summed squared contact forces, clipped to ``bounds``."""
        low, high = bounds
        cost = self.weighted_square_sum(weight, self._cfrc_ext)
        return min(max(cost, low), high)

    def _external_force_costs(
        self, weight: float, bounds: tuple[float, float], forces: np.ndarray
    ) -> np.ndarray:
        """:meth:`_external_force_cost` of each row of ``forces`` (``(num_envs, nbody, 6)``)."""
        low, high = bounds
        costs: np.ndarray = np.minimum(np.maximum(weight * square_sums(forces), low), high)
        return costs

    def observe_batch(
        self, qpos: np.ndarray, qvel: np.ndarray, observations: np.ndarray, sim: Any = None
    ) -> None:
        """Each row's observation: positions, velocities, then the parts switched on (from ``sim``)."""
        super().observe_batch(qpos, qvel, observations)
        structure = self.observation_structure
        start = structure["qpos"] + structure["qvel"]
        for name, first in (("cinert", 1), ("cvel", 1), ("qfrc_actuator", 6), ("cfrc_ext", 1)):
            size = structure[name]
            if size:
                rows = sim.outputs[name][:, first:]
                observations[:, start : start + size] = rows.reshape(len(rows), -1)
                start += size

    def _tendons(self, sim: Any = None) -> dict[str, Any]:
        """The tendons' lengths and velocities: this env's, or each row's of a batch ``sim``."""
        if sim is None:
            return {"tendon_length": self._ten_length.copy(), "tendon_velocity": self._ten_velocity.copy()}
        outputs = sim.outputs
        return {
            "tendon_length": outputs["ten_length"].copy(),
            "tendon_velocity": outputs["ten_velocity"].copy(),
        }


class HumanoidEnv(_HumanoidBody):
    """Walk forward (+x) without falling (the torso must stay in ``healthy_z_range``).

    Observation (float64, 348 by default): see :class:`_HumanoidBody`. Action: 17 joint
    torques in ``[-0.4, 0.4]``. Reward: the speed of the centre of mass times
    ``forward_reward_weight`` + ``healthy_reward`` while healthy - ``ctrl_cost_weight *
    sum(ctrl**2)`` - the contact cost (``contact_cost_weight`` times the summed squared
    contact forces, clipped to ``contact_cost_range``).

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        forward_reward_weight, ctrl_cost_weight, contact_cost_weight, healthy_reward: Reward
            terms.
        contact_cost_range: Bounds of the contact cost.
        terminate_when_unhealthy: End the episode when unhealthy.
        healthy_z_range: Open interval of healthy torso heights.
        reset_noise_scale: Half-width of the uniform start-state noise.
        exclude_current_positions_from_observation: Leave the torso's x-y out.
        include_cinert_in_observation, include_cvel_in_observation,
        include_qfrc_actuator_in_observation, include_cfrc_ext_in_observation: Observation
            parts.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    def __init__(
        self,
        xml_file: str = "humanoid.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = WALK_CAMERA_CONFIG,
        forward_reward_weight: float = 1.25,
        ctrl_cost_weight: float = 0.1,
        contact_cost_weight: float = 5e-7,
        contact_cost_range: tuple[float, float] = (-np.inf, 10.0),
        healthy_reward: float = 5.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (1.0, 2.0),
        reset_noise_scale: float = 1e-2,
        exclude_current_positions_from_observation: bool = True,
        include_cinert_in_observation: bool = True,
        include_cvel_in_observation: bool = True,
        include_qfrc_actuator_in_observation: bool = True,
        include_cfrc_ext_in_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
        self._body_mass = self.model.body_mass
        self._total_mass = self._body_mass.sum()
        self._xipos = self.data.xipos

    walk_info_keys = (
        "x_velocity",
        "y_velocity",
        "reward_survive",
        "reward_forward",
        "reward_ctrl",
        "reward_contact",
    )
    scores_batches = True  # MujocoVectorEnv scores a batch of them with array operations
    ends_in_c = True  # ... and ends their steps in one C loop where it can (SuiteEnv.end_batch)
    batch_outputs = ("xipos", "cinert", "cvel", "qfrc_actuator", "cfrc_ext", "ten_length", "ten_velocity")

    def mass_center_xy(self, xipos: np.ndarray | None = None) -> np.ndarray:
        """The x-y position of the whole body's centre of mass (from ``xipos``, by default the data's)."""
        # The same einsum contraction as Gymnasium 1.4.0, so the sums round alike.
        weighted = np.einsum("b,bj->j", self._body_mass, self._xipos if xipos is None else xipos)
        center: np.ndarray = (weighted / self._total_mass)[:2]
        return center

    def mass_centers_xy(self, sim: Any) -> np.ndarray:
        """:meth:`mass_center_xy` of each row (``weighted_rows``: the same contraction a row)."""
        centers: np.ndarray = (weighted_rows(self._body_mass, sim.outputs["xipos"]) / self._total_mass)[:, :2]
        return centers

    def begin_batch(self, sim: Any, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each mass centre before and control cost."""
        return self.mass_centers_xy(sim), self.control_costs(actions)

    def compiled_end_batch(
        self, begun: tuple[np.ndarray, np.ndarray], sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] | None:
        """:meth:`plain_end_batch` in one C loop (``walk_ends``); ``None``, nothing observed, where it can't.

        The mass centres and the distances are numpy's (einsum and BLAS), handed to the loop.
        """
        outputs = sim.outputs
        n = len(sim.qpos)
        structure = self.observation_structure
        extras = tuple(
            outputs[name][:, first:].reshape(n, -1)
            for name, first in (("cinert", 1), ("cvel", 1), ("qfrc_actuator", 6), ("cfrc_ext", 1))
            if structure[name]
        )
        no_force_clip = (None, None)  # the forces are not clipped; the contact cost is
        rules = (self._forward_reward_weight, self._healthy_reward, *self._healthy_z_range,
                 self._contact_cost_weight, *self._contact_cost_range, *no_force_clip)  # fmt: skip
        walk = {
            "after": self.mass_centers_xy(sim),
            "forces": outputs["cfrc_ext"].reshape(n, -1),
            "rules": rules,
            "extras": extras,
            "open_range": True,
            "finite_state": False,
            "forces_observed": False,
            "more_position": self._tendons(sim),
        }
        return self._walk_ends(begun, sim, observations, walk)

    def plain_end_batch(
        self, begun: tuple[np.ndarray, np.ndarray], sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every sub-env of a batch at once, with numpy (mirrored by ``walk_ends``)."""
        before, ctrl = begun
        qpos = sim.qpos
        healthy = self._high_enough(qpos[:, 2])
        contact = self._external_force_costs(
            self._contact_cost_weight, self._contact_cost_range, sim.outputs["cfrc_ext"]
        )
        position = {**self._planar_positions(qpos), **self._tendons(sim)}
        after = self.mass_centers_xy(sim)
        rewards, info = self._walk_scored(before.T, after.T, ctrl, contact, healthy, sim.dt, position)
        self.observe_batch(qpos, sim.qvel, observations, sim)
        terminated = ~healthy if self._terminate_when_unhealthy else np.zeros(len(healthy), dtype=np.bool_)
        return rewards, terminated, info

    @property
    def is_healthy(self) -> bool:
        """The torso height is inside ``healthy_z_range`` (open interval)."""
        return bool(self._high_enough(self._qpos.item(2)))

    def _high_enough(self, z: Any) -> Any:
        """The torso height inside ``healthy_z_range`` (open): a number gives a bool, an array one per row."""
        low, high = self._healthy_z_range
        return (low < z) & (z < high)

    @property
    def healthy_reward(self) -> float:
        """``healthy_reward`` while healthy, else 0."""
        return self.is_healthy * self._healthy_reward

    @property
    def contact_cost(self) -> float:
        """The contact cost, clipped to ``contact_cost_range``."""
        return self._external_force_cost(self._contact_cost_weight, self._contact_cost_range)

    def begin_step(self, action: np.ndarray) -> tuple[list[float], float]:
        """Set the torques; note the mass centre before and the control cost."""
        return self.mass_center_xy().tolist(), self._priced(action)

    def end_step(
        self, begun: tuple[list[float], float]
    ) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the progress, the contacts and the posture."""
        before, ctrl = begun
        healthy = self.is_healthy
        position = {**self._planar_position(), **self._tendons()}
        reward, info = self._walk_scored(
            before, self.mass_center_xy().tolist(), ctrl, self.contact_cost, healthy, self._dt, position
        )
        if self.render_mode == "human":
            self.render()
        terminated = not healthy and bool(self._terminate_when_unhealthy)
        return self._get_obs(), np.float64(reward), terminated, False, info

    def _get_reset_info(self) -> dict[str, Any]:
        return {**self._planar_position(), **self._tendons()}


class HumanoidStandupEnv(_HumanoidBody):
    """Stand up from lying on the back; episodes only end by the time limit.

    Observation (float64, 348 by default): as :class:`HumanoidEnv`. Action: 17 joint
    torques in ``[-0.4, 0.4]``. Reward: ``uph_cost_weight`` times the torso height divided
    by the physics timestep, minus ``ctrl_cost_weight * sum(ctrl**2)``, minus the impact
    cost (``impact_cost_weight`` times the summed squared contact forces, clipped to
    ``impact_cost_range``), plus 1.

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        uph_cost_weight, ctrl_cost_weight, impact_cost_weight: Reward terms. (Gymnasium
            accepts ``uph_cost_weight`` but ignores it; here it scales the height term. At
            its default of 1 the rewards are the same.)
        impact_cost_range: Bounds of the impact cost.
        reset_noise_scale: Half-width of the uniform start-state noise.
        exclude_current_positions_from_observation, include_cinert_in_observation,
        include_cvel_in_observation, include_qfrc_actuator_in_observation,
        include_cfrc_ext_in_observation: Observation parts.
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    def __init__(
        self,
        xml_file: str = "humanoidstandup.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] = STANDUP_CAMERA_CONFIG,
        uph_cost_weight: float = 1,
        ctrl_cost_weight: float = 0.1,
        impact_cost_weight: float = 0.5e-6,
        impact_cost_range: tuple[float, float] = (-np.inf, 10.0),
        reset_noise_scale: float = 1e-2,
        exclude_current_positions_from_observation: bool = True,
        include_cinert_in_observation: bool = True,
        include_cvel_in_observation: bool = True,
        include_qfrc_actuator_in_observation: bool = True,
        include_cfrc_ext_in_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)

    scores_batches = True  # MujocoVectorEnv scores a batch of them with array operations
    batch_outputs = ("cinert", "cvel", "qfrc_actuator", "cfrc_ext", "ten_length", "ten_velocity")

    def begin_step(self, action: np.ndarray) -> float:
        """Set the torques; note the control cost."""
        return self._priced(action)

    def end_step(self, begun: float) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the torso height and the impacts."""
        ctrl = begun
        qpos = self._qpos
        impact = self._external_force_cost(self._impact_cost_weight, self._impact_cost_range)
        reward, info = self._scored(
            qpos.item(0), qpos.item(1), qpos.item(2), self._tendons(), ctrl, impact, self._timestep
        )
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), np.float64(reward), False, False, info

    def _scored(
        self, x: Any, y: Any, height: Any, tendons: dict[str, Any], ctrl: Any, impact: Any, timestep: Any
    ) -> tuple[Any, dict[str, Any]]:
        """The reward and info of a step: of one env from numbers, of a batch from arrays."""
        # Height per physics timestep, as the original task defines it.
        uph = self._uph_cost_weight * (height / timestep)
        info = {
            "x_position": x,
            "y_position": y,
            "z_distance_from_origin": height - self.init_qpos.item(2),
            **tendons,
            "reward_linup": uph,
            "reward_quadctrl": -ctrl,
            "reward_impact": -impact,
        }
        return uph - ctrl - impact + 1, info

    def begin_batch(self, sim: Any, actions: np.ndarray) -> np.ndarray:
        """Each control cost."""
        return self.control_costs(actions)

    def end_batch(
        self, ctrl: np.ndarray, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every sub-env of a batch at once."""
        qpos = sim.qpos
        impact = self._external_force_costs(
            self._impact_cost_weight, self._impact_cost_range, sim.outputs["cfrc_ext"]
        )
        rewards, info = self._scored(
            qpos[:, 0].copy(),
            qpos[:, 1].copy(),
            qpos[:, 2].copy(),
            self._tendons(sim),
            ctrl,
            impact,
            sim.timestep,
        )
        self.observe_batch(qpos, sim.qvel, observations, sim)
        return rewards, np.zeros(len(rewards), dtype=np.bool_), info

    def _get_reset_info(self) -> dict[str, Any]:
        qpos = self._qpos
        return {
            "x_position": qpos.item(0),
            "y_position": qpos.item(1),
            "z_distance_from_origin": qpos.item(2) - self.init_qpos.item(2),
            **self._tendons(),
        }
