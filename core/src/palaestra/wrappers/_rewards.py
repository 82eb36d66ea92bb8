"""Reward wrappers: transform, clip and normalise rewards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import numpy as np

from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra._env._core import Env, Wrapper
from palaestra._env._wrapper_kinds import RewardWrapper
from palaestra.error import InvalidBound
from palaestra.wrappers._checks import require_fraction, require_positive
from palaestra.wrappers.utils import RunningMeanStd, StatisticsSwitch

__all__ = ["ClipReward", "NormalizeReward", "TransformReward"]


class TransformReward(RewardWrapper[Any, Any], RecordConstructorArgs):
    """Apply ``func`` to every reward.

    Args:
        env: The env.
        func: Maps a reward to the new reward.
    """

    def __init__(self, env: Env[Any, Any], func: Callable[[SupportsFloat], SupportsFloat]) -> None:
        RecordConstructorArgs.__init__(self, func=func)
        RewardWrapper.__init__(self, env)
        self.func = func

    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        """``func(reward)``."""
        return self.func(reward)


class ClipReward(TransformReward, RecordConstructorArgs):
    """Clip rewards to ``[min_reward, max_reward]`` (either bound may be ``None``).

    Raises:
        InvalidBound: Both bounds are ``None``, or ``min_reward > max_reward``.
    """

    def __init__(self, env: Env[Any, Any], min_reward: Any = None, max_reward: Any = None) -> None:
        if min_reward is None and max_reward is None:
            raise InvalidBound("Both `min_reward` and `max_reward` cannot be None")
        if min_reward is not None and max_reward is not None and np.any(max_reward - min_reward < 0):
            raise InvalidBound(f"Min reward ({min_reward}) must be smaller than max reward ({max_reward})")
        RecordConstructorArgs.__init__(self, min_reward=min_reward, max_reward=max_reward)
        TransformReward.__init__(self, env=env, func=lambda x: np.clip(x, a_min=min_reward, a_max=max_reward))  # type: ignore[call-overload]


class NormalizeReward(StatisticsSwitch, Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Scale rewards by the running standard deviation of the discounted return.

    Args:
        env: The env.
        gamma: Discount of the return whose variance is tracked, in ``[0, 1]``.
        epsilon: Added to the variance before the square root (positive).
    """

    def __init__(self, env: Env[Any, Any], gamma: float = 0.99, epsilon: float = 1e-8) -> None:
        require_fraction("NormalizeReward", "gamma", gamma, one_allowed=True)
        require_positive("NormalizeReward", "epsilon", epsilon)
        RecordConstructorArgs.__init__(self, gamma=gamma, epsilon=epsilon)
        Wrapper.__init__(self, env)
        self.return_rms = RunningMeanStd(shape=())
        self.discounted_reward = np.array([0.0])
        self.gamma = gamma
        self.epsilon = epsilon
        self._update_running_mean = True

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step and scale the reward."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.discounted_reward = self.discounted_reward * self.gamma * (1 - terminated) + float(reward)
        if self._update_running_mean:
            self.return_rms.update(self.discounted_reward)
        return obs, reward / np.sqrt(self.return_rms.var + self.epsilon), terminated, truncated, info
