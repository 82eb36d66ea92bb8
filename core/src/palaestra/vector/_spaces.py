"""Choosing and checking the single and batched spaces of a vector env."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra._env._suite import invalid_batch
from palaestra.error import InvalidActionType
from palaestra.spaces import Box, Space
from palaestra.spaces.utils import is_space_dtype_shape_equiv
from palaestra.vector.utils import batch_differing_spaces, batch_space, iterate

__all__ = ["actions_per_env", "batched_spaces", "wrong_action_count"]


def batched_spaces(
    observation_spaces: Sequence[Space[Any]],
    action_spaces: Sequence[Space[Any]],
    observation_mode: str | tuple[Space[Any], Space[Any]],
    owner: str = "SyncVectorEnv",
) -> tuple[Space[Any], Space[Any], Space[Any], Space[Any]]:
    """``(single obs, batched obs, single action, batched action)`` for the sub-env spaces.

    Args:
        observation_spaces: Each sub-env's observation space.
        action_spaces: Each sub-env's action space.
        observation_mode: ``"same"``, ``"different"`` or a ``(batched, single)`` pair.
        owner: The vector env's class name, for messages.

    Raises:
        ValueError: Unknown ``observation_mode``.
        TypeError: A custom ``observation_mode`` pair is not two spaces.
        RuntimeError: A sub-env's spaces do not match, naming its index.
    """
    n = len(observation_spaces)
    single_obs = observation_spaces[0]
    if isinstance(observation_mode, tuple) and len(observation_mode) == 2:
        if not all(isinstance(s, Space) for s in observation_mode):
            raise TypeError(
                "Expected both elements of observation_mode to be Spaces, got "
                f"{type(observation_mode[0])} and {type(observation_mode[1])}"
            )
        batched_obs, single_obs = observation_mode
    elif observation_mode == "same":
        batched_obs = batch_space(single_obs, n)
    elif observation_mode == "different":
        batched_obs = batch_differing_spaces(list(observation_spaces))
    else:
        raise ValueError(
            "Invalid `observation_mode`, expected: 'same' or 'different' or tuple of single and batch "
            f"observation space, actual got {observation_mode}"
        )
    _check_sub_spaces(observation_spaces, action_spaces, single_obs, observation_mode, owner)
    return single_obs, batched_obs, action_spaces[0], batch_space(action_spaces[0], n)


def _check_sub_spaces(
    observation_spaces: Sequence[Space[Any]],
    action_spaces: Sequence[Space[Any]],
    single_obs: Space[Any],
    observation_mode: Any,
    owner: str,
) -> None:
    # Gymnasium's words first (code matches on them), then which sub-env differs.
    for i, (obs_space, act_space) in enumerate(zip(observation_spaces, action_spaces, strict=True)):
        if observation_mode == "same":
            if obs_space != single_obs:
                raise RuntimeError(
                    f"{owner}(..., observation_mode='same') however the sub-environments observation spaces "
                    f"are not equivalent. single_observation_space={single_obs}, sub-environment "
                    f"observation_space={obs_space}. If this is intentional, use "
                    f"`observation_mode='different'` instead. (Sub-env {i} differs from sub-env 0.)"
                )
        elif not is_space_dtype_shape_equiv(obs_space, single_obs):
            raise RuntimeError(
                f"{owner}(..., observation_mode='different' or custom space) however the sub-environments "
                f"observation spaces do not share a common shape and dtype, single_observation_space="
                f"{single_obs}, sub-environment observation space={obs_space} (sub-env {i})"
            )
        if act_space != action_spaces[0]:
            raise RuntimeError(
                "Sub-environment action space doesn't make the `single_action_space`, action_space="
                f"{act_space}, single_action_space={action_spaces[0]} (sub-env {i} differs from sub-env 0)"
            )


def wrong_action_count(count: int, num_envs: int, owner: str) -> ValueError:
    """The error for a batch of ``count`` actions given to ``num_envs`` sub-envs."""
    return ValueError(
        f"{owner}.step got {count} actions for {num_envs} sub-environments; "
        f"pass one action per sub-env (a batch of {num_envs}, e.g. envs.action_space.sample())."
    )


def actions_per_env(action_space: Space[Any], actions: Any, num_envs: int, owner: str) -> list[Any]:
    """The batch ``actions`` of ``action_space`` split into one action per sub-env.

    Raises:
        ValueError: The batch does not hold exactly ``num_envs`` actions (names both counts).
        InvalidActionType: ``actions`` is not a batch at all (``None``, a number for a Box...).
    """
    # A Box batch has one row per sub-env; a wrong count is named as one, below.
    if (
        isinstance(action_space, Box)
        and isinstance(actions, np.ndarray)
        and actions.shape != action_space.shape
        and actions.shape[:1] == action_space.shape[:1]
    ):
        raise invalid_batch(owner, action_space, actions)
    try:
        per_env = list(iterate(action_space, actions))
    except TypeError as e:
        raise InvalidActionType(
            f"{e}. {owner}.step: actions {actions!r} are not a batch of {num_envs} actions of the "
            f"action space {action_space}; pass one action per sub-env (e.g. envs.action_space.sample())"
        ) from None
    if len(per_env) != num_envs:
        raise wrong_action_count(len(per_env), num_envs, owner)
    return per_env
