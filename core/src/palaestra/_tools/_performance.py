"""Throughput measurements of an environment's step, construction and render.

Each function runs for ``target_duration`` seconds of wall-clock time (at least one
call: ``0`` times a single one) and returns a rate per second. They measure; they do not
assert. For comparisons against Gymnasium, see the repository's ``benchmarks/``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from palaestra._env._core import Env
from palaestra.vector._vector_env import AutoresetMode

__all__ = ["benchmark_init", "benchmark_render", "benchmark_step", "benchmark_vector_step"]


def _check_duration(target_duration: float) -> None:
    if not target_duration >= 0:  # also rejects NaN
        raise ValueError(
            f"target_duration must be a number of seconds >= 0 (0 times one call), got {target_duration!r}"
        )


def benchmark_step(env: Env[Any, Any], target_duration: float = 5, seed: int | None = None) -> float:
    """Steps per second with random actions, resetting at episode ends.

    Args:
        env: The env (its action space is sampled for actions).
        target_duration: Seconds to run for.
        seed: Seed of the first reset.
    """
    _check_duration(target_duration)
    env.reset(seed=seed)
    env.action_space.sample()  # warm the sampler up outside the timed loop
    steps = 0
    start = end = time.perf_counter()
    while end - start <= target_duration:
        steps += 1
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
        end = time.perf_counter()
    return steps / (end - start)


def benchmark_vector_step(env: Any, target_duration: float = 5, seed: int | None = None) -> float:
    """Sub-environment steps per second of a vector env (reset steps not counted).

    Under next-step autoreset the step that resets a finished sub-env is not counted;
    with autoreset disabled, finished sub-envs are reset with ``reset_mask``.
    """
    _check_duration(target_duration)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    env.step(env.action_space.sample())
    env.reset(seed=seed)
    mode = env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
    previous_done = np.zeros(env.num_envs, dtype=np.bool_)
    steps = 0
    start = end = time.perf_counter()
    while end - start <= target_duration:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        done = np.logical_or(terminated, truncated)
        if mode == AutoresetMode.NEXT_STEP:
            steps += env.num_envs - int(np.count_nonzero(previous_done))
            previous_done = done
        else:
            steps += env.num_envs
        if mode == AutoresetMode.DISABLED and done.any():
            env.reset(options={"reset_mask": done})
        end = time.perf_counter()
    return steps / (end - start)


def benchmark_init(
    env_lambda: Callable[[], Env[Any, Any]], target_duration: float = 5, seed: int | None = None
) -> float:
    """Constructions plus first resets per second of ``env_lambda()``."""
    _check_duration(target_duration)
    inits = 0
    start = end = time.perf_counter()
    while end - start <= target_duration:
        inits += 1
        env = env_lambda()
        env.reset(seed=seed)
        end = time.perf_counter()
    return inits / (end - start)


def benchmark_render(env: Env[Any, Any], target_duration: float = 5) -> float:
    """``env.render()`` calls per second (reset the env first).

    Raises:
        ValueError: The env has no render mode.
    """
    _check_duration(target_duration)
    if env.render_mode is None:
        raise ValueError(
            "benchmark_render needs an env made with a render_mode, e.g. render_mode='rgb_array'"
        )
    renders = 0
    start = end = time.perf_counter()
    while end - start <= target_duration:
        renders += 1
        env.render()
        end = time.perf_counter()
    return renders / (end - start)
