"""Action wrappers: transform, clip, rescale, discretize, sticky and repeated actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import numpy as np

from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra._env._core import Env, Wrapper
from palaestra._env._wrapper_kinds import ActionWrapper
from palaestra.error import InvalidBound, InvalidProbability
from palaestra.spaces import Box, Discrete, MultiDiscrete, Space
from palaestra.wrappers._bins import bin_grid
from palaestra.wrappers._checks import require_fraction
from palaestra.wrappers.utils import rescale_box

__all__ = [
    "ClipAction",
    "DiscretizeAction",
    "RepeatAction",
    "RescaleAction",
    "StickyAction",
    "TransformAction",
]


def _require_box(env: Env[Any, Any], name: str) -> Box:
    if not isinstance(env.action_space, Box):
        raise TypeError(f"{name} requires a Box action space, got {type(env.action_space)}")
    return env.action_space


class TransformAction(ActionWrapper[Any, Any, Any], RecordConstructorArgs):
    """Apply ``func`` to every action before the env sees it.

    Args:
        env: The env.
        func: Maps the agent's action to the env's.
        action_space: The agent-facing action space (the env's when ``None``).
    """

    def __init__(
        self, env: Env[Any, Any], func: Callable[[Any], Any], action_space: Space[Any] | None
    ) -> None:
        RecordConstructorArgs.__init__(self, func=func, action_space=action_space)
        Wrapper.__init__(self, env)
        if action_space is not None:
            self.action_space = action_space
        self.func = func

    def action(self, action: Any) -> Any:
        """``func(action)``."""
        return self.func(action)


class ClipAction(TransformAction, RecordConstructorArgs):
    """Clip actions into the env's Box bounds; the agent sees an unbounded Box."""

    def __init__(self, env: Env[Any, Any]) -> None:
        space = _require_box(env, "ClipAction")
        RecordConstructorArgs.__init__(self)
        low, high = space.low, space.high
        TransformAction.__init__(
            self,
            env=env,
            func=lambda action: np.clip(action, low, high),
            action_space=Box(-np.inf, np.inf, shape=space.shape, dtype=space.dtype),
        )


class RescaleAction(TransformAction, RecordConstructorArgs):
    """Let the agent act in ``[min_action, max_action]``, mapped affinely onto the env's Box.

    Raises:
        InvalidBound: ``min_action`` equals ``max_action`` somewhere (no inverse).
    """

    def __init__(self, env: Env[Any, Any], min_action: Any, max_action: Any) -> None:
        space = _require_box(env, "RescaleAction")
        RecordConstructorArgs.__init__(self, min_action=min_action, max_action=max_action)
        act_space, _, func = rescale_box(space, min_action, max_action)
        if np.any(act_space.low == act_space.high):
            raise InvalidBound(
                f"Min action ({min_action}) must be strictly smaller than max action ({max_action}), the "
                "rescaling has no inverse where they are equal"
            )
        TransformAction.__init__(self, env=env, func=func, action_space=act_space)


class DiscretizeAction(ActionWrapper[Any, Any, Any], RecordConstructorArgs):
    """Turn a bounded Box action space into ``Discrete`` (or ``MultiDiscrete``) bin choices.

    Each dimension is split into ``bins`` equal intervals and an index selects its centre.

    Args:
        env: An env with a finite Box action space.
        bins: Bins per dimension (one int for all, or one per dimension).
        multidiscrete: Expose ``MultiDiscrete(bins)`` instead of one flat ``Discrete``.
    """

    def __init__(self, env: Env[Any, Any], bins: int | tuple[int, ...], multidiscrete: bool = False) -> None:
        space = _require_box(env, "DiscretizeAction")
        self.low, self.high, self.bins = bin_grid(space, bins, "action")
        self.n_dims = int(self.low.size)
        self.multidiscrete = multidiscrete
        RecordConstructorArgs.__init__(self, bins=bins, multidiscrete=multidiscrete)
        ActionWrapper.__init__(self, env)
        edges = [np.linspace(self.low[i], self.high[i], self.bins[i] + 1) for i in range(self.n_dims)]
        self.bin_centers = [0.5 * (e[:-1] + e[1:]) for e in edges]
        self.action_space = MultiDiscrete(self.bins) if multidiscrete else Discrete(np.prod(self.bins))

    def action(self, act: Any) -> np.ndarray:
        """The bin centres selected by ``act``."""
        indices = np.asarray(act, dtype=int) if self.multidiscrete else self._unflatten_index(act)
        centers = [self.bin_centers[i][min(max(idx, 0), self.bins[i] - 1)] for i, idx in enumerate(indices)]
        return np.array(centers, dtype=self.env.action_space.dtype).reshape(self.env.action_space.shape)

    def revert_action(self, action: Any) -> Any:
        """The bin (index or indices) whose centre is nearest to a continuous ``action``."""
        flat = np.ravel(action)
        indices = [np.argmin(np.abs(self.bin_centers[i] - flat[i])) for i in range(self.n_dims)]
        if self.multidiscrete:
            return np.array(indices, dtype=int)
        return np.ravel_multi_index(indices, self.bins)

    def _unflatten_index(self, flat_index: Any) -> list[Any]:
        indices = []
        for b in reversed(self.bins):
            indices.append(flat_index % b)
            flat_index //= b
        return list(reversed(indices))


class StickyAction(ActionWrapper[Any, Any, Any], RecordConstructorArgs):
    """With probability ``repeat_action_probability`` repeat the previous action instead.

    A sticky phase lasts a number of steps drawn from ``repeat_action_duration``. Draws
    come from the wrapped env's generator, which shifts the env's own stream (as in
    Gymnasium).

    Args:
        env: The env.
        repeat_action_probability: Chance of starting a sticky phase, in ``[0, 1)``.
        repeat_action_duration: Steps of a sticky phase, or an inclusive ``(min, max)`` range.
    """

    def __init__(
        self,
        env: Env[Any, Any],
        repeat_action_probability: float,
        repeat_action_duration: int | tuple[int, int] = 1,
    ) -> None:
        require_fraction(
            "StickyAction",
            "repeat_action_probability",
            repeat_action_probability,
            one_allowed=False,
            error=InvalidProbability,
        )
        duration = _duration_range(repeat_action_duration)
        RecordConstructorArgs.__init__(
            self,
            repeat_action_probability=repeat_action_probability,
            repeat_action_duration=repeat_action_duration,
        )
        ActionWrapper.__init__(self, env)
        self.repeat_action_probability = repeat_action_probability
        self.repeat_action_duration_range = duration
        self._clear()

    def _clear(self) -> None:
        self.last_action: Any = None
        self.is_sticky_actions = False
        self.num_repeats: Any = 0
        self.repeats_taken = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Forget the previous action and reset."""
        self._clear()
        return self.env.reset(seed=seed, options=options)

    def action(self, action: Any) -> Any:
        """The previous action during a sticky phase, else ``action``."""
        rng = self.np_random
        if (
            not self.is_sticky_actions
            and self.last_action is not None
            and rng.uniform() < self.repeat_action_probability
        ):
            low, high = self.repeat_action_duration_range  # a sticky phase begins: how long it lasts
            self.is_sticky_actions, self.num_repeats, self.repeats_taken = (
                True,
                rng.integers(low, high + 1),
                0,
            )
        if self.is_sticky_actions:
            action = self.last_action
            self.repeats_taken += 1
            if self.repeats_taken == self.num_repeats:
                self.is_sticky_actions, self.num_repeats, self.repeats_taken = False, 0, 0
        self.last_action = action
        return action


class RepeatAction(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Repeat each action ``num_repeats`` times (stopping early at an episode end), summing rewards.

    Args:
        env: The env.
        num_repeats: Times each action is applied (at least 1).
    """

    def __init__(self, env: Env[Any, Any], num_repeats: int) -> None:
        if not np.issubdtype(type(num_repeats), np.integer):
            raise TypeError(f"The num_repeats is expected to be an integer, actual type: {type(num_repeats)}")
        if num_repeats < 1:
            raise ValueError(
                f"The num_repeats value needs to be equal or greater than one, actual value: {num_repeats}"
            )
        RecordConstructorArgs.__init__(self, num_repeats=num_repeats)
        Wrapper.__init__(self, env)
        self.num_repeats = num_repeats

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the action up to ``num_repeats`` times."""
        total = 0.0
        for _ in range(self.num_repeats):
            result = self.env.step(action)
            total += float(result[1])
            if result[2] or result[3]:  # the episode ended: stop repeating
                break
        return result[0], total, result[2], result[3], result[4]


# What a sticky-action duration range must satisfy, checked in this order.
_DURATION_RULES: tuple[tuple[Callable[[Any], bool], type[Exception], str], ...] = (
    (lambda d: isinstance(d, tuple), ValueError, "should be either an integer or a tuple"),
    (lambda d: len(d) == 2, ValueError, "should be a tuple or a list of two integers"),
    (lambda d: d[0] <= d[1], InvalidBound, "is not a valid bound"),
    (lambda d: min(d) >= 1, ValueError, "should be larger or equal than 1"),
)


def _duration_range(duration: int | tuple[int, int]) -> tuple[int, int]:
    """``repeat_action_duration`` as an inclusive ``(min, max)`` of at least one step each."""
    bounds = (duration, duration) if isinstance(duration, int) else duration
    for holds, error, problem in _DURATION_RULES:
        if not holds(bounds):
            raise error(f"`repeat_action_duration` {problem}. Received {bounds} (StickyAction)")
    return bounds
