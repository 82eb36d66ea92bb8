"""EnvPool's dm_env interface (``env_type="dm"``): every call returns a batched ``TimeStep``.

``step_type`` is FIRST on a reset (or the autoreset after an episode's end), LAST when the
episode ends, MID otherwise; ``discount`` is 0 when it terminated (not when truncated), and
the observation is EnvPool's ``State(env_id, players, obs)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_envpool._dm_specs import Players, dm_env_module, state_type
from palaestra_envpool._pool import EnvPool, warn_reset_seed

__all__ = ["DmEnvPool"]

_FIRST, _MID, _LAST = 0, 1, 2  # dm_env.StepType's values


class DmEnvPool(EnvPool):
    """A pool with EnvPool's dm_env interface; make it with :func:`palaestra_envpool.make_dm`."""

    def __init__(self, spec: Any, envs: Any) -> None:
        self._dm = dm_env_module()
        super().__init__(spec, envs)
        self._state = state_type(spec.palaestra_spaces()[0])

    def observation_spec(self) -> Any:
        """dm_env's specs of a time step's observation."""
        return self.spec.observation_spec()

    def action_spec(self) -> Any:
        """dm_env's spec of one sub-env's action."""
        return self.spec.action_spec()

    def reset(self, env_id: Any = None, *, seed: Any = None, options: dict[str, Any] | None = None) -> Any:
        """Reset sub-envs ``env_id`` (all by default); a ``TimeStep`` of FIRST steps."""
        warn_reset_seed(seed)
        observations, info = self._reset(env_id, options)
        ids = info["env_id"]
        size = len(ids)
        return self._dm.TimeStep(
            step_type=np.full(size, _FIRST, dtype=np.int32),
            reward=np.zeros(size, dtype=np.float32),
            discount=np.ones(size, dtype=np.float32),
            observation=self._observation(observations, ids),
        )

    def step(self, action: Any, env_id: Any = None) -> Any:
        """Step sub-envs ``env_id`` (all by default); a ``TimeStep`` of their results."""
        return self._time_step(super().step(action, env_id))

    def recv(self, timeout: float | None = None) -> Any:
        """The first ``batch_size`` sub-envs ready, as a ``TimeStep``."""
        return self._time_step(super().recv(timeout))

    def _time_step(self, result: tuple[Any, ...]) -> Any:
        observations, rewards, terminated, truncated, info = result
        step_type = np.where(
            terminated | truncated, _LAST, np.where(info["elapsed_step"] == 0, _FIRST, _MID)
        ).astype(np.int32)
        return self._dm.TimeStep(
            step_type=step_type,
            reward=rewards,
            discount=(~terminated).astype(np.float32),
            observation=self._observation(observations, info["env_id"]),
        )

    def _observation(self, observations: Any, ids: np.ndarray) -> Any:
        ids = np.asarray(ids, dtype=np.int32)
        parts = observations if isinstance(observations, dict) else {"obs": observations}
        return self._state(env_id=ids, players=Players(env_id=ids), **parts)
