"""What runs inside one Ray actor: a contiguous block of sub-envs as a SyncVectorEnv.

The class is plain Python; :mod:`palaestra_ray._vector` turns it into a Ray actor class
when the first RayVectorEnv is built, so importing this module does not import Ray.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from palaestra.plugin import SyncVectorEnv, VectorSnapshot

__all__ = ["EnvBlock"]


class EnvBlock:
    """Sub-envs ``first .. first + len(env_fns) - 1`` of a RayVectorEnv.

    Every exception a sub-env raises leaves with ``sub_env_index`` set to that env's
    index in the whole vector env; the block keeps serving afterwards.
    """

    def __init__(self, first: int) -> None:
        # Kept trivial: an actor whose constructor raises dies, and its error would only
        # reach the driver as an ActorDiedError. Envs are built by ``build``.
        self.first = first
        self.envs: list[Any] = []
        self.vector: SyncVectorEnv | None = None
        self.reset_on_next_step = False

    def build(self, env_fns: Sequence[Callable[[], Any]]) -> list[tuple[Any, Any, dict[str, Any], Any]]:
        """Build the block's envs; each one's spaces, metadata and render mode."""
        for k, env_fn in enumerate(env_fns):
            try:
                self.envs.append(env_fn())
            except Exception as e:
                self._tag(e, k)
                raise
        return [(e.observation_space, e.action_space, dict(e.metadata), e.render_mode) for e in self.envs]

    def start(self, observation_mode: str, autoreset_mode: Any) -> int:
        """Batch the built envs (their spaces already checked by the driver); the pid."""
        self.vector = SyncVectorEnv(
            [_given(env) for env in self.envs],
            copy=False,  # the result is serialised before the next step changes it
            observation_mode=observation_mode,
            autoreset_mode=autoreset_mode,
        )
        return os.getpid()

    def reset(self, seeds: list[Any], options: dict[str, Any] | None) -> tuple[Any, dict[str, Any]]:
        """``SyncVectorEnv.reset`` with this block's seeds (and part of the reset mask)."""
        self.reset_on_next_step = False
        return self._run(lambda v: v.reset(seed=seeds, options=options))  # type: ignore[no-any-return]

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """``SyncVectorEnv.step`` with this block's actions (or the autoreset a restart left pending)."""
        if self.reset_on_next_step:  # NEXT_STEP after the truncation a restart reported
            self.reset_on_next_step = False
            observations, infos = self._run(lambda v: v.reset())
            n = len(self.envs)
            return observations, np.zeros(n), np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_), infos
        return self._run(lambda v: v.step(actions))  # type: ignore[no-any-return]

    def observations(self) -> tuple[Any, dict[str, Any]]:
        """The block's current observations, as a reset that leaves the block alone gives them."""
        return self._run(lambda v: (v.current_observations(), {}))  # type: ignore[no-any-return]

    def reset_sub_env(self, j: int, seed: Any, options: dict[str, Any] | None) -> Any:
        """Reset sub-env ``j`` of the block alone (async_reset)."""
        return self._run(lambda v: _tagged(lambda: v.reset_sub_env(j, seed, options), j))

    def step_sub_env(self, j: int, action: Any) -> Any:
        """Step sub-env ``j`` of the block alone (send)."""
        return self._run(lambda v: _tagged(lambda: v.step_sub_env(j, action), j))

    def restarted(self, next_step_resets: bool) -> tuple[Any, dict[str, Any]]:
        """Reset a block rebuilt after its actor was lost; with ``next_step_resets``, the next step resets again.

        The driver reports the block's rows as truncated in the step that noticed the loss;
        in NEXT_STEP mode the step after a truncation is the autoreset, as in SyncVectorEnv.
        """
        self.reset_on_next_step = next_step_resets
        return self._run(lambda v: v.reset())  # type: ignore[no-any-return]

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """Call (or read) ``name`` on every env of the block.

        Not ``SyncVectorEnv.call``: its own ``name`` parameter would clash with a method
        that takes a ``name`` keyword.
        """
        results = []
        for k, env in enumerate(self.envs):
            try:
                value = env.get_wrapper_attr(name)
                results.append(value(*args, **kwargs) if callable(value) else value)
            except Exception as e:
                self._tag(e, k)
                raise
        return tuple(results)

    def set_attr(self, name: str, values: list[Any]) -> None:
        """Set ``name`` on every env of the block, one value each."""
        self._run(lambda v: v.set_attr(name, values))

    def snapshot(self) -> VectorSnapshot:
        """The block's sub-envs' states."""
        return self._run(lambda v: v.snapshot())  # type: ignore[no-any-return]

    def restore(self, snapshot: VectorSnapshot) -> None:
        """Restore the block (every snapshot is checked before any env changes)."""
        self._run(lambda v: v.restore(snapshot))

    def close(self) -> None:
        """Close every env of the block, ignoring failures of single envs."""
        for env in self.envs:
            with contextlib.suppress(Exception):  # closing one must not stop the others
                env.close()

    def _run(self, operation: Callable[[SyncVectorEnv], Any]) -> Any:
        assert self.vector is not None, "EnvBlock.start() was not called"
        try:
            return operation(self.vector)
        except Exception as e:
            if hasattr(e, "sub_env_index"):
                self._tag(e, e.sub_env_index)
            raise

    def _tag(self, error: Exception, local_index: int) -> None:
        error.sub_env_index = self.first + local_index  # type: ignore[attr-defined]


def _tagged(operation: Callable[[], Any], j: int) -> Any:
    """Run ``operation``; an error leaves naming sub-env ``j`` of the block (then made global)."""
    try:
        return operation()
    except Exception as e:
        e.sub_env_index = j  # type: ignore[attr-defined]
        raise


def _given(env: Any) -> Callable[[], Any]:
    return lambda: env
