"""Stable-Baselines3 training on palaestra's vector envs (native batched, sync, async, Ray).

SB3 steps a ``VecEnv``: finished sub-envs are reset in the same step, the final observation
goes in ``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` says
whether the episode was cut by the time limit. That is palaestra's ``SAME_STEP`` autoreset
mode; a vector env in ``DISABLED`` mode works too (the adapter resets what finished).

    from palaestra_gymnasium.sb3 import make_sb3_vec_env
    from stable_baselines3 import PPO

    venv = make_sb3_vec_env("CartPole-v1", n_envs=8, vectorization_mode="async")
    PPO("MlpPolicy", venv).learn(100_000)

Importing this module imports Stable-Baselines3 (``pip install stable-baselines3``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import numpy as np

import palaestra
from palaestra.error import DependencyNotInstalled
from palaestra.vector import AutoresetMode, VectorEnv
from palaestra_gymnasium._spaces import to_gymnasium_space

try:
    from stable_baselines3.common.vec_env import VecEnv, VecMonitor
except ImportError as e:  # pragma: no cover - exercised in a subprocess test
    raise DependencyNotInstalled(
        "palaestra_gymnasium.sb3 needs Stable-Baselines3: pip install stable-baselines3 "
        "(it needs torch; pip install torch first for a CPU build)"
    ) from e

__all__ = ["SB3VecEnv", "make_sb3_vec_env"]

_SUPPORTED = (AutoresetMode.SAME_STEP, AutoresetMode.DISABLED)
# Keys of a batched info that describe the batch rather than one sub-env's step.
_FINAL_KEYS = frozenset({"final_obs", "_final_obs", "final_info", "_final_info"})


def split_info(info: dict[str, Any], num_envs: int) -> list[dict[str, Any]]:
    """One dict per sub-env from a batched info (each key where its ``_key`` mask is set)."""
    per_env: list[dict[str, Any]] = [{} for _ in range(num_envs)]
    for key, values in info.items():
        if key.startswith("_") or key in _FINAL_KEYS:
            continue
        mask = info.get(f"_{key}")
        nested = split_info(values, num_envs) if isinstance(values, dict) else values
        for i in range(num_envs) if mask is None else np.flatnonzero(mask):
            per_env[i][key] = nested[i]
    return per_env


def _pick(batch: Any, i: int) -> Any:
    """Sub-env ``i``'s part of a batched observation."""
    if isinstance(batch, dict):
        return {key: _pick(value, i) for key, value in batch.items()}
    return batch[i]


class SB3VecEnv(VecEnv):
    """A palaestra vector env as a Stable-Baselines3 ``VecEnv``.

    Args:
        env: A ``palaestra.vector.VectorEnv`` whose ``metadata["autoreset_mode"]`` is
            ``SAME_STEP`` or ``DISABLED`` (see :func:`make_sb3_vec_env`).

    Raises:
        TypeError: ``env`` is not a palaestra vector env.
        ValueError: Its autoreset mode is ``NEXT_STEP``, which SB3 cannot follow.
    """

    def __init__(self, env: VectorEnv[Any, Any, Any]) -> None:
        if not isinstance(env, VectorEnv):
            raise TypeError(f"SB3VecEnv takes a palaestra.vector.VectorEnv, got {type(env).__name__}")
        mode = env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
        if mode not in _SUPPORTED:
            raise ValueError(
                f"SB3VecEnv needs a vector env that resets finished sub-envs in the same step, but "
                f"{env} has autoreset_mode={mode}; build it with autoreset_mode=AutoresetMode.SAME_STEP "
                "(make_sb3_vec_env does)"
            )
        self.vector_env: Any = env  # any vectorizer: only some have call/get_attr/set_attr
        self._disabled = mode is AutoresetMode.DISABLED
        self._actions: Any = None
        super().__init__(
            env.num_envs,
            to_gymnasium_space(env.single_observation_space),
            to_gymnasium_space(env.single_action_space),
        )

    def reset(self) -> Any:
        """Reset every sub-env with the seeds and options set by ``seed``/``set_options``."""
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        options = next((o for o in self._options if o), None)
        obs, info = self.vector_env.reset(seed=seeds, options=options)
        self.reset_infos = split_info(info, self.num_envs)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Remember the actions for :meth:`step_wait`."""
        self._actions = actions

    def step_wait(self) -> Any:
        """Step every sub-env; finished ones are reset and report their final observation."""
        obs, rewards, terminated, truncated, info = self.vector_env.step(self._actions)
        dones = np.logical_or(terminated, truncated)
        infos = split_info(info, self.num_envs)
        if dones.any():
            if self._disabled:  # the step's observations are the final ones; reset what ended
                final_obs, final_infos = obs, infos
                obs, reset_info = self.vector_env.reset(options={"reset_mask": dones})
                reset_infos = split_info(reset_info, self.num_envs)
            else:  # SAME_STEP: the vector env reset them and kept the final step aside
                final_obs, reset_infos = info["final_obs"], list(infos)
                final_infos = split_info(info["final_info"], self.num_envs)
            for i in map(int, np.flatnonzero(dones)):
                infos[i] = final_infos[i]
                infos[i]["terminal_observation"] = _pick(final_obs, i)
                self.reset_infos[i] = reset_infos[i]
        for i, info_i in enumerate(infos):
            info_i["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, np.asarray(rewards, dtype=np.float32), dones, infos

    def close(self) -> None:
        """Close the vector env."""
        self.vector_env.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """Attribute ``attr_name`` of the chosen sub-envs.

        A natively batched env has no sub-env objects: its own attribute stands for all.
        """
        if hasattr(self.vector_env, "get_attr"):
            values = list(self.vector_env.get_attr(attr_name))
        else:
            values = [getattr(self.vector_env, attr_name)] * self.num_envs
        return [values[i] for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set attribute ``attr_name`` of the chosen sub-envs to ``value``."""
        chosen = set(self._indices(indices))
        if len(chosen) == self.num_envs:
            self.vector_env.set_attr(attr_name, [value] * self.num_envs)
            return
        current = list(self.vector_env.get_attr(attr_name))
        self.vector_env.set_attr(attr_name, [value if i in chosen else v for i, v in enumerate(current)])

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """Call ``method_name`` on the chosen sub-envs.

        Raises:
            NotImplementedError: Only some sub-envs are chosen and the vector env calls a
                method on all of its sub-envs at once (every palaestra vectorizer but sync).
        """
        chosen = self._indices(indices)
        if len(chosen) == self.num_envs:
            return list(self.vector_env.call(method_name, *method_args, **method_kwargs))
        sub_envs = getattr(self.vector_env, "envs", None)
        if sub_envs is None:
            raise NotImplementedError(
                f"{self.vector_env} calls methods on all sub-envs at once; env_method(indices={indices}) "
                "works with the sync vectorizer"
            )
        return [getattr(sub_envs[i], method_name)(*method_args, **method_kwargs) for i in chosen]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """False for each chosen sub-env: palaestra sub-envs are not wrapped in Gymnasium wrappers."""
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        """One frame per sub-env (the vector env renders in ``rgb_array`` mode)."""
        frames = self.vector_env.render()
        return [None] * self.num_envs if frames is None else list(frames)

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)


def make_sb3_vec_env(
    env_id: str,
    n_envs: int = 1,
    vectorization_mode: str | None = None,
    vector_kwargs: dict[str, Any] | None = None,
    monitor: bool = True,
    **kwargs: Any,
) -> VecEnv:
    """``palaestra.make_vec`` in ``SAME_STEP`` autoreset mode, as an SB3 ``VecEnv``.

    As SB3's ``make_vec_env`` (which wraps each env in ``Monitor``), it records episode
    statistics: wrapped in SB3's ``VecMonitor``, each finished episode's info holds
    ``"episode": {"r": return, "l": length, "t": seconds}``, which SB3's algorithms collect
    in ``model.ep_info_buffer`` (``rollout/ep_rew_mean`` in their logs). ``monitor=False``
    returns the bare :class:`SB3VecEnv`.

    Whatever the mode, its steps equal SB3's own ``DummyVecEnv`` of the same envs for the same
    seeds, except with ``"vector_entry_point"`` for an env whose batched version shares one
    generator among its sub-envs (CartPole's, like Gymnasium's ``CartPoleVectorEnv``). The
    batched Atari env (``"ALE/Pong-v5"``) is its own case: it preprocesses the frames (stacked
    84x84 grayscale), so it equals a ``DummyVecEnv`` of preprocessed envs, not of bare ones.

    Args:
        env_id: A palaestra id.
        n_envs: Number of sub-envs.
        vectorization_mode: As for ``make_vec``: ``None`` (the natively batched env where the
            id has one whose sub-envs draw from generators of their own, else sync),
            ``"sync"``, ``"async"``, ``"vector_entry_point"``, ``"ray/actors"``, ...
        vector_kwargs: The vectorizer's arguments (``autoreset_mode`` is set here).
        monitor: Record episode statistics (``VecMonitor``), as ``make_vec_env`` does.
        **kwargs: The env's constructor arguments.
    """
    native = vectorization_mode == "vector_entry_point"
    if vectorization_mode is None:
        # An id spec() cannot find exactly (unversioned, ...) is left to make_vec to resolve.
        with contextlib.suppress(palaestra.error.Error):
            native = palaestra.spec(env_id).vector_entry_point is not None
    if native:
        envs = palaestra.make_vec(
            env_id,
            n_envs,
            "vector_entry_point",
            vector_kwargs,
            autoreset_mode=AutoresetMode.SAME_STEP,
            **kwargs,
        )
        if vectorization_mode is not None or not getattr(envs.unwrapped, "shared_generator", False):
            return _monitored(SB3VecEnv(envs), monitor)
        envs.close()  # one generator for all sub-envs: not DummyVecEnv's numbers, so sync by default
        vectorization_mode = "sync"
    vector_kwargs = {**(vector_kwargs or {}), "autoreset_mode": AutoresetMode.SAME_STEP}
    venv = SB3VecEnv(palaestra.make_vec(env_id, n_envs, vectorization_mode, vector_kwargs, **kwargs))
    return _monitored(venv, monitor)


def _monitored(venv: SB3VecEnv, monitor: bool) -> VecEnv:
    return VecMonitor(venv) if monitor else venv
