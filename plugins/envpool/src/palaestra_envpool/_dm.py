"""EnvPool's dm_env interface (``env_type="dm"``): every call returns a batched ``TimeStep``.

``step_type`` is FIRST on a reset (or the autoreset after an episode's end), LAST when the
episode ends, MID otherwise; ``discount`` is 0 when it terminated (not when truncated), and
the observation is EnvPool's ``State(env_id, players, obs)``.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from palaestra import error
from palaestra.spaces import Box, Dict, Discrete, Space
from palaestra_envpool._pool import EnvPool, warn_reset_seed

__all__ = ["DmEnvPool", "array_spec", "dm_env_module", "observation_spec"]

_FIRST, _MID, _LAST = 0, 1, 2  # dm_env.StepType's values
_Players = namedtuple("players", ["env_id"])  # type: ignore[name-match]  # EnvPool's name


def dm_env_module() -> Any:
    try:
        import dm_env  # optional: only env_type="dm" needs it
    except ImportError as e:
        raise error.DependencyNotInstalled(
            'env_type="dm" returns dm_env\'s TimeStep; install it with pip install "palaestra-envpool[dm]" '
            "(or pip install dm-env)"
        ) from e
    return dm_env


def _state_type(observation_space: Space[Any]) -> Any:
    keys = list(observation_space.spaces) if isinstance(observation_space, Dict) else ["obs"]
    return namedtuple("State", ["env_id", "players", *keys])


class DmEnvPool(EnvPool):
    """A pool with EnvPool's dm_env interface; make it with :func:`palaestra_envpool.make_dm`."""

    def __init__(self, spec: Any, envs: Any) -> None:
        self._dm = dm_env_module()
        super().__init__(spec, envs)
        self._state = _state_type(spec.palaestra_spaces()[0])

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
        return self._state(env_id=ids, players=_Players(env_id=ids), **parts)


def array_spec(space: Space[Any], name: str) -> Any:
    """dm_env's spec of one value of ``space``."""
    specs = dm_env_module().specs
    if isinstance(space, Discrete):
        return specs.DiscreteArray(num_values=int(space.n), dtype=np.int32, name=name)
    if isinstance(space, Box):
        return specs.BoundedArray(space.shape, space.dtype, space.low, space.high, name=name)
    return specs.Array(space.shape or (), getattr(space, "dtype", None) or np.float64, name=name)


def observation_spec(observation_space: Space[Any]) -> Any:
    """EnvPool's ``State`` of specs: ``env_id``, ``players`` and the observation."""
    specs = dm_env_module().specs
    info = np.iinfo(np.int32)
    env_id = specs.BoundedArray((), np.int32, info.min, info.max, name="env_id")
    if isinstance(observation_space, Dict):
        parts = {key: array_spec(sub, key) for key, sub in observation_space.spaces.items()}
    else:
        parts = {"obs": array_spec(observation_space, "obs")}
    return _state_type(observation_space)(env_id=env_id, players=_Players(env_id=env_id), **parts)
