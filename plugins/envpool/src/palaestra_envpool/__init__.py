"""EnvPool's interface on palaestra: ``import palaestra_envpool as envpool`` and go on.

Scripts written for EnvPool (CleanRL's ``*_envpool.py``, Tianshou's EnvPool paths, your own
``send``/``recv`` loops) run on every palaestra env, its plugins' and bridged Gymnasium
envs, with EnvPool's shapes, dtypes and info keys, and Gymnasium's numbers::

    import palaestra_envpool as envpool

    envs = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=8, seed=0)
    obs, info = envs.reset()
    obs, rew, terminated, truncated, info = envs.step(actions, info["env_id"])

See docs/envpool.md, "EnvPool's interface".
"""

from __future__ import annotations

from typing import Any

import palaestra
from palaestra import error
from palaestra_envpool._dm import DmEnvPool
from palaestra_envpool._dm_specs import dm_env_module
from palaestra_envpool._pool import EnvPool, build_vector_env
from palaestra_envpool._spec import PoolSpec

__all__ = [
    "DmEnvPool",
    "EnvPool",
    "PoolSpec",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
]

_ENV_TYPES = ("gymnasium", "gym", "dm")


def make(
    task_id: str,
    env_type: str = "gymnasium",
    *,
    vectorization_mode: Any = None,
    vector_kwargs: dict[str, Any] | None = None,
    gymnasium_spaces: bool | None = None,
    **kwargs: Any,
) -> EnvPool:
    """A pool of ``num_envs`` sub-envs of ``task_id``, as EnvPool's ``make``.

    Args:
        task_id: A palaestra id (plugins' and ``"gymnasium/..."`` ids too) or EnvPool's
            name for it (``"Pong-v5"`` for ``"ALE/Pong-v5"``).
        env_type: ``"gymnasium"``, ``"gym"`` (the same pool, as in EnvPool 1.2) or ``"dm"``
            (dm_env's ``TimeStep``; needs ``dm-env``).
        vectorization_mode: palaestra's (``None``: the id's own vector env, natively
            batched where it has one; ``"sync"`` or ``"async"`` step any subset of sub-envs).
        vector_kwargs: Further arguments of palaestra's vectorizer.
        gymnasium_spaces: Hand out Gymnasium's space classes, as EnvPool does (``None``:
            when ``palaestra-gymnasium`` is installed; ``False``: palaestra's).
        **kwargs: EnvPool's (``num_envs=1``, ``batch_size=0`` (all), ``num_threads=0``
            (the cores this process may use), ``seed=42``, ``max_episode_steps``,
            ``thread_affinity_offset``, ``gym_reset_return_info``) and the env's own.

    Raises:
        InvalidEnvArgumentValue: An unknown ``env_type`` or a bad pool setting.
        NameNotFound, VersionNotFound, DeprecatedEnv: An unknown task id.
    """
    if env_type not in _ENV_TYPES:
        raise error.InvalidEnvArgumentValue(f"env_type must be one of {list(_ENV_TYPES)}, got {env_type!r}")
    pool_type = DmEnvPool if env_type == "dm" else EnvPool
    if pool_type is DmEnvPool:
        dm_env_module()  # fails, naming the install, before any sub-env is made
    spec = PoolSpec(task_id, kwargs, gymnasium_spaces)
    envs = build_vector_env(spec, vectorization_mode, vector_kwargs)
    spec.set_spaces(envs.single_observation_space, envs.single_action_space)
    return pool_type(spec, envs)


def make_gymnasium(task_id: str, **kwargs: Any) -> EnvPool:
    """``make(task_id, env_type="gymnasium", **kwargs)``."""
    return make(task_id, env_type="gymnasium", **kwargs)


def make_gym(task_id: str, **kwargs: Any) -> EnvPool:
    """``make(task_id, env_type="gym", **kwargs)``: the Gymnasium pool, as in EnvPool 1.2."""
    return make(task_id, env_type="gym", **kwargs)


def make_dm(task_id: str, **kwargs: Any) -> DmEnvPool:
    """``make(task_id, env_type="dm", **kwargs)``: time steps as dm_env's ``TimeStep``."""
    return make(task_id, env_type="dm", **kwargs)  # type: ignore[return-value]


def make_spec(task_id: str, gymnasium_spaces: bool | None = None, **kwargs: Any) -> PoolSpec:
    """The spec a pool made with these arguments would have (EnvPool's ``make_spec``)."""
    return PoolSpec(task_id, kwargs, gymnasium_spaces)


def list_all_envs() -> list[str]:
    """Every id palaestra knows now (plugins' ids once their plugin is loaded)."""
    return sorted(palaestra.registry)
