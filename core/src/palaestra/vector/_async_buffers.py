"""AsyncVectorEnv's shared buffers: observations, rewards, flags and actions, seen by every process."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from palaestra.error import CustomSpaceError, DynamicSpaceError
from palaestra.spaces import Box, Discrete, MultiBinary, MultiDiscrete, Space
from palaestra.spaces._batching import create_empty_array
from palaestra.vector.utils._shared_memory import (
    buffer_bytes,
    check_fits,
    create_shared_memory,
    read_from_shared_memory,
    reads_are_live_views,
)

__all__ = ["SharedBuffers", "allocate"]

_SHAREABLE_ACTIONS = (Box, Discrete, MultiDiscrete, MultiBinary)


@dataclass
class SharedBuffers:
    """The buffers of ``n`` sub-envs and the parent's numpy views of them."""

    obs_buffer: Any  # None without shared memory (observations then travel pickled)
    observations: Any
    reread_obs: bool  # strings and OneOf pairs are read as new objects, not live views
    rewards_buffer: Any
    flags_buffers: tuple[Any, Any]
    rewards: np.ndarray[Any, Any]
    terminations: np.ndarray[Any, Any]
    truncations: np.ndarray[Any, Any]
    actions_buffer: Any  # None for actions that are not numeric arrays (they travel pickled)
    action_view: np.ndarray[Any, Any] | None


def allocate(
    obs_space: Space[Any], act_space: Space[Any], n: int, ctx: Any, shared: bool, who: str
) -> SharedBuffers:
    """Allocate the buffers, after checking the machine has the memory (see :func:`check_fits`)."""
    per_env = 8 + 2 + buffer_bytes(act_space, 1) + (buffer_bytes(obs_space, 1) if shared else 0)
    check_fits(n * per_env, f"{who} of num_envs={n:,}")
    obs_buffer, reread = None, False
    if shared:
        try:
            obs_buffer = create_shared_memory(obs_space, n=n, ctx=ctx)
        except DynamicSpaceError:
            raise  # a TypeError saying the space has a dynamic shape, as Gymnasium's
        except CustomSpaceError as e:
            raise ValueError(
                "Using `AsyncVector(..., shared_memory=True)` caused an error, you can disable this feature "
                f"with `shared_memory=False` however this is slower. ({e})"
            ) from e
        observations = read_from_shared_memory(obs_space, obs_buffer, n=n)
        reread = not reads_are_live_views(obs_space)
    else:
        observations = create_empty_array(obs_space, n=n, fn=np.zeros)
    rewards_buffer = ctx.RawArray("d", n)
    flags_buffers = (ctx.RawArray("B", n), ctx.RawArray("B", n))
    actions_buffer, action_view = None, None
    if isinstance(act_space, _SHAREABLE_ACTIONS):
        actions_buffer = create_shared_memory(act_space, n=n, ctx=ctx)
        action_view = read_from_shared_memory(act_space, actions_buffer, n=n)
    return SharedBuffers(
        obs_buffer,
        observations,
        reread,
        rewards_buffer,
        flags_buffers,
        np.frombuffer(rewards_buffer, dtype=np.float64, count=n),
        np.frombuffer(flags_buffers[0], dtype=np.bool_, count=n),
        np.frombuffer(flags_buffers[1], dtype=np.bool_, count=n),
        actions_buffer,
        action_view,
    )
