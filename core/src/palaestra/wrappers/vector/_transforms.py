"""Vector wrappers that transform observations, actions or rewards, or vectorise a single-env one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any

from palaestra import logger
from palaestra._env._core import Env
from palaestra.spaces import Space
from palaestra.vector import (
    AutoresetMode,
    VectorActionWrapper,
    VectorEnv,
    VectorObservationWrapper,
    VectorRewardWrapper,
)
from palaestra.vector.utils import batch_space, concatenate, create_empty_array, iterate
from palaestra.wrappers import _actions, _observations, _rewards

__all__ = [
    "ClipAction",
    "ClipReward",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "VectorizeTransformAction",
    "VectorizeTransformObservation",
    "VectorizeTransformReward",
]


def _warn_if_unbatched(
    env: VectorEnv[Any, Any, Any], space: Space[Any], single: Space[Any], what: str
) -> None:
    if space != batch_space(single, env.num_envs):
        logger.warn(
            f"For {env}, the {what} space and the batched single {what} space don't match as expected, "
            f"{what}_space={space}, batched single_{what}_space={batch_space(single, env.num_envs)}"
        )


class TransformObservation(VectorObservationWrapper[Any, Any, Any]):
    """Apply ``func`` to every batch of observations.

    Args:
        env: The vector env.
        func: Maps a batch of observations to the new batch.
        observation_space: The new batched space (derived from the single one if omitted).
        single_observation_space: The new single-env space.
    """

    def __init__(
        self,
        env: VectorEnv[Any, Any, Any],
        func: Callable[[Any], Any],
        observation_space: Space[Any] | None = None,
        single_observation_space: Space[Any] | None = None,
    ) -> None:
        super().__init__(env)
        if single_observation_space is not None:
            self.single_observation_space = single_observation_space
        if observation_space is not None:
            self.observation_space = observation_space
        elif single_observation_space is not None:
            self.observation_space = batch_space(single_observation_space, self.num_envs)
        _warn_if_unbatched(env, self.observation_space, self.single_observation_space, "observation")
        self.func = func

    def observations(self, observations: Any) -> Any:
        """``func(observations)``."""
        return self.func(observations)


class _ObservationSpaceOnly(Env[Any, Any]):
    """A stand-in env that only has an observation space (to build single-env wrappers)."""

    def __init__(self, observation_space: Space[Any]) -> None:
        self.observation_space = observation_space


class _ActionSpaceOnly(Env[Any, Any]):
    """A stand-in env that only has an action space."""

    def __init__(self, action_space: Space[Any]) -> None:
        self.action_space = action_space


class VectorizeTransformObservation(VectorObservationWrapper[Any, Any, Any]):
    """Apply a single-env ``TransformObservation`` wrapper to each sub-env's observation.

    Args:
        env: The vector env.
        wrapper: A :class:`palaestra.wrappers.TransformObservation` subclass.
        **kwargs: Its constructor arguments.
    """

    def __init__(
        self, env: VectorEnv[Any, Any, Any], wrapper: type[_observations.TransformObservation], **kwargs: Any
    ) -> None:
        super().__init__(env)
        mode = env.metadata.get("autoreset_mode")
        if mode is None:
            self.autoreset_mode = AutoresetMode.NEXT_STEP
        elif not isinstance(mode, AutoresetMode):
            raise TypeError(
                f"Expected env.metadata['autoreset_mode'] to be an AutoresetMode, got {type(mode)}"
            )
        else:
            self.autoreset_mode = mode
        self.wrapper = wrapper(_ObservationSpaceOnly(env.single_observation_space), **kwargs)
        self.single_observation_space = self.wrapper.observation_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.same_out = self.observation_space == env.observation_space
        self.out = create_empty_array(self.single_observation_space, self.num_envs)

    def observations(self, observations: Any) -> Any:
        """Each sub-env's observation through the wrapper's function, batched again."""
        source = self.observation_space if self.same_out else self.env.observation_space
        converted = tuple(self.wrapper.func(obs) for obs in iterate(source, observations))
        if self.same_out:
            return concatenate(self.single_observation_space, converted, observations)
        return deepcopy(concatenate(self.single_observation_space, converted, self.out))


class FilterObservation(VectorizeTransformObservation):
    """Vectorised :class:`palaestra.wrappers.FilterObservation`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], filter_keys: Sequence[str | int]) -> None:
        super().__init__(env, _observations.FilterObservation, filter_keys=filter_keys)


class FlattenObservation(VectorizeTransformObservation):
    """Vectorised :class:`palaestra.wrappers.FlattenObservation`."""

    def __init__(self, env: VectorEnv[Any, Any, Any]) -> None:
        super().__init__(env, _observations.FlattenObservation)


class GrayscaleObservation(VectorizeTransformObservation):
    """Vectorised :class:`palaestra.wrappers.GrayscaleObservation`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], keep_dim: bool = False) -> None:
        super().__init__(env, _observations.GrayscaleObservation, keep_dim=keep_dim)


class ResizeObservation(VectorizeTransformObservation):
    """Vectorised :class:`palaestra.wrappers.ResizeObservation`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], shape: tuple[int, ...]) -> None:
        super().__init__(env, _observations.ResizeObservation, shape=shape)


class ReshapeObservation(VectorizeTransformObservation):
    """Vectorised :class:`palaestra.wrappers.ReshapeObservation`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], shape: int | tuple[int, ...]) -> None:
        super().__init__(env, _observations.ReshapeObservation, shape=shape)


class RescaleObservation(VectorizeTransformObservation):
    """Vectorised :class:`palaestra.wrappers.RescaleObservation`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], min_obs: Any, max_obs: Any) -> None:
        super().__init__(env, _observations.RescaleObservation, min_obs=min_obs, max_obs=max_obs)


class DtypeObservation(VectorizeTransformObservation):
    """Vectorised :class:`palaestra.wrappers.DtypeObservation`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], dtype: Any) -> None:
        super().__init__(env, _observations.DtypeObservation, dtype=dtype)


class TransformAction(VectorActionWrapper[Any, Any, Any]):
    """Apply ``func`` to every batch of actions.

    Args:
        env: The vector env.
        func: Maps the agent's batch of actions to the env's.
        action_space: The agent-facing batched space (derived from the single one if omitted).
        single_action_space: The agent-facing single-env space.
    """

    def __init__(
        self,
        env: VectorEnv[Any, Any, Any],
        func: Callable[[Any], Any],
        action_space: Space[Any] | None = None,
        single_action_space: Space[Any] | None = None,
    ) -> None:
        super().__init__(env)
        if single_action_space is not None:
            self.single_action_space = single_action_space
        if action_space is not None:
            self.action_space = action_space
        elif single_action_space is not None:
            self.action_space = batch_space(single_action_space, self.num_envs)
        _warn_if_unbatched(env, self.action_space, self.single_action_space, "action")
        self.func = func

    def actions(self, actions: Any) -> Any:
        """``func(actions)``."""
        return self.func(actions)


class VectorizeTransformAction(VectorActionWrapper[Any, Any, Any]):
    """Apply a single-env ``TransformAction`` wrapper to each sub-env's action.

    Args:
        env: The vector env.
        wrapper: A :class:`palaestra.wrappers.TransformAction` subclass.
        **kwargs: Its constructor arguments.
    """

    def __init__(
        self, env: VectorEnv[Any, Any, Any], wrapper: type[_actions.TransformAction], **kwargs: Any
    ) -> None:
        super().__init__(env)
        self.wrapper = wrapper(_ActionSpaceOnly(env.single_action_space), **kwargs)
        self.single_action_space = self.wrapper.action_space
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.same_out = self.action_space == env.action_space
        self.out = create_empty_array(env.single_action_space, self.num_envs)

    def actions(self, actions: Any) -> Any:
        """Each sub-env's action through the wrapper's function, batched again."""
        converted = tuple(self.wrapper.func(action) for action in iterate(self.action_space, actions))
        if self.same_out:
            return concatenate(self.env.single_action_space, converted, actions)
        return deepcopy(concatenate(self.env.single_action_space, converted, self.out))


class ClipAction(VectorizeTransformAction):
    """Vectorised :class:`palaestra.wrappers.ClipAction`."""

    def __init__(self, env: VectorEnv[Any, Any, Any]) -> None:
        super().__init__(env, _actions.ClipAction)


class RescaleAction(VectorizeTransformAction):
    """Vectorised :class:`palaestra.wrappers.RescaleAction`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], min_action: Any, max_action: Any) -> None:
        super().__init__(env, _actions.RescaleAction, min_action=min_action, max_action=max_action)


class TransformReward(VectorRewardWrapper[Any, Any, Any]):
    """Apply ``func`` to every batch of rewards."""

    def __init__(self, env: VectorEnv[Any, Any, Any], func: Callable[[Any], Any]) -> None:
        super().__init__(env)
        self.func = func

    def rewards(self, rewards: Any) -> Any:
        """``func(rewards)``."""
        return self.func(rewards)


class VectorizeTransformReward(VectorRewardWrapper[Any, Any, Any]):
    """Apply a single-env ``TransformReward`` wrapper to each sub-env's reward (in place)."""

    def __init__(
        self, env: VectorEnv[Any, Any, Any], wrapper: type[_rewards.TransformReward], **kwargs: Any
    ) -> None:
        super().__init__(env)
        self.wrapper = wrapper(Env(), **kwargs)

    def rewards(self, rewards: Any) -> Any:
        """Each reward through the wrapper's function."""
        for i, r in enumerate(rewards):
            rewards[i] = self.wrapper.func(r)
        return rewards


class ClipReward(VectorizeTransformReward):
    """Vectorised :class:`palaestra.wrappers.ClipReward`."""

    def __init__(self, env: VectorEnv[Any, Any, Any], min_reward: Any = None, max_reward: Any = None) -> None:
        super().__init__(env, _rewards.ClipReward, min_reward=min_reward, max_reward=max_reward)
