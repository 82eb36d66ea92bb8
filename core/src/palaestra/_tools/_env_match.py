"""Checking that two environments produce the same data on the same seeds and actions."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra._env._core import Env
from palaestra._tools._env_checker import data_equivalence

__all__ = ["check_environments_match"]

INFO_COMPARISONS = ("equivalence", "superset", "skip", "keys-equivalence", "keys-superset")


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


class _Matcher:
    def __init__(self, skip: set[str], info_comparison: str) -> None:
        self.skip = skip
        self.info_comparison = info_comparison

    def infos(self, info_a: dict[str, Any], info_b: dict[str, Any], when: str) -> None:
        how = self.info_comparison
        if how == "equivalence":
            _require(
                data_equivalence(info_a, info_b),
                f"{when} info is not equivalent, info_a = {info_a}, info_b = {info_b}",
            )
        elif how == "superset":
            for key in info_a:
                _require(
                    key in info_b and data_equivalence(info_a[key], info_b[key]),
                    f"{when} info is not a superset, key {key} present in info_a with value = {info_a[key]}, "
                    f"in info_b with value = {info_b.get(key, '<missing>')}",
                )
        elif how == "keys-equivalence":
            _require(
                info_a.keys() == info_b.keys(),
                f"{when} info keys are not equivalent, info_a's keys are {info_a.keys()}, info_b's keys are "
                f"{info_b.keys()}",
            )
        elif how == "keys-superset":
            _require(
                info_b.keys() >= info_a.keys(),
                f"{when} info keys are not a superset, keys not present in info_b are: {info_b.keys() - info_a.keys()}",
            )

    def reset(self, env_a: Env[Any, Any], env_b: Env[Any, Any], seed: int, when: str) -> None:
        obs_a, info_a = env_a.reset(seed=seed)
        obs_b, info_b = env_b.reset(seed=seed)
        _require(
            "obs" in self.skip or data_equivalence(obs_a, obs_b),
            f"{when} observation is not equivalent, observation_a = {obs_a}, observation_b = {obs_b}",
        )
        self.infos(info_a, info_b, when)
        self.renders(env_a, env_b, when)

    def renders(self, env_a: Env[Any, Any], env_b: Env[Any, Any], when: str) -> None:
        if "render" not in self.skip:
            _require(bool(np.all(env_a.render() == env_b.render())), f"{when} render is not equivalent")


def check_environments_match(
    env_a: Env[Any, Any],
    env_b: Env[Any, Any],
    num_steps: int,
    seed: int = 0,
    skip_obs: bool = False,
    skip_rew: bool = False,
    skip_terminal: bool = False,
    skip_truncated: bool = False,
    skip_render: bool = False,
    info_comparison: str = "equivalence",
) -> None:
    """Step both envs ``num_steps`` times with the same actions and seeds and compare.

    Actions are sampled from ``env_a.action_space`` seeded with ``seed``; both envs are
    reset with ``seed`` at the start and whenever either episode ends. Renders are
    compared only when both envs render arrays.

    Args:
        env_a: The first env.
        env_b: The second env.
        num_steps: Steps to take.
        seed: Seed of resets and of the action sampler.
        skip_obs: Do not compare observations (or observation spaces).
        skip_rew: Do not compare rewards.
        skip_terminal: Do not compare ``terminated``.
        skip_truncated: Do not compare ``truncated``.
        skip_render: Do not compare renders.
        info_comparison: ``"equivalence"``, ``"superset"`` (env_b's info contains env_a's),
            ``"keys-equivalence"``, ``"keys-superset"`` or ``"skip"``.

    Raises:
        AssertionError: The first difference, naming the step and both values.
        ValueError: An unknown ``info_comparison``.
    """
    if info_comparison not in INFO_COMPARISONS:
        raise ValueError(f"info_comparison must be one of {list(INFO_COMPARISONS)}, got {info_comparison!r}")
    no_arrays = (None, "human")
    skip_render = (
        skip_render or env_a.unwrapped.render_mode in no_arrays or env_b.unwrapped.render_mode in no_arrays
    )
    skip = {name for name, flag in (("obs", skip_obs), ("render", skip_render)) if flag}
    matcher = _Matcher(skip, info_comparison)
    _require(
        env_a.action_space == env_b.action_space,
        f"action spaces differ: {env_a.action_space} vs {env_b.action_space}",
    )
    _require(
        skip_obs or env_a.observation_space == env_b.observation_space,
        f"observation spaces differ: {env_a.observation_space} vs {env_b.observation_space}",
    )
    env_a.action_space.seed(seed)
    matcher.reset(env_a, env_b, seed, "resetting")
    for step in range(num_steps):
        action = env_a.action_space.sample()
        obs_a, rew_a, terminal_a, truncated_a, info_a = env_a.step(action)
        obs_b, rew_b, terminal_b, truncated_b, info_b = env_b.step(action)
        when = f"stepping (step = {step})"
        _require(
            skip_obs or data_equivalence(obs_a, obs_b),
            f"{when} observation is not equivalent, observation_a = {obs_a}, observation_b = {obs_b}",
        )
        _require(
            skip_rew or data_equivalence(rew_a, rew_b),
            f"{when} reward is not equivalent, reward_a = {rew_a}, reward_b = {rew_b}",
        )
        _require(
            skip_terminal or terminal_a == terminal_b,
            f"{when} terminal is not equivalent, terminal_a = {terminal_a}, terminal_b = {terminal_b}",
        )
        _require(
            skip_truncated or truncated_a == truncated_b,
            f"{when} truncated is not equivalent, truncated_a = {truncated_a}, truncated_b = {truncated_b}",
        )
        matcher.infos(info_a, info_b, when)
        matcher.renders(env_a, env_b, when)
        if terminal_a or truncated_a or terminal_b or truncated_b:
            matcher.reset(env_a, env_b, seed, f"resetting (step = {step})")
