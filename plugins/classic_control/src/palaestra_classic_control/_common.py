"""Helpers shared by the classic-control envs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

from palaestra.error import InvalidResetOptions
from palaestra.plugin import asserted_invalid, invalid_action, warn_no_render_mode

__all__ = [
    "INSTALL_HINT",
    "Constant",
    "asserted_invalid",
    "invalid_action",
    "parse_reset_bounds",
    "to_float",
    "warn_no_render_mode",
]

# What to install for rendering, named in the error when pygame is missing.
INSTALL_HINT = 'pip install "palaestra[render]"  (or: pip install pygame-ce)'


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
    if not isinstance(options, Mapping):
        raise InvalidResetOptions(
            f"reset: options must be a dict (or None), got {options!r} ({type(options).__name__}); "
            "e.g. reset(options={'low': -0.1, 'high': 0.1})"
        )
    low = to_float(options.get("low", low), "low")
    high = to_float(options.get("high", high), "high")
    if low > high:
        raise ValueError(f"Lower bound ({low}) must be lower than higher bound ({high}).")
    return low, high


class Constant:
    """A physical constant of an env, read and written like a plain attribute.

    The step functions read their constants from one tuple instead of a dozen attribute
    lookups; setting a constant on an env (``env.unwrapped.gravity = 9.81``) tells the
    env, through ``env._constants_changed()``, to rebuild that tuple.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, env: Any, owner: type | None = None) -> Any:
        return self if env is None else env.__dict__[self.slot]

    def __set__(self, env: Any, value: Any) -> None:
        env.__dict__[self.slot] = value
        env._constants_changed()
