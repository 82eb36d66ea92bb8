"""Checks of the arguments every vector env and ``make`` share, worded once.

``num_envs`` and ``max_episode_steps`` reach many constructors (the vectorizers, every natively
batched env, ``TimeLimit``); each checks them here so the words, the error classes and what
counts as an integer (NumPy integers do for ``num_envs``, as in Gymnasium) are the same
everywhere.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

from palaestra._base._notes import noted
from palaestra.error import InvalidEnvArguments, InvalidEnvArgumentValue

__all__ = [
    "FOREVER_SECONDS",
    "check_flag",
    "check_max_episode_steps",
    "check_num_envs",
    "check_sub_env_objects",
    "check_timeout",
    "unknown_keyword",
]

#: Timeouts at least this long (about 24.8 days: the most milliseconds ``poll`` takes) wait
#: forever, as None does.
FOREVER_SECONDS = (2**31 - 1) / 1000


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


#: More sub-envs than a vectorizer of Python env objects can sensibly hold (about 10 KB each at
#: the least): a mistyped count fails at once rather than filling memory for minutes.
MAX_SUB_ENV_OBJECTS = 2**20


def check_sub_env_objects(num_envs: int, who: str) -> int:
    """``num_envs``, unless ``who`` (a vector env of one Python env per sub-env) cannot hold that many.

    Raises:
        InvalidEnvArgumentValue: More than :data:`MAX_SUB_ENV_OBJECTS`, before anything is built.
    """
    if num_envs > MAX_SUB_ENV_OBJECTS:
        raise InvalidEnvArgumentValue(
            f"num_envs={num_envs:,} is too many for {who}: it holds one Python env per sub-env (at "
            f"most {MAX_SUB_ENV_OBJECTS:,}). Pass fewer sub-envs"
        )
    return num_envs


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
        InvalidEnvArgumentValue: Anything else, naming ``name`` (a ``TypeError``, and a
            ``ValueError`` as NumPy's "truth value ... is ambiguous" is).
    """
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise InvalidEnvArgumentValue(f"{name} must be True or False ({meaning}), got {value!r:.80}")


def check_timeout(value: Any, name: str) -> float | None:
    """A timeout in seconds: None (wait forever) or a positive number.

    A timeout of :data:`FOREVER_SECONDS` or more (``float("inf")``, ``1e308``) waits forever too:
    no ``poll`` counts that far.

    Raises:
        InvalidEnvArgumentValue: Anything else, naming ``name`` (a ``TypeError`` and a ``ValueError``).
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not float(value) > 0:
        raise InvalidEnvArgumentValue(
            f"{name} must be a positive number of seconds or None (wait as long as it takes), got {value!r:.80}"
        )
    seconds = float(value)
    return None if seconds >= FOREVER_SECONDS else seconds


def unknown_keyword(call: str, key: str, valid: Iterable[str]) -> InvalidEnvArguments:
    """The error for a keyword ``call`` does not take: Python's words (a ``TypeError``), then what it takes."""
    import difflib  # start-up: an error path (1.2 ms)

    names = sorted(valid)
    close = difflib.get_close_matches(key, names, n=1)
    return noted(
        InvalidEnvArguments(f"{call} got an unexpected keyword argument {key!r}"),
        (f"Did you mean {close[0]!r}? " if close else "") + f"{call} takes: {', '.join(names)}.",
    )
