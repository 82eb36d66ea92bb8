"""Running environments written for the Gym 0.21 API.

Such an env has ``seed(seed)``, ``reset()`` returning only the observation,
``step(action)`` returning ``(obs, reward, done, info)`` and ``render(mode=...)``.
:class:`EnvCompatibility` presents it with the current API; ``register(...,
apply_api_compatibility=True)`` makes ``make`` apply it.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

from palaestra import logger
from palaestra._env._core import Env
from palaestra.error import Error

__all__ = ["EnvCompatibility", "LegacyEnv", "convert_to_terminated_truncated"]

# The info key a Gym 0.21 TimeLimit set when it, not the task, ended the episode.
TRUNCATION_KEY = "TimeLimit.truncated"

LegacyEnv = Any  # any object with the Gym 0.21 methods; it need not subclass anything


def convert_to_terminated_truncated(
    step: tuple[Any, SupportsFloat, bool, dict[str, Any]],
) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
    """Split a Gym 0.21 ``done`` into ``terminated`` and ``truncated``.

    ``info["TimeLimit.truncated"]`` (removed from the info) marks a time-limit end; any
    other ``done`` is a termination.
    """
    obs, reward, done, info = step
    truncated = bool(info.pop(TRUNCATION_KEY, False))
    done = bool(done)
    return obs, reward, done and not truncated, done and truncated, info


def _legacy_render_modes(env: Any) -> list[str]:
    metadata = getattr(env, "metadata", None) or {}
    return list(metadata.get("render_modes", metadata.get("render.modes", [])))


class EnvCompatibility(Env[Any, Any]):
    """Present a Gym 0.21-API env with the current API.

    ``reset(seed=...)`` seeds through the old env's ``seed()``; ``step`` splits ``done``
    using ``info["TimeLimit.truncated"]``; the render mode is fixed here, at
    construction, and passed to the old ``render(mode=...)``.

    Args:
        old_env: The Gym 0.21-API env.
        render_mode: The render mode (one of the old env's ``render.modes``), or ``None``.

    Raises:
        TypeError: ``old_env`` lacks ``reset`` or ``step``.
        ValueError: ``render_mode`` is not one the old env declares.
    """

    def __init__(self, old_env: LegacyEnv, render_mode: str | None = None) -> None:
        missing = [name for name in ("reset", "step") if not callable(getattr(old_env, name, None))]
        if missing:
            raise TypeError(f"{type(old_env).__name__} is not a Gym 0.21-API env: it has no {missing}")
        modes = _legacy_render_modes(old_env)
        if render_mode is not None and render_mode not in modes:
            raise ValueError(
                f"render_mode={render_mode!r} is not supported by {type(old_env).__name__}; it declares "
                f"render modes {modes} (metadata['render.modes'])"
            )
        self.env = old_env
        self.metadata = {**(getattr(old_env, "metadata", None) or {}), "render_modes": modes}
        if "video.frames_per_second" in self.metadata:  # the Gym 0.21 name of render_fps
            self.metadata.setdefault("render_fps", self.metadata["video.frames_per_second"])
        self.render_mode = render_mode
        self.observation_space = old_env.observation_space
        self.action_space = old_env.action_space
        self.reward_range = getattr(old_env, "reward_range", (-float("inf"), float("inf")))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Seed (if given) with the old ``seed()``, then reset; the info is empty.

        Raises:
            palaestra.error.Error: A seed was given but the old env has no ``seed()``.
        """
        if seed is not None:
            seeder = getattr(self.env, "seed", None)
            if not callable(seeder):
                raise Error(
                    f"{type(self.env).__name__} has no seed() method, so reset(seed={seed}) cannot seed it"
                )
            seeder(seed)
        if options:
            logger.warn(f"Gym 0.21-API envs take no reset options; ignoring {sorted(options)}")
        obs = self.env.reset()
        if self.render_mode == "human":
            self.render()
        return obs, {}

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step and split ``done`` into ``terminated`` and ``truncated``."""
        result = self.env.step(action)
        if len(result) != 4:
            raise TypeError(
                f"{type(self.env).__name__}.step returned {len(result)} values; a Gym 0.21-API env returns "
                "(obs, reward, done, info). Envs with the current API need no compatibility wrapper."
            )
        if self.render_mode == "human":
            self.render()
        return convert_to_terminated_truncated(result)

    def render(self) -> Any:
        """The old ``render(mode=render_mode)``; ``None`` without a render mode."""
        if self.render_mode is None:
            logger.warn(
                "EnvCompatibility.render() was called without a render_mode; pass one at construction"
            )
            return None
        return self.env.render(mode=self.render_mode)

    def close(self) -> None:
        """Close the old env."""
        self.env.close()

    def __repr__(self) -> str:
        return f"<EnvCompatibility{type(self.env).__name__}>"
