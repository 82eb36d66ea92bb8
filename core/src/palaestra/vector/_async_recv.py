"""send/recv of AsyncVectorEnv: each worker steps the sub-envs sent to it and reports each as it finishes.

A ``send`` becomes one ``("some", ...)`` command per worker holding some of the sub-envs; the
worker answers with parts, sending a slow sub-env's result at once (see
:meth:`palaestra.vector._worker.WorkerBlock.some`). ``recv`` waits on every worker that owes a
part (and on its process, so a death is named at once), reads what has come, and steps the
parent's own block (``in_parent=True``) when no worker has anything yet. Observations,
rewards and flags are read from shared memory: a sub-env's slot is written only by its own
step, which cannot start again before its result was received.
"""

from __future__ import annotations

import pickle
import select
import time
from typing import Any, NoReturn

import numpy as np

from palaestra.error import VectorTimeoutError, WorkerDiedError
from palaestra.spaces._batching import concatenate, create_empty_array
from palaestra.vector._info import add_info
from palaestra.vector._processes import SPIN_SECONDS, raise_failures, receive, yield_core
from palaestra.vector._recv import IN_FLIGHT, RecvEngine, take_rows
from palaestra.vector._worker import ParentBlock
from palaestra.vector.utils._shared_memory import read_from_shared_memory

__all__ = ["AsyncEngine"]


class AsyncEngine(RecvEngine):
    """The send/recv engine of an :class:`~palaestra.vector.AsyncVectorEnv`."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.vector = env
        self.targets = env._targets()
        self.owner = [0] * self.num_envs  # sub-env -> position in targets
        for position, target in enumerate(self.targets):
            for i in target.indices:
                self.owner[i] = position
        self.due = [0] * len(self.targets)  # commands each target has not finished answering
        self.local_queue: list[bytes] = []  # commands for the parent's own block, run in recv
        self.entries: dict[int, list[dict[str, Any]]] = {}  # a ready result's infos, in step order
        self.objects: dict[int, Any] = {}  # observations that came pickled (no shared slot)

    # -- sending ------------------------------------------------------------------------

    def start_reset(
        self, ids: np.ndarray, seed: Any, seeds: list[Any], options: dict[str, Any] | None
    ) -> None:
        self._dispatch("reset", [(i, seeds[i]) for i in ids.tolist()], options)

    def _split(self, actions: Any, ids: np.ndarray) -> list[Any] | None:
        view = self.vector._action_view
        if (
            view is not None
            and isinstance(actions, np.ndarray)
            and actions.dtype == view.dtype
            and actions.shape == (len(ids), *view.shape[1:])
        ):
            view[ids] = actions  # their slots: no sub-env of ids is stepping
            return None
        return super()._split(actions, ids)

    def start_step(self, ids: np.ndarray, actions: list[Any] | None) -> None:
        items = ids.tolist() if actions is None else list(zip(ids.tolist(), actions, strict=True))
        self._dispatch("step", items, None)

    def _dispatch(self, kind: str, items: list[Any], options: Any) -> None:
        self.vector._assert_ready("send" if kind == "step" else "async_reset", engine=False)
        groups: dict[int, list[Any]] = {}
        owner = self.owner
        for item in items:
            groups.setdefault(owner[item if isinstance(item, int) else item[0]], []).append(item)
        for position, group in groups.items():
            message = pickle.dumps(("some", (kind, group, options)))
            target = self.targets[position]
            if isinstance(target, ParentBlock):
                self.local_queue.append(message)
            else:
                self.vector._send(target, message)  # a dead worker closes the env and is named
            self.due[position] += 1

    # -- receiving ------------------------------------------------------------------------

    def collect(self, timeout: float | None) -> None:
        poller = self._poller()
        events = poller.poll(0)
        if not events and self.local_queue:
            self._run_local()  # the parent's block steps while the workers step theirs
            return
        if not events:
            end = time.perf_counter() + SPIN_SECONDS  # quick envs answer within microseconds
            while not events and time.perf_counter() < end:
                yield_core()
                events = poller.poll(0)
        if not events:
            deadline = self.vector._deadline(timeout)
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            events = poller.poll(None if remaining is None else int(remaining * 1000) + 1)
            if not events:
                self._timed_out()
        for fd, _ in events:
            worker, is_conn = self.by_fd[fd]
            if is_conn or not worker.conn.poll(0):  # a death is named once its last words are read
                self._read(worker)

    def _poller(self) -> Any:
        poller = self.__dict__.get("poller")
        if poller is None:
            poller = self.poller = select.poll()
            self.by_fd: dict[int, tuple[Any, bool]] = {}
            for target in self.targets:
                if not isinstance(target, ParentBlock):
                    for fd, is_conn in ((target.conn.fileno(), True), (target.process.sentinel, False)):
                        poller.register(fd, select.POLLIN)
                        self.by_fd[fd] = (target, is_conn)
        return poller

    def _read(self, worker: Any) -> None:
        """Every message the worker has sent so far (at least one is there, or it died)."""
        position = self.targets.index(worker)
        conn = worker.conn
        while True:
            try:
                data = conn.recv_bytes()
            except (EOFError, OSError):
                self._died(worker)
            self._take(position, pickle.loads(data))
            if not self.due[position] or not conn.poll(0):
                return

    def _died(self, worker: Any) -> NoReturn:
        try:
            receive(worker, time.monotonic() + 1.0)  # raises the worker's named death
        except WorkerDiedError as e:
            lost = self._listed_in_flight(worker.indices)
            e.add_note(f"Results lost with it: sub-envs {lost} (sent, not yet received).")  # type: ignore[attr-defined]
            self._close_after_failure()
            raise
        raise AssertionError("a worker whose pipe closed is dead")  # pragma: no cover

    def _run_local(self) -> None:
        local = self.targets[-1]
        local.pending = self.local_queue.pop(0)
        final = local.run()
        parts = list(local.parts)
        local.parts.clear()  # the same list: the block's emit appends to it
        position = len(self.targets) - 1
        for data in parts:
            self._take(position, pickle.loads(data))
        self._take(position, final)

    def _take(self, position: int, message: Any) -> None:
        """Record one part of a worker's answer; raise the sub-env errors it carries."""
        if message[0] == "error":  # the command itself failed (it could not be unpickled)
            self.due[position] -= 1
            raise_failures(message[1], self.name, "")
        _, finished, results, errors, done = message
        for index, obs, info in results:
            if obs is not None:
                self.objects[index] = obs
            if info:
                self.entries.setdefault(index, []).append(info)
        self.arrived(finished)
        if done:
            self.due[position] -= 1
        if errors:
            self.failed([record[0] for record in errors])
            raise_failures(errors, self.name, "")

    # -- batching -------------------------------------------------------------------------

    def batch(self, ids: np.ndarray) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        env = self.vector
        space = env.single_observation_space
        if env._obs_buffer is not None:
            shared = env.observations
            if env._reread_obs:
                shared = read_from_shared_memory(space, env._obs_buffer, n=self.num_envs)
            obs = take_rows(space, shared, self.num_envs, ids)
        else:
            items = [self.objects.pop(i) for i in ids.tolist()]
            obs = concatenate(space, items, create_empty_array(space, n=len(ids), fn=np.zeros))
        infos: dict[str, Any] = {}
        entries = self.entries
        for position, i in enumerate(ids.tolist()):
            for info in entries.pop(i, ()):
                add_info(infos, info, position, len(ids))
        return obs, env._rewards[ids], env._terminations[ids], env._truncations[ids], infos

    # -- failures and closing -------------------------------------------------------------

    def _listed_in_flight(self, indices: Any) -> list[int]:
        return [i for i in indices if self.status[i] == IN_FLIGHT]

    def _timed_out(self) -> NoReturn:
        stuck = self._listed(IN_FLIGHT)
        self._close_after_failure()
        raise VectorTimeoutError(
            f"{self.name}.recv: no result came within the timeout; sub-envs {stuck} were still "
            "stepping. The vector env has been closed.",
            indices=tuple(stuck),
        )

    def _close_after_failure(self) -> None:
        self.status[:] = 0
        self.due = [0] * len(self.targets)
        self.local_queue = []
        self.vector.close(terminate=True)

    def drain(self, timeout: float) -> bool:
        """Collect every answer still owed (closing with results in flight); whether all came."""
        self.local_queue = []
        deadline = time.monotonic() + timeout
        for position, target in enumerate(self.targets):
            if isinstance(target, ParentBlock):
                self.due[position] = 0
                continue
            while self.due[position]:
                try:
                    message = receive(target, deadline)
                except (WorkerDiedError, VectorTimeoutError):
                    return False
                if message is not None and (message[0] == "error" or message[4]):
                    self.due[position] -= 1
        self.status[:] = 0
        self.arrival.clear()
        self.entries.clear()
        self.objects.clear()
        return True
