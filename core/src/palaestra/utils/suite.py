"""Small helpers shared by environment suites (palaestra's own plugins and third-party ones)."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra import logger
from palaestra.error import InvalidAction
from palaestra.spaces import Space

__all__ = ["invalid_action", "non_finite_note", "warn_no_render_mode"]


def invalid_action(env: Any, action: Any, space: Space[Any]) -> InvalidAction:
    """The error for an action outside ``space``, naming the env, the action and the space."""
    return InvalidAction(
        f"{type(env).__name__}.step: action {action!r} ({type(action).__name__}) is not in the "
        f"action space {space}{non_finite_note(action)}"
    )


def non_finite_note(action: Any) -> str:
    """For an error message: why an action holding NaN or an infinity is refused (else "")."""
    try:
        values = np.asarray(action, dtype=np.float64)
    except (TypeError, ValueError):
        return ""
    if values.size == 0 or np.isfinite(values).all():
        return ""
    return (
        "; NaN and infinite values are not actions (a finite value beyond the bounds is clipped, "
        "as Gymnasium clips it): check the policy that produced it"
    )


def warn_no_render_mode(env: Any) -> None:
    """Warn that ``render`` was called on an env made without a render mode."""
    env_id = env.spec.id if env.spec is not None else type(env).__name__
    logger.warn(
        "You are calling render method without specifying any render mode. You can specify "
        f'the render_mode at initialization, e.g. palaestra.make("{env_id}", render_mode="rgb_array")'
    )
