"""Checks of the arguments every vector env and ``make`` share, worded once.

``num_envs`` and ``max_episode_steps`` reach many constructors (the vectorizers, every natively
batched env, ``TimeLimit``); each checks them here so the words, the error classes and what
counts as an integer (NumPy integers do for ``num_envs``, as in Gymnasium) are the same
everywhere.
"""

from __future__ import annotations

import numbers
from typing import Any

from palaestra.error import InvalidEnvArguments, InvalidEnvArgumentValue

__all__ = ["check_flag", "check_max_episode_steps", "check_num_envs"]


def _is_integer(value: Any) -> bool:
    return (
        isinstance(value, numbers.Integral)
        and not isinstance(value, bool)
        and type(value).__name__ != "bool_"
    )


def check_num_envs(num_envs: Any) -> int:
    """``num_envs`` as an ``int``: a positive integer (a NumPy integer too).

    Raises:
        InvalidEnvArgumentValue: Anything else (a ``TypeError`` and a ``ValueError``).
    """
    if not _is_integer(num_envs) or num_envs < 1:
        raise InvalidEnvArgumentValue(
            f"num_envs must be a positive integer, got {num_envs!r}; pass how many sub-envs to "
            "run side by side (1 or more)"
        )
    return int(num_envs)


def check_max_episode_steps(value: Any) -> int | None:
    """``max_episode_steps``: None (no limit) or a positive ``int``, in Gymnasium's words.

    Raises:
        InvalidEnvArguments: Not an ``int`` (a ``TypeError``, as in Gymnasium).
        InvalidEnvArgumentValue: Not positive (a ``ValueError``, as in Gymnasium).
    """
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidEnvArguments(
            f"Expect the `max_episode_steps` to be an integer, actually: {type(value)}. Pass a "
            "positive int (steps before the episode is truncated), or None for the spec's limit."
        )
    if value <= 0:
        raise InvalidEnvArgumentValue(
            f"Expect the `max_episode_steps` to be positive, actually: {value}. Pass a positive "
            "int (steps before the episode is truncated), or None for the spec's limit."
        )
    return value


def check_flag(value: Any, name: str, meaning: str) -> bool:
    """A ``True``/``False`` setting (a NumPy bool too); ``meaning`` says what True does.

    Raises:
        InvalidEnvArguments: Anything else, naming ``name`` (a ``TypeError``).
    """
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise InvalidEnvArguments(f"{name} must be True or False ({meaning}), got {value!r}")
