"""dm_env's specs of an EnvPool pool's values (``dm-env`` is optional: imported when asked for)."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from palaestra import error
from palaestra.spaces import Box, Dict, Discrete, Space

__all__ = ["Players", "array_spec", "dm_env_module", "observation_spec", "state_type"]

Players = namedtuple("players", ["env_id"])  # type: ignore[name-match]  # EnvPool's name


def dm_env_module() -> Any:
    try:
        import dm_env  # optional: only env_type="dm" needs it
    except ImportError as e:
        raise error.DependencyNotInstalled(
            'env_type="dm" returns dm_env\'s TimeStep; install it with pip install "palaestra-envpool[dm]" '
            "(or pip install dm-env)"
        ) from e
    return dm_env


def state_type(observation_space: Space[Any]) -> Any:
    keys = list(observation_space.spaces) if isinstance(observation_space, Dict) else ["obs"]
    return namedtuple("State", ["env_id", "players", *keys])


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
    return state_type(observation_space)(env_id=env_id, players=Players(env_id=env_id), **parts)
