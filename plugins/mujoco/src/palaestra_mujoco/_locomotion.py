"""Pieces shared by the suite's envs: constructor plumbing, start-state noise, costs."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra import spaces
from palaestra_mujoco.mujoco_env import MujocoEnv

__all__ = ["SuiteEnv", "control_cost", "norm"]


def control_cost(weight: float, action: np.ndarray) -> float:
    """``weight * sum(action**2)`` evaluated in the action's dtype, as the reference does.

    A float32 action gives a float32 cost (then widened exactly); computing it in float64
    would change the reward in the last bits.
    """
    return float(weight * np.square(action).sum())


def norm(vector: np.ndarray) -> float:
    """Euclidean length by the same dot product ``np.linalg.norm`` uses (same last bits)."""
    return math.sqrt(vector.dot(vector))


class SuiteEnv(MujocoEnv):
    """A suite env: bundled model, common keyword arguments, observation space from a size.

    Args:
        xml_file: Model file (bundled name or your path) or MJCF text.
        frame_skip: Physics steps per env step.
        default_camera_config: Free-camera placement (see :class:`SceneRenderer`).
        **kwargs: ``render_mode``, ``width``, ``height``, ``camera_id``, ``camera_name``,
            ``max_geom``, ``visual_options`` (see :class:`MujocoEnv`).
    """

    # Two collision/solver stages buy nothing for one robot on a floor: splitting the
    # constraints into islands, and the bounding-volume culling between multi-geom bodies.
    # Skipping them saves 5-10% of a physics step, and the trajectories stay bit-identical
    # (checked by the differential tests). Envs with separate free objects keep them.
    skipped_stages: tuple[str, ...] = ("mjDSBL_ISLAND", "mjDSBL_MIDPHASE")

    def __init__(
        self, xml_file: str, frame_skip: int, default_camera_config: dict[str, Any] | None, **kwargs: Any
    ) -> None:
        unknown = set(kwargs) - {
            "render_mode",
            "width",
            "height",
            "camera_id",
            "camera_name",
            "max_geom",
            "visual_options",
        }
        if unknown:
            raise TypeError(f"{type(self).__name__} got unexpected keyword arguments {sorted(unknown)}")
        MujocoEnv.__init__(
            self,
            xml_file,
            frame_skip,
            observation_space=None,
            default_camera_config=default_camera_config,
            **kwargs,
        )
        for stage in self.skipped_stages:
            self.model.opt.disableflags |= int(getattr(self._mujoco.mjtDisableBit, stage))

    def _box(self, size: int) -> None:
        self.observation_space = spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float64)

    def _noisy_start(self, scale: float, velocity: str = "uniform") -> None:
        """Initial state plus noise: uniform on positions, uniform or normal on velocities."""
        rng = self.np_random
        nq, nv = len(self.init_qpos), len(self.init_qvel)
        qpos = self.init_qpos + rng.uniform(low=-scale, high=scale, size=nq)
        if velocity == "normal":
            qvel = self.init_qvel + scale * rng.standard_normal(nv)
        else:
            qvel = self.init_qvel + rng.uniform(low=-scale, high=scale, size=nv)
        self.set_state(qpos, qvel)

    def _body_id(self, body: int | str) -> int:
        """The index of ``body`` (a name or an index), with an error listing the bodies."""
        mujoco = self._mujoco
        count = self.model.nbody
        index = (
            mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, body) if isinstance(body, str) else body
        )
        if not isinstance(index, (int, np.integer)) or not 0 <= index < count:
            bodies = [mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_BODY, i) for i in range(count)]
            raise ValueError(f"{type(self).__name__}: no body {body!r} in the model; its bodies: {bodies}")
        return int(index)
