"""The v4 MuJoCo envs: each is its v5 env with v4's differences stated here.

What v4 (Gymnasium 1.4.0's ``*_v4`` envs) does differently, env by env:

- Constructors take only the task's weights and ranges (no ``xml_file``, ``frame_skip`` or
  camera; those are fixed) and rendering options.
- Infos carry v4's keys (``reward_run``, ``reward_fwd``, ``reward_linvel``, ...); resets
  return an empty info.
- Hopper, Walker2d, Ant and Humanoid pay ``healthy_reward`` on every step while
  ``terminate_when_unhealthy`` is on, the step that ends the episode included.
- Ant observes contact forces only with ``use_contact_forces=True`` (then all 14 bodies,
  the world's included) and only then prices them; Humanoid and HumanoidStandup observe
  ``cinert``, ``cvel``, ``qfrc_actuator`` and ``cfrc_ext`` of every body (376 numbers);
  Humanoid has no contact cost.
- InvertedPendulum pays 1.0 on every step; InvertedDoublePendulum pays the alive bonus on
  the terminating step too and observes all three constraint forces (11 numbers).
- Reacher and Pusher score the state before the physics step; Reacher observes the
  fingertip-to-target vector in 3-D (11 numbers).
- Models: Walker2d's right foot has friction 0.9 (1.9 in v5); Pusher's object is a
  near-massless cylinder with an invisible sphere (v5 made it heavier and dropped the
  sphere).

``Pusher-v4`` refuses to run in Gymnasium 1.4.0 under MuJoCo >= 3; here it runs with v4's
definition above (a deliberate difference).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.error import DependencyNotInstalled
from palaestra.plugin import parse_env_id
from palaestra_mujoco import (
    ant,
    half_cheetah,
    hopper,
    humanoid,
    inverted_double_pendulum,
    inverted_pendulum,
    pusher,
    reacher,
    swimmer,
    walker2d,
)
from palaestra_mujoco._locomotion import norm
from palaestra_mujoco._v4_build import (
    PUSHER_V4_MODEL_EDITS,
    WALKER2D_V4_MODEL_EDITS,
    _arguments,
    _build_on_v5,
    _model_variant,
    _v4_survival,
)
from palaestra_mujoco.mujoco_env import gather_plan

__all__ = [
    "AntEnv",
    "HalfCheetahEnv",
    "HopperEnv",
    "HumanoidEnv",
    "HumanoidStandupEnv",
    "InvertedDoublePendulumEnv",
    "InvertedPendulumEnv",
    "PusherEnv",
    "ReacherEnv",
    "SwimmerEnv",
    "Walker2dEnv",
    "retired",
]


class _V4Info:
    """v5's step with its info under v4's keys (and v4's reward, where it differs); resets give an empty info."""

    #: ``(v4 key, v5 key its value comes from)``, in v4's order.
    info_keys: tuple[tuple[str, str], ...] = ()

    def end_step(self, begun: Any) -> tuple[np.ndarray, Any, bool, bool, dict[str, Any]]:
        """v5's step result, its info under v4's keys."""
        observation, reward, terminated, truncated, info = super().end_step(begun)  # type: ignore[misc]
        v4_info = {new: info[old] for new, old in self.info_keys}
        return observation, self._v4_reward(reward, info), terminated, truncated, v4_info

    def end_batch(
        self, begun: Any, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """v5's batch result, its info columns under v4's keys (each its own array)."""
        rewards, terminated, info = super().end_batch(begun, sim, observations)  # type: ignore[misc]
        v4_rewards = np.broadcast_to(self._v4_reward(rewards, info), rewards.shape).astype(np.float64)
        return v4_rewards, terminated, {new: info[old].copy() for new, old in self.info_keys}

    def _v4_reward(self, reward: Any, info: dict[str, Any]) -> Any:
        """v4's reward from v5's and v5's info (the same unless an env says otherwise); numbers or arrays."""
        return reward

    def _get_reset_info(self) -> dict[str, Any]:
        return {}


class HalfCheetahEnv(_V4Info, half_cheetah.HalfCheetahEnv):
    """HalfCheetah-v4: v5's run, with v4's info keys."""

    ends_in_c = True  # v5's rules, renamed after the C loop (SuiteEnv.end_batch)

    info_keys = (
        ("x_position", "x_position"),
        ("x_velocity", "x_velocity"),
        ("reward_run", "reward_forward"),
        ("reward_ctrl", "reward_ctrl"),
    )

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations

    def __init__(
        self,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 0.1,
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        _build_on_v5(
            self,
            half_cheetah.HalfCheetahEnv,
            _arguments(locals()),
            kwargs,
        )


# Hopper and Walker2d v4: an info of position and velocity, and v4's healthy reward.
_UPRIGHT_INFO_KEYS = (("x_position", "x_position"), ("x_velocity", "x_velocity"))


def _upright_v4_reward(env: Any, reward: Any, info: dict[str, Any]) -> Any:
    """Hopper's and Walker2d's v4 reward: the healthy reward paid on every step while ending on unhealthy is on."""
    if not env._terminate_when_unhealthy:  # then both pay healthy_reward only while healthy
        return reward
    return np.float64((info["reward_forward"] + _v4_survival(env, True)) + info["reward_ctrl"])


class HopperEnv(_V4Info, hopper.HopperEnv):
    """Hopper-v4: v5's hop with v4's healthy reward and info."""

    info_keys = _UPRIGHT_INFO_KEYS
    ends_in_c = True  # v5's rules, renamed after the C loop (SuiteEnv.end_batch)

    def _v4_reward(self, reward: Any, info: dict[str, Any]) -> Any:
        return _upright_v4_reward(self, reward, info)

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations

    def __init__(
        self,
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
        _build_on_v5(
            self,
            hopper.HopperEnv,
            _arguments(locals()),
            kwargs,
        )


class Walker2dEnv(_V4Info, walker2d.Walker2dEnv):
    """Walker2d-v4: v5's walk on v4's model (right foot friction 0.9), v4's healthy reward and info."""

    info_keys = _UPRIGHT_INFO_KEYS
    ends_in_c = True  # v5's rules, renamed after the C loop (SuiteEnv.end_batch)

    def _v4_reward(self, reward: Any, info: dict[str, Any]) -> Any:
        return _upright_v4_reward(self, reward, info)

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations

    def __init__(
        self,
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
        _build_on_v5(
            self,
            walker2d.Walker2dEnv,
            _arguments(locals()),
            kwargs,
            xml_file=_model_variant("walker2d_v5.xml", *WALKER2D_V4_MODEL_EDITS),
        )


class SwimmerEnv(_V4Info, swimmer.SwimmerEnv):
    """Swimmer-v4: v5's swim with v4's info keys."""

    info_keys = (
        ("reward_fwd", "reward_forward"),
        ("reward_ctrl", "reward_ctrl"),
        ("x_position", "x_position"),
        ("y_position", "y_position"),
        ("distance_from_origin", "distance_from_origin"),
        ("x_velocity", "x_velocity"),
        ("y_velocity", "y_velocity"),
        ("forward_reward", "reward_forward"),
    )

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations

    def __init__(
        self,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-4,
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        _build_on_v5(
            self,
            swimmer.SwimmerEnv,
            _arguments(locals()),
            kwargs,
        )


class AntEnv(ant.AntEnv):
    """Ant-v4: contact forces observed and priced only with ``use_contact_forces``."""

    def __init__(
        self,
        xml_file: str = "ant.xml",
        ctrl_cost_weight: float = 0.5,
        use_contact_forces: bool = False,
        contact_cost_weight: float = 5e-4,
        healthy_reward: float = 1.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (0.2, 1.0),
        contact_force_range: tuple[float, float] = (-1.0, 1.0),
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        _build_on_v5(
            self,
            ant.AntEnv,
            _arguments(locals()),
            kwargs,
            ("use_contact_forces",),
            main_body="torso",
            include_cfrc_ext_in_observation=False,
        )
        self._use_contact_forces = use_contact_forces
        self.uses_body_forces = use_contact_forces  # cfrc_ext is read only then
        if use_contact_forces:
            self._box(self.observation_space.shape[0] + self.data.cfrc_ext.size)  # type: ignore[index]
            self.observation_structure["cfrc_ext"] = self.data.cfrc_ext.size

    def _observation(self, forces: np.ndarray | None) -> np.ndarray:
        if forces is None:
            return np.concatenate((self._positions, self._qvel))
        return np.concatenate((self._positions, self._qvel, forces.ravel()))

    def _get_obs(self) -> np.ndarray:
        return self._observation(self.contact_forces if self._use_contact_forces else None)

    def end_step(
        self, begun: tuple[list[float], float]
    ) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """v4's rewards: the contact cost only with contact forces, v4's healthy reward."""
        (x_before, y_before), ctrl = begun
        x_after, y_after = self._main_xy.tolist()
        dt = self._dt
        x_velocity, y_velocity = (x_after - x_before) / dt, (y_after - y_before) / dt
        survive = _v4_survival(self, self.is_healthy)
        terminated = self._terminate_when_unhealthy and not self.is_healthy
        info = {
            "reward_forward": x_velocity,
            "reward_ctrl": -ctrl,
            "reward_survive": survive,
            "x_position": x_after,
            "y_position": y_after,
            "distance_from_origin": norm(self._main_xy.copy()),
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "forward_reward": x_velocity,
        }
        costs, forces = ctrl, None
        if self._use_contact_forces:
            forces = self.contact_forces
            contact = self._contact_cost_of(forces)
            costs = ctrl + contact
            info["reward_ctrl"] = -contact  # sic: v4 reports the contact cost under this key
        observation = self._observation(forces)
        if self.render_mode == "human":
            self.render()
        return observation, np.float64((x_velocity + survive) - costs), bool(terminated), False, info

    def _get_reset_info(self) -> dict[str, Any]:
        return {}


class _HumanoidObservationV4:
    """The humanoids' v4 observation: every body's ``cinert``, ``cvel``, ``cfrc_ext`` and all of ``qfrc_actuator``."""

    data: Any
    _qpos: np.ndarray
    _qvel: np.ndarray

    def _observe_every_body(self, skipped: int) -> None:
        data = self.data
        parts = (data.cinert, data.cvel, data.qfrc_actuator, data.cfrc_ext)
        self._observed, self._observed_at = gather_plan(
            self._qpos[skipped:], self._qvel, *(part.reshape(-1) for part in parts)
        )
        sizes = {"skipped_qpos": skipped, "qpos": self._qpos.size - skipped, "qvel": self._qvel.size}
        sizes.update(
            {
                name: part.size
                for name, part in zip(("cinert", "cvel", "qfrc_actuator", "cfrc_ext"), parts, strict=True)
            }
        )
        self.observation_structure = sizes
        self._box(sum(sizes.values()) - skipped)  # type: ignore[attr-defined]

    def _get_obs(self) -> np.ndarray:
        return self._observed[self._observed_at]  # type: ignore[no-any-return]


class HumanoidEnv(_HumanoidObservationV4, humanoid.HumanoidEnv):
    """Humanoid-v4: no contact cost, v4's healthy reward, the 376-number observation."""

    def __init__(
        self,
        forward_reward_weight: float = 1.25,
        ctrl_cost_weight: float = 0.1,
        healthy_reward: float = 5.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (1.0, 2.0),
        reset_noise_scale: float = 1e-2,
        exclude_current_positions_from_observation: bool = True,
        **kwargs: Any,
    ) -> None:
        _build_on_v5(
            self,
            humanoid.HumanoidEnv,
            _arguments(locals()),
            kwargs,
            contact_cost_weight=0.0,
        )
        self._observe_every_body(2 if exclude_current_positions_from_observation else 0)

    def end_step(
        self, begun: tuple[list[float], float]
    ) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """v4's rewards and info (positions of the centre of mass, not of the torso)."""
        (x_before, y_before), ctrl = begun
        center = self.mass_center_xy().copy()
        x_after, y_after = center.tolist()
        dt = self._dt
        x_velocity, y_velocity = (x_after - x_before) / dt, (y_after - y_before) / dt
        healthy = self.is_healthy
        forward = self._forward_reward_weight * x_velocity
        survive = _v4_survival(self, healthy)
        info = {
            "reward_linvel": forward,
            "reward_quadctrl": -ctrl,
            "reward_alive": survive,
            "x_position": x_after,
            "y_position": y_after,
            "distance_from_origin": norm(center),
            "x_velocity": x_velocity,
            "y_velocity": y_velocity,
            "forward_reward": forward,
        }
        if self.render_mode == "human":
            self.render()
        terminated = not healthy and bool(self._terminate_when_unhealthy)
        return self._get_obs(), np.float64((forward + survive) - ctrl), terminated, False, info

    def _get_reset_info(self) -> dict[str, Any]:
        return {}


class HumanoidStandupEnv(_V4Info, _HumanoidObservationV4, humanoid.HumanoidStandupEnv):
    """HumanoidStandup-v4: v5's task with its fixed weights, v4's observation and info."""

    info_keys = (
        ("reward_linup", "reward_linup"),
        ("reward_quadctrl", "reward_quadctrl"),
        ("reward_impact", "reward_impact"),
    )

    def __init__(self, **kwargs: Any) -> None:
        _build_on_v5(self, humanoid.HumanoidStandupEnv, {}, kwargs)
        self._observe_every_body(2)


class InvertedPendulumEnv(_V4Info, inverted_pendulum.InvertedPendulumEnv):
    """InvertedPendulum-v4: v5's termination, 1.0 on every step (the last too), an empty info."""

    ends_in_c = True  # v5's rules, renamed after the C loop (SuiteEnv.end_batch)

    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations

    def __init__(self, **kwargs: Any) -> None:
        _build_on_v5(self, inverted_pendulum.InvertedPendulumEnv, {}, kwargs)

    def _v4_reward(self, reward: Any, info: dict[str, Any]) -> float:
        return 1.0


# v4 frames the pendulum from 4.1225 m, looking at 0.1225 m up (v5 shows the whole model).
INVERTED_DOUBLE_PENDULUM_V4_CAMERA: dict[str, Any] = {
    "trackbodyid": 0,
    "distance": 4.1225,
    "lookat": np.array((0.0, 0.0, 0.12250000000000005)),
}


class InvertedDoublePendulumEnv(inverted_double_pendulum.InvertedDoublePendulumEnv):
    """InvertedDoublePendulum-v4: the alive bonus every step, all three constraint forces observed."""

    def __init__(self, **kwargs: Any) -> None:
        _build_on_v5(
            self,
            inverted_double_pendulum.InvertedDoublePendulumEnv,
            {},
            kwargs,
            default_camera_config=INVERTED_DOUBLE_PENDULUM_V4_CAMERA,
        )
        self._box(11)

    def _get_obs(self) -> np.ndarray:
        qpos = self._qpos
        return np.concatenate(
            (
                qpos[:1],
                np.sin(qpos[1:]),
                np.cos(qpos[1:]),
                np.clip(self._qvel, -10, 10),
                np.clip(self._constraint, -10, 10),
            )
        ).ravel()

    def end_step(self, begun: None) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """v4's reward: 10 minus the penalties, the terminating step included."""
        x, _, y = self._tip.tolist()
        observation = self._get_obs()
        w1, w2 = self._pole_rates.tolist()
        distance_penalty = 0.01 * x**2 + (y - 2) ** 2
        velocity_penalty = 1e-3 * w1**2 + 5e-3 * w2**2
        if self.render_mode == "human":
            self.render()
        return observation, np.float64(10 - distance_penalty - velocity_penalty), y <= 1, False, {}

    def _get_reset_info(self) -> dict[str, Any]:
        return {}


class _ScoredBeforeStep:
    """Reacher and Pusher v4: the reward is the state's before the physics step."""

    _ctrl: np.ndarray
    render_mode: str | None

    def _score_before(self, ctrl: Any) -> tuple[Any, Any]:
        """``(reward_dist, reward)`` of the current state, ``ctrl`` being the control reward."""
        raise NotImplementedError

    def begin_step(self, action: np.ndarray) -> tuple[Any, Any, Any]:
        """Score the state and the action (``-sum(action**2)`` in its dtype), then set the torques."""
        action = self._checked_action(action)  # type: ignore[attr-defined]
        ctrl = -np.square(action).sum()
        self._require_finite(action, float(ctrl))  # type: ignore[attr-defined]
        dist, reward = self._score_before(ctrl)
        self._ctrl[:] = action
        return dist, ctrl, reward

    def end_step(self, begun: tuple[Any, Any, Any]) -> tuple[np.ndarray, Any, bool, bool, dict[str, Any]]:
        """The score from before the step; the observation after it."""
        dist, ctrl, reward = begun
        if self.render_mode == "human":
            self.render()  # type: ignore[attr-defined]
        return self._get_obs(), reward, False, False, {"reward_dist": dist, "reward_ctrl": ctrl}  # type: ignore[attr-defined]


class ReacherEnv(_ScoredBeforeStep, reacher.ReacherEnv):  # type: ignore[misc]  # v4 carries more from begin to end
    """Reacher-v4: scored before the physics step; the fingertip-to-target vector in 3-D."""

    def __init__(self, **kwargs: Any) -> None:
        _build_on_v5(self, reacher.ReacherEnv, {}, kwargs)
        self._box(11)

    def _get_obs(self) -> np.ndarray:
        angles = self._angles
        return np.concatenate(
            (np.cos(angles), np.sin(angles), self._qpos[2:], self._qvel[:2], self._fingertip - self._target)
        )

    def _score_before(self, ctrl: Any) -> tuple[Any, Any]:
        # numpy scalars, as in v4: a Python float plus a float32 would round to float32.
        dist = np.float64(-norm(self._fingertip - self._target))
        return dist, dist + ctrl


class PusherEnv(_ScoredBeforeStep, pusher.PusherEnv):  # type: ignore[misc]  # v4 carries more from begin to end
    """Pusher-v4: v4's model (a near-massless object), scored before the physics step."""

    def __init__(self, **kwargs: Any) -> None:
        _build_on_v5(
            self,
            pusher.PusherEnv,
            {},
            kwargs,
            xml_file=_model_variant("pusher_v5.xml", *PUSHER_V4_MODEL_EDITS),
        )

    def _score_before(self, ctrl: Any) -> tuple[Any, Any]:
        near = np.float64(-norm(self._object - self._tip))
        dist = np.float64(-norm(self._object - self._goal))
        return dist, dist + 0.1 * ctrl + 0.5 * near


# The ids Gymnasium retired with the mujoco-py bindings, and what replaces them.
RETIRED = {
    "Reacher-v2": "Reacher",
    "Pusher-v2": "Pusher",
    "InvertedPendulum-v2": "InvertedPendulum",
    "InvertedDoublePendulum-v2": "InvertedDoublePendulum",
    "HalfCheetah-v2": "HalfCheetah",
    "HalfCheetah-v3": "HalfCheetah",
    "Hopper-v2": "Hopper",
    "Hopper-v3": "Hopper",
    "Swimmer-v2": "Swimmer",
    "Swimmer-v3": "Swimmer",
    "Walker2d-v2": "Walker2d",
    "Walker2d-v3": "Walker2d",
    "Ant-v2": "Ant",
    "Ant-v3": "Ant",
    "Humanoid-v2": "Humanoid",
    "Humanoid-v3": "Humanoid",
    "HumanoidStandup-v2": "HumanoidStandup",
}


def retired(retired_id: str = "", **kwargs: Any) -> Any:
    """The entry point of the v2/v3 ids: explain that they need mujoco-py and name the successors."""
    name = RETIRED.get(retired_id) or parse_env_id(retired_id)[1]
    raise DependencyNotInstalled(
        f"{retired_id} ran on the retired mujoco-py bindings (MuJoCo 1.5/2.0), which neither Gymnasium nor "
        f"palaestra supports; they live on in the gymnasium-robotics project. Use {name}-v5 (or {name}-v4, "
        "the version most published results used) with the maintained mujoco bindings instead."
    )
