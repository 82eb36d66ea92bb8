"""The three one-job wrapper kinds: observations, rewards, actions.

Apart from :mod:`._core` because making an env never needs them (its wrappers subclass
:class:`Wrapper` directly), and three generic classes cost a first step their creation.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

from palaestra._env._core import ActType, ObsType, Wrapper, WrapperActType, WrapperObsType

__all__ = ["ActionWrapper", "ObservationWrapper", "RewardWrapper"]


class ObservationWrapper(Wrapper[WrapperObsType, ActType, ObsType, ActType]):
    """A wrapper that transforms observations through :meth:`observation`."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        """Reset the wrapped env and transform its observation."""
        obs, info = self.env.reset(seed=seed, options=options)
        return self.observation(obs), info

    def step(self, action: ActType) -> tuple[WrapperObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the wrapped env and transform its observation."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self.observation(obs), reward, terminated, truncated, info

    def observation(self, observation: ObsType) -> WrapperObsType:
        """Transform one observation."""
        raise NotImplementedError


class RewardWrapper(Wrapper[ObsType, ActType, ObsType, ActType]):
    """A wrapper that transforms rewards through :meth:`reward`."""

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the wrapped env and transform its reward."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, self.reward(reward), terminated, truncated, info

    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        """Transform one reward."""
        raise NotImplementedError


class ActionWrapper(Wrapper[ObsType, WrapperActType, ObsType, ActType]):
    """A wrapper that transforms actions through :meth:`action` before stepping."""

    def step(self, action: WrapperActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Transform the action and step the wrapped env."""
        return self.env.step(self.action(action))

    def action(self, action: WrapperActType) -> ActType:
        """Transform one action."""
        raise NotImplementedError
