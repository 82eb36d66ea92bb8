"""The wrappers ``make`` applies: env checker, order enforcer and time limit."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, SupportsFloat

from palaestra import logger
from palaestra._base._arguments import check_max_episode_steps
from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra._env import _passive_checks as passive
from palaestra._env._core import Env, Wrapper
from palaestra.error import InvalidEnvArguments, InvalidResetOptions, ResetNeeded

if TYPE_CHECKING:
    from palaestra._env._spec import EnvSpec

__all__ = ["Autoreset", "OrderEnforcing", "PassiveEnvChecker", "RecordEpisodeStatistics", "TimeLimit"]

Step = tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]


class TimeLimit(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Truncate episodes after ``max_episode_steps`` steps.

    Args:
        env: The env to limit.
        max_episode_steps: Steps after which ``truncated`` is set (positive int).
    """

    snapshot_fields = ("_elapsed_steps",)

    def __init__(self, env: Env[Any, Any], max_episode_steps: int) -> None:
        if max_episode_steps is None:  # None means no limit elsewhere, but TimeLimit needs one
            raise InvalidEnvArguments(
                "Expect the `max_episode_steps` to be an integer, actually: <class 'NoneType'>. Pass "
                "a positive int (steps before the episode is truncated)."
            )
        check_max_episode_steps(max_episode_steps)
        RecordConstructorArgs.__init__(self, max_episode_steps=max_episode_steps)
        Wrapper.__init__(self, env)
        self._max_episode_steps = max_episode_steps
        self._elapsed_steps: int = 0

    @property
    def elapsed_steps(self) -> int:
        """Steps taken in this episode (set it to hand the count to code that steps the env itself)."""
        return self._elapsed_steps

    @elapsed_steps.setter
    def elapsed_steps(self, count: int) -> None:
        self._elapsed_steps = count

    @property
    def max_episode_steps(self) -> int:
        """Steps after which ``truncated`` is set."""
        return self._max_episode_steps

    def step(self, action: Any) -> Step:
        """Step and set ``truncated`` once the limit is reached."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._elapsed_steps += 1
        if self._elapsed_steps >= self._max_episode_steps:
            truncated = True
        return obs, reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the step counter and the env."""
        self._elapsed_steps = 0
        return self.env.reset(seed=seed, options=options)

    def _extend_spec(self, env_spec: EnvSpec) -> EnvSpec:
        env_spec.max_episode_steps = self._max_episode_steps
        return env_spec


class OrderEnforcing(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Raise :class:`ResetNeeded` when ``step`` (or ``render``) comes before ``reset``.

    Args:
        env: The env to guard.
        disable_render_order_enforcing: Allow ``render`` before ``reset``.
    """

    snapshot_fields = ("_has_reset",)

    def __init__(self, env: Env[Any, Any], disable_render_order_enforcing: bool = False) -> None:
        RecordConstructorArgs.__init__(self, disable_render_order_enforcing=disable_render_order_enforcing)
        Wrapper.__init__(self, env)
        self._has_reset = False
        self._disable_render_order_enforcing = disable_render_order_enforcing

    def step(self, action: Any) -> Step:
        """Step, or raise if the env was never reset."""
        if not self._has_reset:
            raise ResetNeeded("Cannot call env.step() before calling env.reset()")
        return self.env.step(action)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset and remember that it happened.

        Raises:
            InvalidResetOptions: ``options`` is neither a dict (any mapping) nor ``None``.
        """
        if options is not None and not isinstance(options, Mapping):
            raise InvalidResetOptions(
                f"{type(self.unwrapped).__name__}.reset: options must be a dict (or None), got {options!r} "
                f"({type(options).__name__}); e.g. reset(options={{'low': -0.1, 'high': 0.1}})"
            )
        self._has_reset = True
        return self.env.reset(seed=seed, options=options)

    def render(self) -> Any:
        """Render, or raise if the env was never reset (unless disabled)."""
        if not self._disable_render_order_enforcing and not self._has_reset:
            raise ResetNeeded(
                "Cannot call `env.render()` before calling `env.reset()`, if this is an intended "
                "action, set `disable_render_order_enforcing=True` on the OrderEnforcer wrapper."
            )
        return self.env.render()

    @property
    def has_reset(self) -> bool:
        """Whether ``reset`` has been called."""
        return self._has_reset

    def _extend_spec(self, env_spec: EnvSpec) -> EnvSpec:
        env_spec.order_enforce = True
        return env_spec


class PassiveEnvChecker(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Check the spaces at construction and the first reset, step and render results.

    After the first checks the wrapper forwards calls without further work.
    """

    snapshot_fields = ()  # which checks already ran is not episode state

    def __init__(self, env: Env[Any, Any]) -> None:
        RecordConstructorArgs.__init__(self)
        Wrapper.__init__(self, env)
        passive.check_action_space(passive.space_of(env, "action", passive.CUSTOM_ENV_GUIDE))
        passive.check_observation_space(passive.space_of(env, "observation", passive.CUSTOM_ENV_GUIDE))
        self.checked_reset = False
        self.checked_step = False
        self.checked_render = False
        self.close_called = False
        self.checked_data_reuse = False
        self._previous_data: tuple[Any, Any] | None = None

    def step(self, action: Any) -> Step:
        """Step; the first two steps are checked."""
        if not self.checked_step:
            self.checked_step = True
            result = passive.env_step_passive_checker(self.env, action)
            if self._previous_data is not None:
                passive.env_data_reuse_passive_checker(
                    self._previous_data, (result[0], result[-1]), "reset", "step"
                )
            self._previous_data = (result[0], result[-1])
            return result  # type: ignore[no-any-return]
        result = self.env.step(action)
        if not self.checked_data_reuse:
            self.checked_data_reuse = True
            if self._previous_data is not None:
                passive.env_data_reuse_passive_checker(
                    self._previous_data, (result[0], result[-1]), "step", "step"
                )
            self._previous_data = None
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset; the first reset is checked."""
        if not self.checked_reset:
            self.checked_reset = True
            result = passive.env_reset_passive_checker(self.env, seed=seed, options=options)
            self._previous_data = result if isinstance(result, tuple) and len(result) == 2 else None
            return result  # type: ignore[no-any-return]
        return self.env.reset(seed=seed, options=options)

    def render(self) -> Any:
        """Render; the first frame is checked."""
        if not self.checked_render:
            self.checked_render = True
            return passive.env_render_passive_checker(self.env)
        return self.env.render()

    def close(self) -> None:
        """Close; closing twice must work."""
        if not self.close_called:
            self.close_called = True
            return self.env.close()
        try:
            return self.env.close()
        except Exception:
            logger.warn(
                "Calling `env.close()` on the closed environment should be allowed, "
                "but it raised an exception."
            )
            raise

    def _extend_spec(self, env_spec: EnvSpec) -> EnvSpec:
        env_spec.disable_env_checker = False
        return env_spec


class Autoreset(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Reset the env on the step after an episode ends (NEXT_STEP semantics).

    That step ignores the action and returns the reset observation, reward 0, both flags
    False and the reset info.
    """

    def __init__(self, env: Env[Any, Any]) -> None:
        RecordConstructorArgs.__init__(self)
        Wrapper.__init__(self, env)
        self.autoreset = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset and clear the pending autoreset."""
        self.autoreset = False
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> Step:
        """Step, or reset if the previous step ended the episode."""
        if self.autoreset:
            obs, info = self.env.reset()
            reward: SupportsFloat = 0.0
            terminated = truncated = False
        else:
            obs, reward, terminated, truncated, info = self.env.step(action)
        self.autoreset = bool(terminated or truncated)
        return obs, reward, terminated, truncated, info


class RecordEpisodeStatistics(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Add ``info[stats_key] = {"r": return, "l": length, "t": seconds}`` at each episode end.

    The last ``buffer_length`` returns, lengths and times are kept in ``return_queue``,
    ``length_queue`` and ``time_queue``.

    Args:
        env: The env.
        buffer_length: How many episodes the queues keep.
        stats_key: The info key of the statistics.
    """

    def __init__(self, env: Env[Any, Any], buffer_length: int = 100, stats_key: str = "episode") -> None:
        RecordConstructorArgs.__init__(self, buffer_length=buffer_length, stats_key=stats_key)
        Wrapper.__init__(self, env)
        self._stats_key = stats_key
        self.episode_count = 0
        self.episode_start_time: float = -1
        self.episode_returns: Any = 0.0
        self.episode_lengths = 0
        self.time_queue: deque[float] = deque(maxlen=buffer_length)
        self.return_queue: deque[Any] = deque(maxlen=buffer_length)
        self.length_queue: deque[int] = deque(maxlen=buffer_length)

    def step(self, action: Any) -> Step:
        """Step and, at an episode end, record and report the statistics."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.episode_returns += reward
        self.episode_lengths += 1
        if terminated or truncated:
            if self._stats_key in info:
                raise ValueError(
                    f"RecordEpisodeStatistics: the env's info already has the key {self._stats_key!r}; "
                    "pass another stats_key"
                )
            elapsed = round(time.perf_counter() - self.episode_start_time, 6)
            info[self._stats_key] = {"r": self.episode_returns, "l": self.episode_lengths, "t": elapsed}
            self.return_queue.append(self.episode_returns)
            self.length_queue.append(self.episode_lengths)
            self.time_queue.append(elapsed)
            self.episode_count += 1
            self.episode_start_time = time.perf_counter()
        return obs, reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset and start counting a new episode."""
        obs, info = self.env.reset(seed=seed, options=options)
        self.episode_start_time = time.perf_counter()
        self.episode_returns = 0.0
        self.episode_lengths = 0
        return obs, info
