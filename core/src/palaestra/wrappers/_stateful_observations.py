"""Observation wrappers that keep state across steps: delay, time, stacks, normalisation."""

from __future__ import annotations

from collections import deque
from copy import deepcopy
from typing import Any, SupportsFloat

import numpy as np

from palaestra import spaces
from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra._env._core import Env, Wrapper
from palaestra._env._wrapper_kinds import ObservationWrapper
from palaestra.spaces._batching import batch_space, concatenate, create_empty_array
from palaestra.wrappers._checks import require_positive
from palaestra.wrappers._common import TimeLimit
from palaestra.wrappers.utils import RunningMeanStd, StatisticsSwitch, create_zero_array

__all__ = [
    "DelayObservation",
    "FrameStackObservation",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "TimeAwareObservation",
]

Step = tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]


def _require_int(value: Any, name: str, minimum: int, too_small: str) -> None:
    """An integer of at least ``minimum``; ``too_small`` is Gymnasium's sentence for a smaller one."""
    if not np.issubdtype(type(value), np.integer):
        raise TypeError(f"The {name} is expected to be an integer, actual type: {type(value)}")
    if value < minimum:
        raise ValueError(f"{too_small}, actual value: {value} (the least allowed is {minimum})")


class DelayObservation(ObservationWrapper[Any, Any, Any], RecordConstructorArgs):
    """Return the observation from ``delay`` steps ago (zeros of the space before that).

    Args:
        env: The env.
        delay: Number of steps to delay (0 or more).
    """

    def __init__(self, env: Env[Any, Any], delay: int) -> None:
        _require_int(delay, "delay", 0, "The delay needs to be greater than zero")
        RecordConstructorArgs.__init__(self, delay=delay)
        ObservationWrapper.__init__(self, env)
        self.delay = int(delay)
        self.observation_queue: deque[Any] = deque()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset; the new episode starts without history (zeros until ``delay`` steps passed)."""
        first, info = self.env.reset(seed=seed, options=options)
        self.observation_queue.clear()
        return self.observation(first), info

    def observation(self, observation: Any) -> Any:
        """The observation from ``delay`` steps ago, or zeros while there is none yet."""
        waiting = self.observation_queue
        waiting.append(observation)
        enough_history = len(waiting) > self.delay
        return waiting.popleft() if enough_history else create_zero_array(self.observation_space)


def _find_time_limit(env: Env[Any, Any]) -> int:
    if env.spec is not None and env.spec.max_episode_steps is not None:
        return env.spec.max_episode_steps
    inner: Any = env
    while isinstance(inner, Wrapper):
        if isinstance(inner, TimeLimit):
            return inner._max_episode_steps
        inner = inner.env
    raise ValueError(
        "The environment must be wrapped by a TimeLimit wrapper or the spec specify a `max_episode_steps`."
    )


class TimeAwareObservation(ObservationWrapper[Any, Any, Any], RecordConstructorArgs):
    """Add the number of steps taken in the episode to the observation.

    Args:
        env: An env with a time limit (spec ``max_episode_steps`` or a ``TimeLimit``).
        flatten: Flatten the combined observation to one array.
        normalize_time: Give the time as a float32 fraction of the limit.
        dict_time_key: The time's key when the observation is a Dict.
    """

    def __init__(
        self,
        env: Env[Any, Any],
        flatten: bool = True,
        normalize_time: bool = False,
        *,
        dict_time_key: str = "time",
    ) -> None:
        RecordConstructorArgs.__init__(
            self, flatten=flatten, normalize_time=normalize_time, dict_time_key=dict_time_key
        )
        ObservationWrapper.__init__(self, env)
        self.flatten = flatten
        self.normalize_time = normalize_time
        self.max_timesteps = _find_time_limit(env)
        self.timesteps = 0
        if normalize_time:
            self._time_preprocess_func: Any = lambda t: np.array([t / self.max_timesteps], dtype=np.float32)
            time_space: spaces.Space[Any] = spaces.Box(0.0, 1.0)
        else:
            self._time_preprocess_func = lambda t: np.array([t], dtype=np.int32)
            time_space = spaces.Box(0, self.max_timesteps, dtype=np.int32)
        space = env.observation_space
        if isinstance(space, spaces.Dict):
            if dict_time_key in space.spaces:
                raise ValueError(
                    f"The `dict_time_key` ({dict_time_key!r}) already exists in the observation space."
                )
            combined: spaces.Space[Any] = spaces.Dict(
                {dict_time_key: time_space, **space.spaces}, sort_keys=space.sort_keys
            )
            self._append_data_func: Any = lambda obs, t: {dict_time_key: t, **obs}
        elif isinstance(space, spaces.Tuple):
            combined = spaces.Tuple((*space.spaces, time_space))
            self._append_data_func = lambda obs, t: (*obs, t)
        else:
            combined = spaces.Dict(obs=space, time=time_space)
            self._append_data_func = lambda obs, t: {"obs": obs, "time": t}
        if flatten:
            self.observation_space = spaces.utils.flatten_space(combined)
            self._obs_postprocess_func: Any = lambda obs: spaces.utils.flatten(combined, obs)
        else:
            self.observation_space = combined
            self._obs_postprocess_func = lambda obs: obs

    def observation(self, observation: Any) -> Any:
        """The observation with the current time step attached."""
        return self._obs_postprocess_func(
            self._append_data_func(observation, self._time_preprocess_func(self.timesteps))
        )

    def step(self, action: Any) -> Step:
        """Count the step, then step."""
        self.timesteps += 1
        return super().step(action)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Restart the count and reset."""
        self.timesteps = 0
        return super().reset(seed=seed, options=options)


class FrameStackObservation(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Stack the last ``stack_size`` observations (batched along a new first axis).

    Args:
        env: The env.
        stack_size: Number of observations stacked.
        padding_type: What fills the stack after a reset: ``"reset"`` (the first
            observation), ``"zero"`` (the space's zero), or a custom observation.
    """

    def __init__(self, env: Env[Any, Any], stack_size: int, *, padding_type: Any = "reset") -> None:
        RecordConstructorArgs.__init__(self, stack_size=stack_size, padding_type=padding_type)
        Wrapper.__init__(self, env)
        _require_int(stack_size, "stack_size", 1, "The stack_size needs to be greater than zero")
        space = env.observation_space
        if isinstance(padding_type, str) and padding_type in ("reset", "zero"):
            self.padding_value = create_zero_array(space)
        elif not isinstance(padding_type, str) and padding_type in space:
            self.padding_value = padding_type
            padding_type = "_custom"
        else:
            unexpected = (
                "Unexpected `padding_type`, expected 'reset', 'zero' or a custom observation space, "
                f"actual value: {padding_type!r}"
            )
            if not isinstance(padding_type, str):
                unexpected += f" not an instance of env observation ({space})"
            raise ValueError(f"{unexpected} (a custom padding is an observation of the env's space {space})")
        self.observation_space = batch_space(space, n=stack_size)
        self.stack_size = stack_size
        self.padding_type = padding_type
        self.obs_queue: deque[Any] = deque([self.padding_value] * stack_size, maxlen=stack_size)
        self.stacked_obs = create_empty_array(space, n=stack_size)

    def _stacked(self) -> Any:
        return deepcopy(concatenate(self.env.observation_space, self.obs_queue, self.stacked_obs))

    def step(self, action: Any) -> Step:
        """Step and push the observation onto the stack."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.obs_queue.append(obs)
        return self._stacked(), reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset and fill the stack with padding plus the first observation."""
        obs, info = self.env.reset(seed=seed, options=options)
        if self.padding_type == "reset":
            self.padding_value = obs
        # A full queue of padding, then the first observation pushes the oldest pad out.
        self.obs_queue.extend([self.padding_value] * self.stack_size)
        self.obs_queue.append(obs)
        return self._stacked(), info


class NormalizeObservation(StatisticsSwitch, ObservationWrapper[Any, Any, Any], RecordConstructorArgs):
    """Normalise observations to roughly zero mean and unit variance with running statistics.

    Args:
        env: An env with array observations.
        epsilon: Added to the variance before the square root (positive).
    """

    def __init__(self, env: Env[Any, Any], epsilon: float = 1e-8) -> None:
        require_positive("NormalizeObservation", "epsilon", epsilon)
        RecordConstructorArgs.__init__(self, epsilon=epsilon)
        ObservationWrapper.__init__(self, env)
        if env.observation_space.shape is None:
            raise ValueError("NormalizeObservation wrapper requires the observation space to have a shape.")
        self.observation_space = spaces.Box(
            -np.inf, np.inf, shape=env.observation_space.shape, dtype=np.float32
        )
        self.obs_rms = RunningMeanStd(shape=self.observation_space.shape, dtype=self.observation_space.dtype)
        self.epsilon = epsilon
        self._update_running_mean = True

    def observation(self, observation: Any) -> Any:
        """The normalised observation (float32)."""
        if self._update_running_mean:
            self.obs_rms.update(np.array([observation]))
        return np.float32((observation - self.obs_rms.mean) / np.sqrt(self.obs_rms.var + self.epsilon))


class MaxAndSkipObservation(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Repeat each action ``skip`` times and return the max over the last two frames.

    Args:
        env: An env with array observations.
        skip: Steps per action (at least 2).
    """

    def __init__(self, env: Env[Any, Any], skip: int = 4) -> None:
        RecordConstructorArgs.__init__(self, skip=skip)
        Wrapper.__init__(self, env)
        _require_int(skip, "skip", 2, "The skip value needs to be equal or greater than two")
        if env.observation_space.shape is None:
            raise ValueError("The observation space must have the shape attribute.")
        self._skip = skip
        self._obs_buffer = np.zeros((2, *env.observation_space.shape), dtype=env.observation_space.dtype)

    def step(self, action: Any) -> Step:
        """Apply the action up to ``skip`` times; max-pool the last two observations."""
        total = 0.0
        for i in range(self._skip):
            obs, reward, terminated, truncated, info = self.env.step(action)
            # The last two frames of the skip are kept (slots 0 and 1) for the max.
            slot = i - self._skip + 2
            if slot >= 0:
                self._obs_buffer[slot] = obs
            total += float(reward)
            if terminated or truncated:
                break
        return np.max(self._obs_buffer, axis=0), total, terminated, truncated, info
