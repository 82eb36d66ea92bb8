"""Vector wrappers that normalise observations or rewards with running statistics."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra.spaces import Box
from palaestra.vector import AutoresetMode, VectorEnv, VectorObservationWrapper, VectorWrapper
from palaestra.vector.utils import batch_space
from palaestra.wrappers._checks import require_fraction, require_positive
from palaestra.wrappers.utils import RunningMeanStd, StatisticsSwitch

__all__ = ["NormalizeObservation", "NormalizeReward"]


class NormalizeObservation(StatisticsSwitch, VectorObservationWrapper[Any, Any, Any], RecordConstructorArgs):
    """Normalise batched observations to roughly zero mean and unit variance (float32).

    The statistics are shared by all sub-envs and updated with every batch. Only
    ``NEXT_STEP`` (or disabled) autoreset is supported, and resets must be whole.

    Args:
        env: A vector env with a ``Box`` observation space.
        epsilon: Added to the variance before the square root (positive).
    """

    def __init__(self, env: VectorEnv[Any, Any, Any], epsilon: float = 1e-8) -> None:
        require_positive("NormalizeObservation", "epsilon", epsilon)
        RecordConstructorArgs.__init__(self, epsilon=epsilon)
        VectorObservationWrapper.__init__(self, env)
        if not isinstance(env.single_observation_space, Box):
            raise TypeError(
                f"NormalizeObservation needs a Box observation space, got {env.single_observation_space}; "
                "flatten it first (palaestra.wrappers.vector.FlattenObservation)"
            )
        single = Box(low=-np.inf, high=np.inf, shape=env.single_observation_space.shape, dtype=np.float32)
        self.single_observation_space = single
        self.observation_space = batch_space(single, self.num_envs)
        self.obs_rms = RunningMeanStd(shape=single.shape, dtype=single.dtype)
        self.epsilon = epsilon
        self._update_running_mean = True

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset all sub-envs (partial resets would skew the statistics and are refused)."""
        if options is not None and "reset_mask" in options and not np.all(options["reset_mask"]):
            raise ValueError(
                "NormalizeObservation does not support partial resets. The 'reset_mask' must contain all True values."
            )
        return super().reset(seed=seed, options=options)

    def observations(self, observations: np.ndarray) -> np.ndarray:
        """Update the statistics (if enabled) and normalise."""
        if self._update_running_mean:
            self.obs_rms.update(observations)
        return ((observations - self.obs_rms.mean) / np.sqrt(self.obs_rms.var + self.epsilon)).astype(
            np.float32
        )


class NormalizeReward(StatisticsSwitch, VectorWrapper[Any, Any, Any], RecordConstructorArgs):
    """Scale batched rewards by the running standard deviation of each sub-env's discounted return.

    Args:
        env: The vector env.
        gamma: Discount of the tracked return, in ``[0, 1]``.
        epsilon: Added to the variance before the square root (positive).
    """

    def __init__(self, env: VectorEnv[Any, Any, Any], gamma: float = 0.99, epsilon: float = 1e-8) -> None:
        require_fraction("NormalizeReward", "gamma", gamma, one_allowed=True)
        require_positive("NormalizeReward", "epsilon", epsilon)
        RecordConstructorArgs.__init__(self, gamma=gamma, epsilon=epsilon)
        VectorWrapper.__init__(self, env)
        self.gamma, self.epsilon = gamma, epsilon
        self.return_rms = RunningMeanStd(shape=())
        # Per sub-env: the discounted return so far, and whether its episode just ended.
        self.accumulated_reward = np.zeros(self.num_envs, dtype=np.float32)
        self._prev_dones = np.zeros_like(self.accumulated_reward)
        self._autoreset_mode = env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
        self._update_running_mean = True

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset and forget the returns in progress."""
        self.accumulated_reward[:] = 0
        self._prev_dones[:] = 0
        return super().reset(seed=seed, options=options)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step, update the return statistics and scale the rewards."""
        obs, reward, terminated, truncated, info = self.env.step(actions)
        same_step = self._autoreset_mode == AutoresetMode.SAME_STEP
        # Under next-step autoreset the step after an episode end is the reset step: skip it.
        active = np.ones((self.num_envs,), dtype=bool) if same_step else ~self._prev_dones.astype(bool)
        self.accumulated_reward[active] = (
            self.accumulated_reward[active] * self.gamma * (1 - terminated[active]) + reward[active]
        )
        if self._update_running_mean and np.any(active):
            self.return_rms.update(self.accumulated_reward[active])
        self._prev_dones = np.logical_or(terminated, truncated).astype(np.float32)
        if same_step:
            self.accumulated_reward[self._prev_dones.astype(bool)] = 0
        return obs, reward / np.sqrt(self.return_rms.var + self.epsilon), terminated, truncated, info
