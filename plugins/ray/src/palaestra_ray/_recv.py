"""send/recv of RayVectorEnv: one remote call per sub-env, received as Ray reports them done.

An actor runs its calls in order, so the sub-envs of one actor come back one after another,
and those of different actors (or nodes) independently: a slow node holds back only its own
sub-envs. A lost actor ends the run (naming the results lost with it); ``on_actor_failure=
"restart"`` applies to ``step`` and ``reset``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.error import VectorTimeoutError, WorkerDiedError
from palaestra.plugin import RecvEngine, check_timeout

__all__ = ["RayEngine"]


class RayEngine(RecvEngine):
    """The send/recv engine of a :class:`~palaestra_ray.RayVectorEnv`."""

    closes_on_interrupt = True

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.vector = env
        self.owner: list[tuple[int, int]] = []  # sub-env -> (actor, index in its block)
        for k, block in enumerate(env.blocks):
            self.owner += [(k, j) for j in range(len(block))]
        self.calls: dict[Any, int] = {}  # object ref -> sub-env
        self.results: dict[int, tuple[Any, float, bool, bool, list[dict[str, Any]]]] = {}

    def start_reset(
        self, ids: np.ndarray, seed: Any, seeds: list[Any], options: dict[str, Any] | None
    ) -> None:
        self.vector._assert_ready("async_reset", engine=False)
        for i in ids.tolist():
            k, j = self.owner[i]
            self.calls[self.vector._actors[k].reset_sub_env.remote(j, seeds[i], options)] = i

    def start_step(self, ids: np.ndarray, actions: list[Any] | None) -> None:
        assert actions is not None
        self.vector._assert_ready("send", engine=False)
        for i, action in zip(ids.tolist(), actions, strict=True):
            k, j = self.owner[i]
            self.calls[self.vector._actors[k].step_sub_env.remote(j, action)] = i

    def collect(self, timeout: float | None) -> None:
        from palaestra_ray._runtime import _ray, _reraise

        ray = _ray()
        refs = list(self.calls)
        limit = self.vector.step_timeout if timeout is None else check_timeout(timeout, "timeout")
        ready, _ = ray.wait(refs, num_returns=1, timeout=limit)
        if not ready:
            stuck = sorted(self.calls.values())
            self.vector.close(terminate=True)
            raise VectorTimeoutError(
                f"RayVectorEnv.recv: no result came within {limit} s; sub-envs {stuck} were still "
                "stepping. The vector env has been closed.",
                indices=tuple(stuck),
            )
        ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0)  # and whatever else is done
        failures = []
        for ref in ready:
            i = self.calls.pop(ref)
            try:
                self.results[i] = ray.get(ref)
            except ray.exceptions.RayActorError as e:
                self._lost(i, e)
            except ray.exceptions.RayTaskError as e:
                self.failed([i])
                failures.append(e)
                continue
            self.arrived([i])
        if failures:  # every one reported: the first raised, the others in its note
            _reraise(failures[0], failures[1:])

    def _lost(self, i: int, error: Exception) -> None:
        from palaestra_ray._runtime import _describe, _first_line

        k = self.owner[i][0]
        block = self.vector.blocks[k]
        lost = sorted({i, *(s for s in self.calls.values() if self.owner[s][0] == k)})
        self.vector.close(terminate=True)
        raise WorkerDiedError(
            f"The Ray actor running {_describe([block])} died during recv; the vector env has been "
            f"closed. Results lost with it: sub-envs {lost}. Ray says: {_first_line(error)}",
            indices=tuple(block),
            exitcode=None,
        ) from None

    def batch(self, ids: np.ndarray) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        results = self.results  # kept until the sub-env's next start replaces it
        return self.batch_of([results[i] for i in ids.tolist()])
