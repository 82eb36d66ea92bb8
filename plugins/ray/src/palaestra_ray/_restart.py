"""Rebuilding lost actors (``on_actor_failure="restart"``): new actors, their blocks reset or restored.

Functions of a :class:`~palaestra_ray.RayVectorEnv` (``self``), kept apart from its stepping.
"""

from __future__ import annotations

import contextlib
import copy as copy_module
import time
from typing import Any

import numpy as np

from palaestra.error import WorkerDiedError
from palaestra.plugin import AutoresetMode
from palaestra_ray._runtime import _describe, _first_line, _ray, _remote_block

__all__ = ["replace_lost", "restart"]

#: Seconds between attempts to rebuild a lost actor (Ray may still place it on the dead node).
RESTART_PAUSE = 1.0


def replace_lost(self: Any, parts: list[Any], lost: list[int]) -> list[Any]:
    """Rebuild the lost actors; their blocks' rows (reported truncated) are fresh resets, or restored snapshots."""
    restart(self, lost)
    next_step_resets = self.autoreset_mode is AutoresetMode.NEXT_STEP
    calls = [
        self._actors[k].restore.remote(self._kept[k][0])
        if k in self._kept
        else self._actors[k].restarted.remote(next_step_resets)
        for k in lost
    ]
    answers = self._get(calls, "reset", self.step_timeout, lost)
    # Restored blocks show the observations of their snapshot's step; reset ones, their reset's.
    fresh = [
        (copy_module.deepcopy(self._kept[k][1]), {}) if k in self._kept else answer
        for k, answer in zip(lost, answers, strict=True)
    ]
    parts = list(parts)
    for k, (observations, infos) in zip(lost, fresh, strict=True):
        n = len(self.blocks[k])
        parts[k] = (
            observations,
            np.zeros(n),
            np.zeros(n, dtype=np.bool_),
            np.ones(n, dtype=np.bool_),
            infos,
        )
    return parts


def restart(self: Any, lost: list[int]) -> None:
    """New actors for the lost ones, built and started, retrying until ``build_timeout``.

    A restarted actor keeps its own ``actor_options`` but not the placement: its node
    may be the one that was lost, so Ray places it on any live node.
    """
    ray = _ray()
    deadline = None if self.build_timeout is None else time.monotonic() + self.build_timeout
    mode = self.observation_mode if isinstance(self.observation_mode, str) else "different"
    for k in lost:
        with contextlib.suppress(Exception):  # already gone with its node
            ray.kill(self._actors[k])
    block_class = _remote_block()
    last_error: BaseException | None = None
    for k in lost:
        block = self.blocks[k]
        while True:
            options = self.actor_options[k]
            actor = (block_class.options(**options) if options else block_class).remote(block.start)
            left = None if deadline is None else max(0.1, deadline - time.monotonic())
            try:
                ray.get(actor.build.remote([self.env_fns[i] for i in block]), timeout=left)
                ray.get(actor.start.remote(mode, self.autoreset_mode), timeout=left)
                self._actors[k] = actor
                break
            except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError) as e:
                last_error = e
                with contextlib.suppress(Exception):
                    ray.kill(actor)
            if deadline is not None and time.monotonic() >= deadline:
                self.close(terminate=True)
                raise WorkerDiedError(
                    f"The Ray actor running {_describe([block])} was lost and could not be restarted "
                    f"within build_timeout={self.build_timeout:g} s (last attempt: "
                    f"{_first_line(last_error)}); the vector env has been closed. Give the cluster "
                    "room for the actor, or a longer build_timeout.",
                    indices=tuple(block),
                    exitcode=None,
                )
            time.sleep(RESTART_PAUSE)
