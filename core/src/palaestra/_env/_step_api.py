"""Converting step results between the old ``done`` API and ``terminated``/``truncated``.

The old API (gym < 0.26) returned ``(obs, reward, done, info)`` and marked a time-limit
end with ``info["TimeLimit.truncated"]``. These functions translate in both directions,
for single envs and for vector envs (infos as a list of dicts, or one dict of arrays), so
code on either side of the change can talk to the other.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, TypeAlias

import numpy as np

__all__ = [
    "DoneStepType",
    "TerminatedTruncatedStepType",
    "convert_to_done_step_api",
    "convert_to_terminated_truncated_step_api",
    "step_api_compatibility",
]

_KEY = "TimeLimit.truncated"

#: ``(obs, reward, done, info)``; batched flags and a list or dict of infos for vector envs.
DoneStepType: TypeAlias = tuple[
    Any, SupportsFloat | np.ndarray, bool | np.ndarray, dict[str, Any] | list[Any]
]
#: ``(obs, reward, terminated, truncated, info)``, likewise.
TerminatedTruncatedStepType: TypeAlias = tuple[
    Any, SupportsFloat | np.ndarray, bool | np.ndarray, bool | np.ndarray, dict[str, Any] | list[Any]
]


def _unpack(step_returns: tuple[Any, ...], length: int) -> Any:
    if len(step_returns) != length:
        raise ValueError(
            f"Expected a step result of 4 (done API) or 5 (terminated/truncated API) items, "
            f"got {len(step_returns)}."
        )
    return step_returns


def _infos_type_error(infos: Any) -> TypeError:
    return TypeError(  # Gymnasium's words (is_vector_envs=False, although it is True here), then ours
        "Unexpected value of infos, as is_vector_envs=False, expects `info` to be a list or dict, "
        f"actual type: {type(infos)}. A vector env's infos are a list of dicts or a dict of arrays."
    )


def convert_to_terminated_truncated_step_api(
    step_returns: DoneStepType | TerminatedTruncatedStepType, is_vector_env: bool = False
) -> TerminatedTruncatedStepType:
    """``(obs, reward, done, info)`` to ``(obs, reward, terminated, truncated, info)``.

    ``info["TimeLimit.truncated"]`` is removed from the info and decides whether a finished
    episode was truncated (true) or terminated. A 5-tuple is returned unchanged.

    Args:
        step_returns: What ``step`` returned, in either API.
        is_vector_env: Whether it came from a vector env (batched flags, list or dict infos).
    """
    if len(step_returns) == 5:
        return step_returns
    obs, rewards, dones, infos = _unpack(step_returns, 4)
    if not is_vector_env:
        truncated = infos.pop(_KEY, False)
        return obs, rewards, dones and not truncated, dones and truncated, infos
    if isinstance(infos, list):
        truncated = np.array([info.pop(_KEY, False) for info in infos])
    elif isinstance(infos, dict):
        truncated = infos.pop(_KEY, np.zeros(len(dones), dtype=bool))
    else:
        raise _infos_type_error(infos)
    return (
        obs,
        rewards,
        np.logical_and(dones, np.logical_not(truncated)),
        np.logical_and(dones, truncated),
        infos,
    )


def convert_to_done_step_api(
    step_returns: DoneStepType | TerminatedTruncatedStepType, is_vector_env: bool = False
) -> DoneStepType:
    """``(obs, reward, terminated, truncated, info)`` to ``(obs, reward, done, info)``.

    ``done`` is ``terminated or truncated``; when an episode ends the info gets
    ``"TimeLimit.truncated"``: true if it was truncated and not terminated. A 4-tuple is
    returned unchanged.

    Args:
        step_returns: What ``step`` returned, in either API.
        is_vector_env: Whether it came from a vector env (batched flags, list or dict infos).
    """
    if len(step_returns) == 4:
        return step_returns
    obs, rewards, terminated, truncated, infos = _unpack(step_returns, 5)
    if not is_vector_env:
        if terminated or truncated:
            infos[_KEY] = truncated and not terminated
        return obs, rewards, terminated or truncated, infos
    if isinstance(infos, list):
        for info, env_terminated, env_truncated in zip(infos, terminated, truncated, strict=True):
            if env_terminated or env_truncated:
                info[_KEY] = env_truncated and not env_terminated
    elif isinstance(infos, dict):
        if np.any(terminated) or np.any(truncated):
            infos[_KEY] = np.logical_and(truncated, np.logical_not(terminated))
    else:
        raise _infos_type_error(infos)
    return obs, rewards, np.logical_or(terminated, truncated), infos


def step_api_compatibility(
    step_returns: DoneStepType | TerminatedTruncatedStepType,
    output_truncation_bool: bool = True,
    is_vector_env: bool = False,
) -> DoneStepType | TerminatedTruncatedStepType:
    """A step result in the API you ask for, whichever API produced it.

    Args:
        step_returns: What ``step`` returned, in either API.
        output_truncation_bool: True for ``(obs, reward, terminated, truncated, info)``,
            False for ``(obs, reward, done, info)``.
        is_vector_env: Whether it came from a vector env.

    Example:
        >>> import palaestra
        >>> env = palaestra.make("CartPole-v1")
        >>> _ = env.reset(seed=0)
        >>> obs, reward, done, info = step_api_compatibility(env.step(0), output_truncation_bool=False)
        >>> done
        False
    """
    if output_truncation_bool:
        return convert_to_terminated_truncated_step_api(step_returns, is_vector_env)
    return convert_to_done_step_api(step_returns, is_vector_env)
