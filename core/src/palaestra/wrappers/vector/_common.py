"""Vector episode statistics and per-sub-env info lists."""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import numpy as np

from palaestra import logger
from palaestra.error import InvalidVectorInfo
from palaestra.vector import AutoresetMode, VectorEnv, VectorWrapper
from palaestra.vector._autoreset import check_reset_mask

__all__ = ["DictInfoToList", "RecordEpisodeStatistics"]


def autoreset_mode_of(env: VectorEnv[Any, Any, Any], wrapper: str) -> AutoresetMode:
    """The env's declared autoreset mode (``NEXT_STEP`` with a warning when undeclared)."""
    mode = env.metadata.get("autoreset_mode")
    if mode is None:
        logger.warn(
            f"{env} does not declare `autoreset_mode` in its metadata; {wrapper} assumes AutoresetMode.NEXT_STEP."
        )
        return AutoresetMode.NEXT_STEP
    if not isinstance(mode, AutoresetMode):
        raise TypeError(f"Expected env.metadata['autoreset_mode'] to be an AutoresetMode, got {type(mode)}")
    return mode


class RecordEpisodeStatistics(VectorWrapper[Any, Any, Any]):
    """Add each finished episode's return, length and time to ``info[stats_key]``.

    ``info["episode"]`` holds arrays ``r``, ``l`` and ``t`` (zero for sub-envs whose
    episode did not end) and ``info["_episode"]`` the mask of sub-envs that ended.
    The last ``buffer_length`` episodes are kept in ``return_queue``, ``length_queue``
    and ``time_queue``.

    Args:
        env: The vector env.
        buffer_length: How many finished episodes the queues keep.
        stats_key: The info key for the statistics.
    """

    def __init__(
        self, env: VectorEnv[Any, Any, Any], buffer_length: int = 100, stats_key: str = "episode"
    ) -> None:
        super().__init__(env)
        self._stats_key = stats_key
        self._autoreset_mode = autoreset_mode_of(env, "RecordEpisodeStatistics")
        self.episode_count = 0
        self.episode_start_times = np.zeros((self.num_envs,))
        self.episode_returns = np.zeros((self.num_envs,))
        self.episode_lengths = np.zeros((self.num_envs,), dtype=int)
        self.prev_dones = np.zeros((self.num_envs,), dtype=bool)
        self.time_queue: deque[float] = deque(maxlen=buffer_length)
        self.return_queue: deque[float] = deque(maxlen=buffer_length)
        self.length_queue: deque[int] = deque(maxlen=buffer_length)

    def reset(  # seed and options may be positional here, as in Gymnasium
        self, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset and restart the counters of the reset sub-envs."""
        obs, info = self.env.reset(seed=seed, options=options)
        if options is not None and "reset_mask" in options:
            mask = check_reset_mask(options["reset_mask"], self.num_envs)
        else:
            mask = np.ones(self.num_envs, dtype=bool)
        self.episode_start_times[mask] = time.perf_counter()
        self.episode_returns[mask] = 0
        self.episode_lengths[mask] = 0
        self.prev_dones[mask] = False
        return obs, info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step, count, and report the episodes that ended."""
        obs, rewards, terminations, truncations, infos = self.env.step(actions)
        if not isinstance(infos, dict):
            raise TypeError(
                f"vector RecordEpisodeStatistics needs dict infos, got {type(infos)}; "
                "put it inside (before) DictInfoToList"
            )
        if self._autoreset_mode == AutoresetMode.SAME_STEP:
            self.episode_returns += rewards
            self.episode_lengths += 1
        else:
            # A sub-env that ended last step was reset by this one: its new episode starts now.
            ended, running = self.prev_dones, ~self.prev_dones
            self.episode_returns[ended] = 0
            self.episode_returns[running] += rewards[running]
            self.episode_lengths[ended] = 0
            self.episode_lengths[running] += 1
            self.episode_start_times[ended] = time.perf_counter()
        self.prev_dones = dones = np.logical_or(terminations, truncations)
        num_dones = int(np.sum(dones))
        if num_dones:
            key = self._stats_key
            if key in infos or f"_{key}" in infos:
                raise ValueError(
                    f"Attempted to add episode stats with key '{key}' but this key already exists in info: "
                    f"{list(infos.keys())}; pass another `stats_key`"
                )
            durations = np.round(time.perf_counter() - self.episode_start_times, 6)
            infos[key] = {
                "r": np.where(dones, self.episode_returns, 0.0),
                "l": np.where(dones, self.episode_lengths, 0),
                "t": np.where(dones, durations, 0.0),
            }
            infos[f"_{key}"] = dones
            self.episode_count += num_dones
            self.time_queue.extend(durations[dones])
            self.return_queue.extend(self.episode_returns[dones])
            self.length_queue.extend(self.episode_lengths[dones])
            if self._autoreset_mode == AutoresetMode.SAME_STEP:
                self.episode_returns[dones] = 0
                self.episode_lengths[dones] = 0
                self.episode_start_times[dones] = time.perf_counter()
        return obs, rewards, terminations, truncations, infos


class DictInfoToList(VectorWrapper[Any, Any, Any]):
    """Turn the batched info dict into a list of one info dict per sub-env.

    A key whose ``_key`` mask is present appears only in the sub-envs the mask marks;
    nested dicts are split the same way; mask keys themselves are dropped.
    """

    def reset(  # type: ignore[override]
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, list[dict[str, Any]]]:
        """Reset; infos as a list."""
        obs, infos = self.env.reset(seed=seed, options=options)
        return obs, self._split(infos)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, list[dict[str, Any]]]:  # type: ignore[override]
        """Step; infos as a list."""
        obs, rewards, terminations, truncations, infos = self.env.step(actions)
        return obs, rewards, terminations, truncations, self._split(infos)

    def _split(self, infos: dict[str, Any]) -> list[dict[str, Any]]:
        if not isinstance(infos, dict):
            raise InvalidVectorInfo(
                f"DictInfoToList expects the vector env's info to be a dict, got {type(infos)}"
            )
        n = self.num_envs
        per_env: list[dict[str, Any]] = [{} for _ in range(n)]
        for key, value in infos.items():
            if key.startswith("_"):
                continue
            values = self._split(value) if isinstance(value, dict) else value
            if len(values) != n:
                raise InvalidVectorInfo(
                    f"info[{key!r}] has length {len(values)}, expected one entry per sub-env ({n})"
                )
            mask = infos.get(f"_{key}")
            if mask is not None and len(mask) != n:
                raise InvalidVectorInfo(
                    f"info['_{key}'] has length {len(mask)}, expected one entry per sub-env ({n})"
                )
            for i in range(n):
                if mask is None or mask[i]:
                    per_env[i][key] = values[i]
        return per_env
