"""Single envs across the bridge: a palaestra env as a ``gymnasium.Env`` and the reverse."""

from __future__ import annotations

import copy
from typing import Any

import gymnasium
from gymnasium import spaces as gym_spaces

import palaestra
from palaestra import spaces
from palaestra.error import SnapshotNotSupported
from palaestra_gymnasium._adapter import Adapter, plug_in
from palaestra_gymnasium._spaces import from_gymnasium_space, to_gymnasium_space
from palaestra_gymnasium._specs import from_gymnasium_spec, to_gymnasium_spec

__all__ = ["FromGymnasiumEnv", "ToGymnasiumEnv"]


_SPACES = ("observation_space", "action_space")
_TO = (gym_spaces.GraphInstance, spaces.GraphInstance)
_FROM = (spaces.GraphInstance, gym_spaces.GraphInstance)


class ToGymnasiumEnv(Adapter, gymnasium.Env[Any, Any]):  # type: ignore[override]
    """A palaestra env (wrappers included) as a real ``gymnasium.Env``.

    Spaces are Gymnasium spaces sharing the palaestra spaces' generators; ``step`` and
    ``reset`` are the palaestra env's own; ``spec`` is a Gymnasium ``EnvSpec`` whose entry
    point builds the same env through palaestra; ``np_random``, ``metadata``,
    ``render_mode``, ``render`` and ``close`` are the palaestra env's; ``unwrapped`` is
    this adapter around the palaestra env's bare env, whose attributes it passes through.
    Usually made by :func:`palaestra_gymnasium.to_gymnasium`.

    Args:
        env: A palaestra env.

    Raises:
        TypeError: ``env`` is not a ``palaestra.Env``.
    """

    def __init__(self, env: palaestra.Env[Any, Any]) -> None:
        if not isinstance(env, palaestra.Env):
            raise TypeError(
                f"ToGymnasiumEnv takes a palaestra.Env, got {type(env).__name__}; "
                "use palaestra_gymnasium.to_gymnasium to convert envs, vector envs and spaces"
            )
        plug_in(self, env, to_gymnasium_space, _TO, _SPACES)

    @property
    def palaestra_env(self) -> palaestra.Env[Any, Any]:
        """The palaestra env inside."""
        return self._inner  # type: ignore[no-any-return]

    def _convert_spec(self, spec: Any) -> Any:
        return to_gymnasium_spec(spec)

    def _view(self, inner: Any) -> ToGymnasiumEnv:
        return ToGymnasiumEnv(inner)

    # Gymnasium's env checker inspects the bare env's generator attribute.
    @property
    def _np_random(self) -> Any:
        return self._inner._np_random

    @_np_random.setter
    def _np_random(self, value: Any) -> None:
        self._inner.np_random = value


class FromGymnasiumEnv(Adapter, palaestra.Env[Any, Any]):  # type: ignore[override]
    """A Gymnasium env (wrappers included) as a real ``palaestra.Env``.

    The mirror of :class:`ToGymnasiumEnv`: palaestra spaces sharing the Gymnasium spaces'
    generators, the Gymnasium env's own ``step``/``reset``, a palaestra ``EnvSpec``, and
    snapshots by copying the Gymnasium env where it can be deep-copied (pure-Python state,
    as Gymnasium's classic-control and toy-text envs have). Usually made by
    :func:`palaestra_gymnasium.from_gymnasium`.

    Args:
        env: A ``gymnasium.Env``.

    Raises:
        TypeError: ``env`` is not a ``gymnasium.Env``.
    """

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        if not isinstance(env, gymnasium.Env):
            raise TypeError(
                f"FromGymnasiumEnv takes a gymnasium.Env, got {type(env).__name__}; "
                "use palaestra_gymnasium.from_gymnasium to convert envs, vector envs and spaces"
            )
        plug_in(self, env, from_gymnasium_space, _FROM, _SPACES)

    @property
    def gymnasium_env(self) -> gymnasium.Env[Any, Any]:
        """The Gymnasium env inside (replaced by a copy when a snapshot is restored)."""
        return self._inner  # type: ignore[no-any-return]

    def _convert_spec(self, spec: Any) -> Any:
        return from_gymnasium_spec(spec)

    def _view(self, inner: Any) -> FromGymnasiumEnv:
        return FromGymnasiumEnv(inner)

    # palaestra's snapshots record the generator through these.
    @property
    def _np_random(self) -> Any:  # type: ignore[override]
        return self._inner.np_random

    @property
    def _np_random_seed(self) -> Any:  # type: ignore[override]
        return self._inner.np_random_seed

    def _snapshot_state(self) -> dict[str, Any]:
        try:
            return {"gymnasium_env": copy.deepcopy(self._inner)}
        except Exception as e:
            raise SnapshotNotSupported(
                f"{self} cannot take snapshots: its Gymnasium env cannot be deep-copied "
                f"({type(e).__name__}: {e}); Gymnasium has no snapshot API for it to use instead"
            ) from e

    def _restore_snapshot(self, snapshot: palaestra.Snapshot) -> None:
        # The copy holds the generator too: restoring it restores everything.
        restored = copy.deepcopy(snapshot.state["gymnasium_env"])
        self._inner.close()
        plug_in(self, restored, from_gymnasium_space, _FROM, _SPACES)
