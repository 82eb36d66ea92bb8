"""``check_env``: a thorough API-conformance check for environment authors."""

from __future__ import annotations

import inspect
from copy import deepcopy
from typing import Any

import numpy as np

from palaestra import logger
from palaestra._core import Env
from palaestra.error import Error
from palaestra.utils.passive_env_checker import (
    check_action_space,
    check_observation_space,
    data_shares_objects,
    env_render_passive_checker,
    env_reset_passive_checker,
    env_step_passive_checker,
)

__all__ = ["check_env", "data_equivalence"]


def data_equivalence(data_1: Any, data_2: Any, exact: bool = False) -> bool:
    """Whether two observations/infos are equal (same types, dtypes and values).

    Args:
        data_1: First value.
        data_2: Second value.
        exact: Compare floats exactly instead of with ``np.allclose``.
    """
    if type(data_1) is not type(data_2):
        return False
    if isinstance(data_1, dict):
        return data_1.keys() == data_2.keys() and all(
            data_equivalence(data_1[k], data_2[k], exact) for k in data_1
        )
    if isinstance(data_1, (tuple, list)):
        return len(data_1) == len(data_2) and all(
            data_equivalence(a, b, exact) for a, b in zip(data_1, data_2, strict=True)
        )
    if isinstance(data_1, np.ndarray):
        if data_1.shape != data_2.shape or data_1.dtype != data_2.dtype:
            return False
        if data_1.dtype == object:
            return all(data_equivalence(a, b, exact) for a, b in zip(data_1.flat, data_2.flat, strict=True))
        if exact or data_1.dtype.kind not in "fc":
            return bool(np.array_equal(data_1, data_2, equal_nan=data_1.dtype.kind in "fc"))
        return bool(np.allclose(data_1, data_2, rtol=0, atol=0, equal_nan=True))
    return bool(data_1 == data_2)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise Error(message)


def _check_reset(env: Env[Any, Any]) -> None:
    obs, info = env_reset_passive_checker(env)
    _require(
        obs in env.observation_space,
        f"The observation returned by `env.reset()` is not within the observation space "
        f"{env.observation_space}: {obs!r:.200}",
    )
    _require(isinstance(info, dict), f"`env.reset()` info must be a dict, actual type: {type(info)}")
    params = inspect.signature(env.unwrapped.reset).parameters
    _require("seed" in params or "kwargs" in params, "`Env.reset` must accept a `seed` keyword argument.")
    _require(
        "options" in params or "kwargs" in params,
        "`Env.reset` must accept an `options` keyword argument.",
    )
    obs_1, _ = env.reset(seed=123)
    _require(
        obs_1 in env.observation_space,
        "The observation of `env.reset(seed=123)` is not in the observation space.",
    )
    _require(
        env.unwrapped.np_random_seed == 123,
        "`env.reset(seed=123)` must seed `np_random` with 123 (call `super().reset(seed=seed)`).",
    )
    state = deepcopy(env.unwrapped.np_random.bit_generator.state)
    obs_2, _ = env.reset(seed=123)
    _require(
        data_equivalence(obs_1, obs_2),
        "Using `env.reset(seed=123)` twice gives different observations; "
        "reset must be deterministic given the seed.",
    )
    _require(
        env.unwrapped.np_random.bit_generator.state == state,
        "`env.reset(seed=123)` twice leaves `np_random` in different states.",
    )
    env.reset(seed=None)
    _require(env.unwrapped.np_random_seed == 123, "`env.reset(seed=None)` must not re-seed the generator.")


def _check_step(env: Env[Any, Any]) -> None:
    env.action_space.seed(123)
    action = env.action_space.sample()
    env.reset(seed=123)
    first = env_step_passive_checker(env, action)
    obs = first[0]
    _require(
        obs in env.observation_space,
        f"The observation returned by `env.step()` is not within the observation space "
        f"{env.observation_space}: {obs!r:.200}",
    )
    second = env.step(action)
    if data_shares_objects(first[0], second[0]):
        raise Error(
            "`env.step()` returned observations that share memory with the previous step's; "
            "return a new array every step (users keep old observations)."
        )
    env.reset(seed=123)
    repeat = env.step(action)
    _require(
        data_equivalence(first[0], repeat[0]) and first[1] == repeat[1] and first[2:4] == repeat[2:4],
        "Stepping with the same seed and action twice gives different results; `step` must be "
        "deterministic given the seed and actions (draw randomness only from `self.np_random`).",
    )


def check_env(
    env: Env[Any, Any],
    warn: bool | None = None,
    skip_render_check: bool = False,
    skip_close_check: bool = False,
) -> None:
    """Check that ``env`` follows the palaestra (Gymnasium 1.x) environment API.

    Args:
        env: The environment, ideally unwrapped.
        warn: Ignored (kept for Gymnasium compatibility).
        skip_render_check: Skip calling ``render``.
        skip_close_check: Skip calling ``close`` twice.

    Raises:
        Error: The first contract violation found, with what to change.
        TypeError: ``env`` is not a palaestra ``Env``.
    """
    if not isinstance(env, Env):
        raise TypeError(f"The environment must inherit from palaestra.Env, actual class: {type(env)}.")
    if env.unwrapped is not env:
        logger.warn(
            f"The environment ({env}) is different from the unwrapped version ({env.unwrapped}). "
            "This could effect the environment checker as the environment most likely has a "
            "wrapper applied to it. We recommend using the raw environment for `check_env` "
            "using `env.unwrapped`."
        )
    for attr, check in (("action_space", check_action_space), ("observation_space", check_observation_space)):
        if not hasattr(env, attr):
            raise AttributeError(f"The environment must specify an {attr.replace('_', ' ')}.")
        check(getattr(env, attr))
    _check_reset(env)
    _check_step(env)
    if not skip_render_check and env.render_mode is not None:
        env.reset(seed=0)
        env_render_passive_checker(env)
    if not skip_close_check:
        env.close()
        try:
            env.close()
        except Exception as e:
            raise Error(f"Calling `env.close()` twice must be allowed, the second call raised {e!r}") from e
