"""Helpers shared by the classic-control envs."""

from __future__ import annotations

from typing import Any, SupportsFloat

from palaestra import logger, spaces
from palaestra.error import InvalidAction

__all__ = ["invalid_action", "parse_reset_bounds", "to_float", "warn_no_render_mode"]


def to_float(value: SupportsFloat, name: str = "option") -> float:
    """Convert a reset option to ``float``, naming it when that fails."""
    try:
        return float(value)
    except (ValueError, TypeError) as e:
        raise ValueError(f"An option ({name}={value!r}) could not be converted to a float.") from e


def parse_reset_bounds(options: dict[str, Any] | None, low: float, high: float) -> tuple[float, float]:
    """Read ``options["low"]``/``options["high"]`` (defaults otherwise) and check their order."""
    if options is None:
        return low, high
    low = to_float(options.get("low", low), "low")
    high = to_float(options.get("high", high), "high")
    if low > high:
        raise ValueError(f"Lower bound ({low}) must be lower than higher bound ({high}).")
    return low, high


def invalid_action(env: Any, action: Any, space: spaces.Space[Any]) -> InvalidAction:
    """The error for an action outside ``space``."""
    return InvalidAction(
        f"{type(env).__name__}.step: action {action!r} ({type(action).__name__}) is not in the "
        f"action space {space}"
    )


def warn_no_render_mode(env: Any) -> None:
    """Warn that ``render`` was called on an env made without a render mode."""
    env_id = env.spec.id if env.spec is not None else type(env).__name__
    logger.warn(
        "You are calling render method without specifying any render mode. You can specify "
        f'the render_mode at initialization, e.g. palaestra.make("{env_id}", render_mode="rgb_array")'
    )
