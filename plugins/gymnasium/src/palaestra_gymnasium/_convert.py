"""``to_gymnasium`` and ``from_gymnasium``: one call for envs, vector envs, spaces and specs."""

from __future__ import annotations

from typing import Any

import gymnasium
from gymnasium.envs.registration import EnvSpec as GymnasiumEnvSpec

import palaestra
from palaestra_gymnasium._envs import FromGymnasiumEnv, ToGymnasiumEnv
from palaestra_gymnasium._spaces import from_gymnasium_space, to_gymnasium_space
from palaestra_gymnasium._specs import from_gymnasium_spec, to_gymnasium_spec
from palaestra_gymnasium._vector import FromGymnasiumVectorEnv, ToGymnasiumVectorEnv

__all__ = ["from_gymnasium", "to_gymnasium"]


def to_gymnasium(obj: Any) -> Any:
    """Present a palaestra object as Gymnasium's.

    Args:
        obj: A ``palaestra.Env`` (wrappers included) -> :class:`ToGymnasiumEnv`; a
            ``palaestra.vector.VectorEnv`` -> :class:`ToGymnasiumVectorEnv`; a space -> the
            equal Gymnasium space (sharing its generator); an ``EnvSpec`` -> a Gymnasium
            ``EnvSpec``. An adapter made by :func:`from_gymnasium` gives back the Gymnasium
            object it holds; a Gymnasium object is returned as it is.

    Raises:
        TypeError: ``obj`` is none of these.
    """
    if isinstance(obj, FromGymnasiumEnv | FromGymnasiumVectorEnv):
        return obj._inner
    if isinstance(obj, gymnasium.Env | gymnasium.vector.VectorEnv | gymnasium.Space | GymnasiumEnvSpec):
        return obj
    if isinstance(obj, palaestra.Env):
        return ToGymnasiumEnv(obj)
    if isinstance(obj, palaestra.vector.VectorEnv):
        return ToGymnasiumVectorEnv(obj)
    if isinstance(obj, palaestra.EnvSpec):
        return to_gymnasium_spec(obj)
    if isinstance(obj, palaestra.spaces.Space):
        return to_gymnasium_space(obj)
    raise TypeError(
        f"to_gymnasium takes a palaestra env, vector env, space or EnvSpec, got {type(obj).__name__}"
    )


def from_gymnasium(obj: Any) -> Any:
    """Present a Gymnasium object as palaestra's (the mirror of :func:`to_gymnasium`).

    Args:
        obj: A ``gymnasium.Env`` -> :class:`FromGymnasiumEnv`; a Gymnasium ``VectorEnv`` ->
            :class:`FromGymnasiumVectorEnv`; a space or ``EnvSpec`` -> palaestra's. An adapter
            made by :func:`to_gymnasium` gives back the palaestra object it holds; a
            palaestra object is returned as it is.

    Raises:
        TypeError: ``obj`` is none of these.
    """
    if isinstance(obj, ToGymnasiumEnv | ToGymnasiumVectorEnv):
        return obj._inner
    if isinstance(
        obj, palaestra.Env | palaestra.vector.VectorEnv | palaestra.spaces.Space | palaestra.EnvSpec
    ):
        return obj
    if isinstance(obj, gymnasium.Env):
        return FromGymnasiumEnv(obj)
    if isinstance(obj, gymnasium.vector.VectorEnv):
        return FromGymnasiumVectorEnv(obj)
    if isinstance(obj, GymnasiumEnvSpec):
        return from_gymnasium_spec(obj)
    if isinstance(obj, gymnasium.Space):
        return from_gymnasium_space(obj)
    raise TypeError(
        f"from_gymnasium takes a Gymnasium env, vector env, space or EnvSpec, got {type(obj).__name__}"
    )
