"""The common body of Hopper and Walker2d: planar robots that must stay upright."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import SuiteEnv
from palaestra_mujoco._native import compiled

__all__ = ["SCORE_COLUMNS", "UprightWalker", "side_camera"]

#: The info of a step, key by key, in the order :meth:`UprightWalker._scored` writes them
#: (the C end of a batch step fills the columns in this order).
SCORE_COLUMNS = (
    "x_position",
    "z_distance_from_origin",
    "x_velocity",
    "reward_forward",
    "reward_ctrl",
    "reward_survive",
)


def side_camera(body: int, distance: float) -> dict[str, Any]:
    """``distance`` metres from hip height, looking slightly down (Gymnasium's framing).

    ``trackbodyid`` names ``body`` but the camera stays free, as in Gymnasium: the picture
    does not follow the robot unless ``"type"`` asks for tracking.
    """
    return {
        "trackbodyid": body,
        "distance": distance,
        "lookat": np.array((0.0, 0.0, 1.15)),
        "elevation": -20.0,
    }


class UprightWalker(SuiteEnv):
    """Move forward in the x-z plane while the torso stays high enough and level enough.

    Healthy: the torso height and pitch inside their open ranges (subclasses may add
    conditions). Observation: positions except ``rootx`` (unless kept), then velocities
    clipped to ``[-10, 10]``. Reward: forward speed, plus ``healthy_reward`` while healthy,
    minus the control cost.
    """

    velocity_bound = 10.0

    def __init__(self, settings: dict[str, Any], options: dict[str, Any]) -> None:
        super().__init__(settings, options)
        self._layout(1 if self._exclude_current_positions_from_observation else 0)

    @property
    def is_healthy(self) -> bool:
        """Whether the robot is still up (height, pitch and, for some, the whole state)."""
        return bool(self._upright(self._qpos.item(1), self._qpos.item(2)))

    def healthy_batch(self, qpos: np.ndarray, qvel: np.ndarray) -> np.ndarray:
        """:attr:`is_healthy` of each simulation of a batch."""
        healthy: np.ndarray = self._upright(qpos[:, 1], qpos[:, 2])
        return healthy

    def _upright(self, z: Any, angle: Any) -> Any:
        """Height and pitch inside their open ranges: numbers give a bool, arrays one per row."""
        low_z, high_z = self._healthy_z_range
        low_angle, high_angle = self._healthy_angle_range
        return (low_z < z) & (z < high_z) & (low_angle < angle) & (angle < high_angle)

    @property
    def healthy_reward(self) -> float:
        """``healthy_reward`` while healthy, else 0."""
        return self.is_healthy * self._healthy_reward

    def _get_obs(self) -> np.ndarray:
        observation: np.ndarray = self._observed[self._observed_at]
        # Velocities clipped in place: np.clip's result at a fraction of its cost.
        velocities = observation[len(self._positions) :]
        np.maximum(velocities, -self.velocity_bound, out=velocities)
        np.minimum(velocities, self.velocity_bound, out=velocities)
        return observation

    def end_step(
        self, begun: tuple[float, float]
    ) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the progress and the posture."""
        x_before, ctrl = begun
        healthy = self.is_healthy
        reward, info = self._scored(x_before, self._qpos.item(0), self._qpos.item(1), ctrl, healthy, self._dt)
        if self.render_mode == "human":
            self.render()
        terminated = not healthy and bool(self._terminate_when_unhealthy)
        return self._get_obs(), np.float64(reward), terminated, False, info

    def plain_end_batch(
        self, begun: tuple[np.ndarray, np.ndarray], sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_batch` with numpy: :meth:`healthy_batch`, :meth:`_scored` and :meth:`observe_batch`.

        Mirrored by ``upright_ends`` in ``_compiled.c`` (:meth:`compiled_end_batch`).
        """
        x_before, ctrl = begun
        qpos, qvel = sim.qpos, sim.qvel
        healthy = self.healthy_batch(qpos, qvel)
        rewards, info = self._scored(x_before, qpos[:, 0].copy(), qpos[:, 1].copy(), ctrl, healthy, sim.dt)
        self.observe_batch(qpos, qvel, observations)
        terminated = ~healthy if self._terminate_when_unhealthy else np.zeros(len(healthy), dtype=np.bool_)
        return rewards, terminated, info

    def compiled_end_batch(
        self, begun: tuple[np.ndarray, np.ndarray], sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] | None:
        """:meth:`plain_end_batch` in one C loop; ``None``, nothing written, where it leaves the batch to numpy.

        The loop reads the rules as numbers: one that numpy would read otherwise (an int
        healthy reward, a numpy scalar bound) leaves the batch to numpy.
        """
        x_before, ctrl = begun
        n = len(x_before)
        rewards, terminated = np.empty(n), np.empty(n, dtype=np.bool_)
        columns = [np.empty(n) for _ in SCORE_COLUMNS]
        low_z, high_z = self._healthy_z_range
        low_angle, high_angle = self._healthy_angle_range
        state_range = self.healthy_state_range()
        low_state, high_state = (None, None) if state_range is None else state_range
        rules = (self._forward_reward_weight, self._healthy_reward, low_z, high_z, low_angle, high_angle,
                 low_state, high_state, self.init_qpos.item(1), self.velocity_bound)  # fmt: skip
        buffers = (sim.qpos, sim.qvel, observations, x_before, ctrl, sim.dt, rewards, terminated, *columns)
        skipped = self.observation_structure.get("skipped_qpos", 0)
        if not compiled.upright_ends(buffers, rules, skipped, self._terminate_when_unhealthy):
            return None
        return rewards, terminated, dict(zip(SCORE_COLUMNS, columns, strict=True))

    def healthy_state_range(self) -> tuple[Any, Any] | None:
        """The open range the state after the height must stay in to be healthy (Hopper's), or ``None``.

        The C end of a batch step checks it in place of the numpy :meth:`healthy_batch`.
        """
        return None

    def _scored(
        self, x_before: Any, x_after: Any, z_after: Any, ctrl: Any, healthy: Any, dt: Any
    ) -> tuple[Any, dict[str, Any]]:
        """The reward and info of a step: of one env from numbers, of a batch from arrays.

        The info's keys are :data:`SCORE_COLUMNS`, in that order (a test holds the two equal).
        """
        x_velocity = (x_after - x_before) / dt
        forward = self._forward_reward_weight * x_velocity
        survive = healthy * self._healthy_reward
        info = {
            "x_position": x_after,
            "z_distance_from_origin": z_after - self.init_qpos.item(1),
            "x_velocity": x_velocity,
            "reward_forward": forward,
            "reward_ctrl": -ctrl,
            "reward_survive": survive,
        }
        return (forward + survive) - ctrl, info

    def _reset_info(self, qpos: np.ndarray) -> dict[str, Any]:
        return {
            "x_position": qpos.item(0),
            "z_distance_from_origin": qpos.item(1) - self.init_qpos.item(1),
        }
