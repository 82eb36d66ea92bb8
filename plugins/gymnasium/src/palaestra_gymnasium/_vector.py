"""Vector envs across the bridge: a palaestra ``VectorEnv`` as Gymnasium's, and the reverse.

Batches are the same objects in both libraries (arrays, and info dicts of arrays with
``_key`` masks); only the autoreset mode (``metadata["autoreset_mode"]`` and the
``autoreset_mode`` attribute) names each library's own enum.
"""

from __future__ import annotations

from typing import Any

import gymnasium
from gymnasium import spaces as gym_spaces
from gymnasium.vector import AutoresetMode as GymnasiumAutoresetMode

import palaestra
from palaestra import spaces
from palaestra.vector import AutoresetMode
from palaestra_gymnasium._adapter import Adapter, plug_in
from palaestra_gymnasium._spaces import from_gymnasium_space, to_gymnasium_space
from palaestra_gymnasium._specs import from_gymnasium_spec, to_gymnasium_spec

__all__ = ["FromGymnasiumVectorEnv", "ToGymnasiumVectorEnv"]

# step and reset deal in the first two.
_SPACES = ("observation_space", "action_space", "single_observation_space", "single_action_space")


def _plug_in(adapter: Adapter, inner: Any, to_space: Any, graphs: tuple[type, type], mode: Any) -> None:
    """Set up a vector adapter: :func:`plug_in` plus metadata with this library's autoreset enum."""
    plug_in(adapter, inner, to_space, graphs, _SPACES)
    object.__setattr__(adapter, "num_envs", inner.num_envs)
    metadata = dict(inner.metadata)
    if "autoreset_mode" in metadata:
        metadata["autoreset_mode"] = mode(metadata["autoreset_mode"].value)
    object.__setattr__(adapter, "_metadata", metadata)
    own_mode = getattr(inner, "autoreset_mode", None)  # libraries (TorchRL) read the attribute too
    if own_mode is not None:
        object.__setattr__(adapter, "autoreset_mode", mode(getattr(own_mode, "value", own_mode)))


class _VectorAdapter(Adapter):
    """What both vector adapters add to :class:`Adapter`."""

    _metadata: dict[str, Any]

    @property
    def metadata(self) -> Any:
        """The inner env's metadata with this library's ``AutoresetMode``."""
        return self._metadata

    @metadata.setter
    def metadata(self, value: Any) -> None:
        self._metadata = value

    @property
    def closed(self) -> bool:
        """Whether the inner vector env is closed."""
        return bool(self._inner.closed)

    @closed.setter
    def closed(self, value: bool) -> None:
        pass  # the inner env keeps its own state

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call ``name`` on every sub-env (the inner vector env's ``call``)."""
        return self._inner.call(name, *args, **kwargs)  # type: ignore[no-any-return]

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every sub-env."""
        return self._inner.get_attr(name)  # type: ignore[no-any-return]

    def set_attr(self, name: str, values: Any) -> None:
        """Set attribute ``name`` of the sub-envs."""
        self._inner.set_attr(name, values)


class ToGymnasiumVectorEnv(_VectorAdapter, gymnasium.vector.VectorEnv[Any, Any, Any]):  # type: ignore[override]
    """A palaestra vector env (native, sync, async, Ray) as a real ``gymnasium.vector.VectorEnv``.

    Batched and single spaces are converted (sharing generators), ``step``/``reset`` are
    the palaestra env's own, ``metadata["autoreset_mode"]`` is Gymnasium's enum;
    ``call``/``get_attr``/``set_attr``, ``render``, ``close``, ``np_random`` and ``spec``
    pass through. Usually made by :func:`palaestra_gymnasium.to_gymnasium`.

    Args:
        env: A ``palaestra.vector.VectorEnv``.

    Raises:
        TypeError: ``env`` is not a palaestra ``VectorEnv``.
    """

    def __init__(self, env: palaestra.vector.VectorEnv[Any, Any, Any]) -> None:
        if not isinstance(env, palaestra.vector.VectorEnv):
            raise TypeError(
                f"ToGymnasiumVectorEnv takes a palaestra.vector.VectorEnv, got {type(env).__name__}"
            )
        _plug_in(
            self,
            env,
            to_gymnasium_space,
            (gym_spaces.GraphInstance, spaces.GraphInstance),
            GymnasiumAutoresetMode,
        )

    @property
    def palaestra_env(self) -> palaestra.vector.VectorEnv[Any, Any, Any]:
        """The palaestra vector env inside."""
        return self._inner  # type: ignore[no-any-return]

    def _convert_spec(self, spec: Any) -> Any:
        return to_gymnasium_spec(spec)

    def _view(self, inner: Any) -> ToGymnasiumVectorEnv:
        return ToGymnasiumVectorEnv(inner)


class FromGymnasiumVectorEnv(_VectorAdapter, palaestra.vector.VectorEnv[Any, Any, Any]):  # type: ignore[override]
    """A Gymnasium vector env as a real ``palaestra.vector.VectorEnv``.

    The mirror of :class:`ToGymnasiumVectorEnv`. Usually made by
    :func:`palaestra_gymnasium.from_gymnasium`.

    Args:
        env: A ``gymnasium.vector.VectorEnv``.

    Raises:
        TypeError: ``env`` is not a Gymnasium ``VectorEnv``.
    """

    def __init__(self, env: gymnasium.vector.VectorEnv[Any, Any, Any]) -> None:
        if not isinstance(env, gymnasium.vector.VectorEnv):
            raise TypeError(
                f"FromGymnasiumVectorEnv takes a gymnasium.vector.VectorEnv, got {type(env).__name__}"
            )
        _plug_in(
            self, env, from_gymnasium_space, (spaces.GraphInstance, gym_spaces.GraphInstance), AutoresetMode
        )

    @property
    def gymnasium_env(self) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
        """The Gymnasium vector env inside."""
        return self._inner  # type: ignore[no-any-return]

    def _convert_spec(self, spec: Any) -> Any:
        return from_gymnasium_spec(spec)

    def _view(self, inner: Any) -> FromGymnasiumVectorEnv:
        return FromGymnasiumVectorEnv(inner)
