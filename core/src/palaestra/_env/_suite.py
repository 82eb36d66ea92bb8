"""Small helpers shared by environment suites (palaestra's own plugins and third-party ones)."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra import logger
from palaestra.error import InvalidAction, ResetNeeded
from palaestra.spaces import Space

__all__ = [
    "asserted_invalid",
    "expected_action",
    "invalid_action",
    "invalid_actions",
    "invalid_batch",
    "non_finite_note",
    "real_array",
    "render_before_reset",
    "step_before_reset",
    "warn_no_render_mode",
]


def invalid_action(env: Any, action: Any, space: Space[Any], reference_words: str = "") -> InvalidAction:
    """The error for an action outside ``space``: names the env, the action, and what was expected.

    ``reference_words``, the reference implementation's message for the same mistake, comes
    first, so patterns written against it keep matching.
    """
    first = f"{reference_words} " if reference_words else ""
    return InvalidAction(
        f"{first}{type(env).__name__}.step: action {action!r} ({type(action).__name__}) is not in the "
        f"action space {space}{non_finite_note(action)}; {expected_action(space, action)}"
    )


def asserted_invalid(action: Any) -> str:
    """Gymnasium's words for an action its envs ``assert`` (CartPole, MountainCar, LunarLander)."""
    return f"{action!r} ({type(action)}) invalid"


def invalid_actions(vector_env: Any, actions: Any, reference_words: str = "") -> InvalidAction:
    """The error for a batch of actions outside a vector env's ``action_space`` (what was expected too).

    ``reference_words`` as for :func:`invalid_action`.
    """
    first = f"{reference_words} " if reference_words else ""
    return invalid_batch(f"{first}{type(vector_env).__name__}", vector_env.action_space, actions)


def invalid_batch(owner: str, space: Space[Any], actions: Any) -> InvalidAction:
    """:func:`invalid_actions` for a batch of ``space`` that ``owner`` (a class name) refused."""
    return InvalidAction(
        f"{owner}.step: actions {actions!r} are not in the action space "
        f"{space}{non_finite_note(actions)}; {expected_action(space, actions)}"
    )


def step_before_reset(vector_env: Any) -> ResetNeeded:
    """The error for stepping a vector env before its first reset: Gymnasium's words, then whose."""
    return ResetNeeded(
        f"Cannot call env.step() before calling env.reset() ({type(vector_env).__name__}: reset it once, "
        "with a seed for repeatable runs, before its first step)"
    )


def render_before_reset(vector_env: Any) -> ResetNeeded:
    """The error for rendering a vector env before its first reset: Gymnasium's words, then whose."""
    return ResetNeeded(
        f"Cannot call `env.render()` before calling `env.reset()` ({type(vector_env).__name__} has no "
        "state to draw until its first reset)"
    )


def expected_action(space: Space[Any], action: Any) -> str:
    """What an action of ``space`` looks like, and how ``action`` differs (for error messages)."""
    shape = getattr(space, "shape", None)
    dtype = getattr(space, "dtype", None)
    got = _described(action)
    if space.__class__.__name__ == "Discrete":
        start, n = int(space.start), int(space.n)  # type: ignore[attr-defined]
        return f"expected an integer in [{start}, {start + n - 1}], got {got}"
    if dtype is not None and shape is not None and np.dtype(dtype).kind == "f":
        return (
            f"expected real numbers (an int or float array, or a list of numbers) of shape {shape}, got {got}"
        )
    if dtype is not None and shape is not None:
        return f"expected an integer array of shape {shape}, got {got}"
    return f"expected an element of the action space (action_space.sample() is one), got {got}"


def _described(action: Any) -> str:
    if isinstance(action, np.ndarray):
        return f"an array of dtype {action.dtype} and shape {action.shape}"
    if action is None:
        return "None"
    if isinstance(action, (str, bytes, dict, bool, complex)):
        return f"{type(action).__name__} {action!r}"
    if isinstance(action, (list, tuple)):
        try:
            values = np.asarray(action)
        except ValueError:
            return f"a ragged {type(action).__name__}"
        return f"a {type(action).__name__} of {values.dtype} values and shape {values.shape}"
    return type(action).__name__


def real_array(action: Any) -> np.ndarray | None:
    """``action`` as an array of real numbers (its own int or float dtype), or None if it is not one.

    Strings, bools, complex numbers and other objects are not real numbers, even where numpy
    would convert them (``"1"`` -> 1.0, ``True`` -> 1.0, ``1+0j`` -> 1.0 with a warning).
    """
    if action.__class__ is not np.ndarray:
        try:
            action = np.asarray(action)
        except (TypeError, ValueError):
            return None
    return action if action.dtype.kind in "fiu" else None


def non_finite_note(action: Any) -> str:
    """For an error message: why an action holding NaN or an infinity is refused (else "")."""
    values = real_array(action)
    if values is None or values.size == 0 or np.isfinite(values).all():
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
