"""EnvPool's task ids, keyword arguments, config and spec, on palaestra's registry.

EnvPool's ``make`` takes the pool's own arguments (``num_envs``, ``batch_size``,
``num_threads``, ``seed``, ...) and the env's, all as keywords; this module splits them,
finds the palaestra id a task id names and describes the pool as EnvPool's ``spec`` does.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

import palaestra
from palaestra import error
from palaestra.spaces import Box, Dict, Discrete, Space, Tuple

__all__ = ["POOL_DEFAULTS", "PoolSpec", "observation_converter", "resolve_task"]

#: EnvPool's own arguments and their defaults (``batch_size=0`` means ``num_envs``,
#: ``num_threads=0`` the cores this process may use, ``max_episode_steps=None`` the id's).
POOL_DEFAULTS: Mapping[str, Any] = {
    "num_envs": 1,
    "batch_size": 0,
    "num_threads": 0,
    "max_num_players": 1,
    "thread_affinity_offset": -1,
    "seed": 42,
    "gym_reset_return_info": True,
    "max_episode_steps": None,
}

# EnvPool's names for the Atari options ALE's vector env spells differently.
_ATARI_NAMES = {"frame_skip": "frameskip", "reward_clip": "reward_clipping", "gray_scale": "grayscale"}


def resolve_task(task_id: str) -> str:
    """The palaestra id of an EnvPool task id (``"Pong-v5"`` is ``"ALE/Pong-v5"``).

    Raises:
        NamespaceNotFound, NameNotFound, VersionNotFound, DeprecatedEnv: Neither palaestra
            nor its Atari plugin knows the id (palaestra's message, which names the fix).
    """
    if not isinstance(task_id, str):
        raise error.InvalidEnvId(
            f"envpool.make takes a task id string such as 'CartPole-v1', got {task_id!r}"
        )
    try:
        palaestra.spec(task_id)
    except (error.NameNotFound, error.VersionNotFound) as missing:
        # EnvPool names Atari games without ALE's namespace.
        if "/" not in task_id:
            try:
                palaestra.spec(f"ALE/{task_id}")
            except error.Error:
                raise missing from None
            return f"ALE/{task_id}"
        raise
    return task_id


def split_kwargs(task: str, kwargs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(pool arguments with defaults filled in, the env's arguments)``."""
    pool = {name: kwargs.get(name, default) for name, default in POOL_DEFAULTS.items()}
    env = {name: value for name, value in kwargs.items() if name not in POOL_DEFAULTS}
    if task.startswith("ALE/"):
        env = {_ATARI_NAMES.get(name, name): value for name, value in env.items()}
    _check_pool(pool)
    if pool["batch_size"] == 0:
        pool["batch_size"] = pool["num_envs"]
    if pool["max_episode_steps"] is None:
        pool["max_episode_steps"] = palaestra.spec(task).max_episode_steps
    return pool, env


def _check_pool(pool: dict[str, Any]) -> None:
    for name in ("num_envs", "batch_size", "num_threads", "seed"):
        value = pool[name]
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise error.InvalidEnvArgumentValue(f"envpool.make: {name} must be an int, got {value!r}")
    if pool["num_envs"] < 1:
        raise error.InvalidEnvArgumentValue(
            f"envpool.make: num_envs must be at least 1, got {pool['num_envs']}"
        )
    if not 0 <= pool["batch_size"] <= pool["num_envs"]:
        raise error.InvalidEnvArgumentValue(
            f"envpool.make: batch_size must be in [0, num_envs={pool['num_envs']}] (0 means num_envs), "
            f"got {pool['batch_size']}"
        )
    if pool["num_threads"] < 0:
        raise error.InvalidEnvArgumentValue(
            f"envpool.make: num_threads must be 0 (the cores this process may use) or more, got {pool['num_threads']}"
        )
    if pool["max_num_players"] != 1:
        raise error.InvalidEnvArgumentValue(
            f"envpool.make: max_num_players={pool['max_num_players']}: palaestra's envs have one player; leave it at 1"
        )


class PoolSpec:
    """What EnvPool's ``make_spec`` returns: the pool's config and one sub-env's spaces.

    Attributes:
        config: A named tuple of the pool's settings and the env's keyword arguments.
        palaestra_id: The palaestra id the task id names.
        reward_threshold: The id's reward threshold (``None`` if it has none).
    """

    def __init__(self, task_id: str, kwargs: Mapping[str, Any], gymnasium_spaces: bool | None = None) -> None:
        self.task_id = task_id
        self._to_gymnasium = _gymnasium_converter(gymnasium_spaces)
        self.palaestra_id = resolve_task(task_id)
        pool, self.env_kwargs = split_kwargs(self.palaestra_id, kwargs)
        self.reward_threshold = palaestra.spec(self.palaestra_id).reward_threshold
        fields = {**pool, "reward_threshold": self.reward_threshold}
        # EnvPool's config lists the pool's settings, then the env's.
        config_type = namedtuple("Config", [*fields, *self.env_kwargs])  # type: ignore[misc]
        self.config: Any = config_type(**fields, **self.env_kwargs)
        self._spaces: tuple[Space[Any], Space[Any]] | None = None

    def set_spaces(self, observation_space: Space[Any], action_space: Space[Any]) -> None:
        """Record one sub-env's spaces (a pool's vector env tells them)."""
        self._spaces = observation_space, action_space

    def _sub_env_spaces(self) -> tuple[Space[Any], Space[Any]]:
        if self._spaces is None:  # make_spec alone: one env tells them
            env = palaestra.make(self.palaestra_id, **self.env_kwargs)
            self._spaces = env.observation_space, env.action_space
            env.close()
        return self._spaces

    @property
    def sub_env_observation_space(self) -> Any:
        """One sub-env's observation space as palaestra's env has it."""
        return self._sub_env_spaces()[0]

    @property
    def observation_space(self) -> Any:
        """One sub-env's observation space, EnvPool's shapes and dtypes (Gymnasium's class where the bridge is)."""
        return self._to_gymnasium(self.palaestra_spaces()[0])

    @property
    def action_space(self) -> Any:
        """One sub-env's action space (Gymnasium's class where the bridge is)."""
        return self._to_gymnasium(self.palaestra_spaces()[1])

    def palaestra_spaces(self) -> tuple[Space[Any], Space[Any]]:
        """One sub-env's ``(observation space, action space)`` as palaestra's classes, EnvPool's shapes."""
        observation_space, action_space = self._sub_env_spaces()
        return observation_converter(observation_space)[0], action_space

    @property
    def gymnasium_observation_space(self) -> Any:
        """EnvPool's name for :attr:`observation_space`."""
        return self.observation_space

    @property
    def gymnasium_action_space(self) -> Any:
        """EnvPool's name for :attr:`action_space`."""
        return self.action_space

    def observation_spec(self) -> Any:
        """dm_env's specs of a time step's observation (needs ``dm-env``)."""
        from palaestra_envpool._dm_specs import observation_spec  # dm_env is optional

        return observation_spec(self.palaestra_spaces()[0])

    def action_spec(self) -> Any:
        """dm_env's spec of one sub-env's action (needs ``dm-env``)."""
        from palaestra_envpool._dm_specs import array_spec  # dm_env is optional

        return array_spec(self.palaestra_spaces()[1], "action")

    def __repr__(self) -> str:
        settings = ", ".join(f"{k}={v!r}" for k, v in self.config._asdict().items())
        return f"PoolSpec({self.task_id!r}, {settings})"


def _gymnasium_converter(wanted: bool | None) -> Callable[[Space[Any]], Any]:
    """How spaces are handed out: as Gymnasium's classes (EnvPool's) when the bridge is installed.

    Code written for EnvPool checks ``isinstance(envs.action_space, gymnasium.spaces.Discrete)``
    (CleanRL, Tianshou), so with ``palaestra-gymnasium`` installed the spaces are Gymnasium's;
    ``wanted=False`` keeps palaestra's, ``True`` insists on Gymnasium's.
    """
    if wanted is False:
        return _unchanged
    try:
        from palaestra_gymnasium import to_gymnasium_space  # optional: the bridge imports Gymnasium
    except ImportError as e:
        if wanted:
            raise error.DependencyNotInstalled(
                "gymnasium_spaces=True needs the Gymnasium bridge: pip install palaestra-gymnasium"
            ) from e
        return _unchanged
    return to_gymnasium_space


def observation_converter(space: Space[Any]) -> tuple[Space[Any], Callable[[Any], Any]]:
    """EnvPool's observation space for ``space`` and the function turning batches into it.

    EnvPool hands out integer observations as int32 and a tuple of integers (Blackjack's) as
    one int32 array per sub-env; everything else passes as it is.
    """
    if isinstance(space, Discrete):
        return space, _as_int32
    discretes = [s for s in space.spaces if isinstance(s, Discrete)] if isinstance(space, Tuple) else []
    if discretes and isinstance(space, Tuple) and len(discretes) == len(space.spaces):
        low = np.array([int(s.start) for s in discretes], dtype=np.int32)
        high = np.array([int(s.start) + int(s.n) - 1 for s in discretes], dtype=np.int32)
        return Box(low, high, dtype=np.int32), _stacked_int32
    if isinstance(space, Dict):
        parts = {key: observation_converter(sub) for key, sub in space.spaces.items()}
        if all(convert is _unchanged for _, convert in parts.values()):
            return space, _unchanged
        converted = Dict({key: sub for key, (sub, _) in parts.items()})
        return converted, lambda batch: {key: parts[key][1](value) for key, value in batch.items()}
    return space, _unchanged


def _as_int32(batch: Any) -> np.ndarray:
    return np.asarray(batch).astype(np.int32, copy=False)


def _stacked_int32(batch: Any) -> np.ndarray:
    return np.stack([np.asarray(part) for part in batch], axis=1).astype(np.int32, copy=False)


def _unchanged(batch: Any) -> Any:
    return batch
