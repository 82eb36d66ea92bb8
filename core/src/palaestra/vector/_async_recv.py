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
from collections import deque
from typing import Any, NoReturn

import numpy as np

from palaestra.error import VectorTimeoutError, WorkerDiedError
from palaestra.spaces._batching import concatenate, create_empty_array
from palaestra.vector._info import add_info
from palaestra.vector._processes import MAX_POLL_MS, SPIN_SECONDS, raise_failures, receive, yield_core
from palaestra.vector._recv import IN_FLIGHT, READY, RecvEngine, take_rows
from palaestra.vector._worker import ParentBlock
from palaestra.vector.utils._shared_memory import read_from_shared_memory

__all__ = ["AsyncEngine"]


class AsyncEngine(RecvEngine):
    """The send/recv engine of an :class:`~palaestra.vector.AsyncVectorEnv`."""

    closes_on_interrupt = True

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.vector = env
        self.targets = env._targets()
        self.owner = [0] * self.num_envs  # sub-env -> position in targets
        for position, target in enumerate(self.targets):
            for i in target.indices:
                self.owner[i] = position
        self.due = [0] * len(self.targets)  # commands each target has not finished answering
        self.worker_positions = [p for p, t in enumerate(self.targets) if not isinstance(t, ParentBlock)]
        # (first ticket, least round, sub-envs) of each command a target has not finished
        # answering, oldest first (see RecvEngine._start).
        self.commands: list[deque[tuple[int, int, list[int]]]] = [deque() for _ in self.targets]
        # (first ticket, most rounds, command) for the parent's block, run in recv.
        self.local_queue: list[tuple[int, int, bytes]] = []
        self.entries: dict[int, list[dict[str, Any]]] = {}  # a ready result's infos, in step order
        self.objects: dict[int, Any] = {}  # observations that came pickled (no shared slot)

    # -- sending ------------------------------------------------------------------------

    def start_reset(
        self, ids: np.ndarray, seed: Any, seeds: list[Any], options: dict[str, Any] | None
    ) -> None:
        self.vector._has_reset = True  # its step() may follow recv()
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
        owner, entries, objects = self.owner, self.entries, self.objects
        for item in items:
            i = item if isinstance(item, int) else item[0]
            entries.pop(i, None)  # the last result's, kept until now (see RecvEngine.batch)
            objects.pop(i, None)
            groups.setdefault(owner[i], []).append(item)
        for position, group in groups.items():
            message = pickle.dumps(("some", (kind, group, options)))
            target = self.targets[position]
            ids = [item if isinstance(item, int) else item[0] for item in group]
            first = min(self.tickets[i] for i in ids)  # its place in the queue
            if isinstance(target, ParentBlock):
                self.local_queue.append((first, max(self.rounds[i] for i in ids), message))
            else:
                self.vector._send(target, message)  # a dead worker closes the env and is named
            self.due[position] += 1
            self.commands[position].append((first, min(self.rounds[i] for i in ids), ids))

    # -- receiving ------------------------------------------------------------------------

    def advance(self, k: int) -> None:
        """Take what the workers have sent, and step the parent's block where it is due.

        A command for the parent's own block runs before ``recv`` hands out results sent
        after it (a worker of its own would have stepped it by then): the parent's sub-envs
        are served in turn with the workers'.
        """
        if len(self.arrival) < k:
            return  # recv collects (reading and stepping) until k are ready
        due = self.due
        if len(self.arrival) > k and any(due[p] for p in self.worker_positions):
            events = self._poller().poll(0)  # results already sent may be older than some ready
            if events:
                self._read_events(events)
        queue = self.local_queue
        while queue and len(self.arrival) >= k and self._local_turn():
            kth = sorted(map(self.tickets.__getitem__, self.arrival))[k - 1]
            if queue[0][0] > kth:
                return
            self._run_local()

    def _local_turn(self) -> bool:
        """Whether the parent's oldest queued command may run: it takes no sub-env two rounds ahead.

        The parent steps its block while the workers step theirs, but not a sub-env of it more
        than one step ahead of the sub-envs a worker has not answered yet: a worker slowed
        down (a busy machine) is waited for rather than overtaken again and again, so its
        sub-envs are not served less.
        """
        if not self.local_queue:
            return False
        commands = self.commands
        behind = [commands[p][0][1] for p in self.worker_positions if commands[p]]
        return not behind or self.local_queue[0][1] <= min(behind) + 1

    def collect(self, timeout: float | None) -> None:
        poller = self._poller()
        events = poller.poll(0)
        if not events and self._local_turn():
            self._run_local()  # the parent's block steps while the workers step theirs
            return
        if not events and self.vector._polls:  # no polling where the workers outnumber the cores
            end = time.perf_counter() + SPIN_SECONDS  # quick envs answer within microseconds
            while not events and time.perf_counter() < end:
                yield_core()
                events = poller.poll(0)
        if not events:
            deadline = self.vector._deadline(timeout)
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            events = poller.poll(None if remaining is None else min(int(remaining * 1000) + 1, MAX_POLL_MS))
            if not events:
                if deadline is not None and time.monotonic() < deadline:
                    return  # a wait longer than one poll: recv asks again
                self._timed_out()
        self._read_events(events)

    def _read_events(self, events: list[tuple[int, int]]) -> None:
        errors: list[tuple[Any, ...]] = []
        for fd, _ in events:
            worker, is_conn = self.by_fd[fd]
            if is_conn or not worker.conn.poll(0):  # a death is named once its last words are read
                errors += self._read(worker)
        if errors:
            raise_failures(errors, self.name, "")

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

    def _read(self, worker: Any) -> list[tuple[Any, ...]]:
        """Every message the worker has sent so far (at least one is there, or it died); their errors."""
        position = self.targets.index(worker)
        conn = worker.conn
        errors: list[tuple[Any, ...]] = []
        while True:
            try:
                data = conn.recv_bytes()
            except (EOFError, OSError):
                self._died(worker)
            errors += self._take(position, pickle.loads(data))
            if not self.due[position] or not conn.poll(0):
                return errors

    def _died(self, worker: Any) -> NoReturn:
        try:
            receive(worker, time.monotonic() + 1.0)  # raises the worker's named death
        except WorkerDiedError as e:
            lost = self._listed_in_flight(worker.indices)
            e.add_note(  # type: ignore[attr-defined]
                f"Results lost with it: sub-envs {lost} (sent, not yet received)."
                + self._lost_by_closing(set(worker.indices))
            )
            self._close_after_failure()
            raise
        raise AssertionError("a worker whose pipe closed is dead")  # pragma: no cover

    def _run_local(self) -> None:
        """Run the parent's oldest queued command; every part of its answer is taken, then errors raised."""
        local = self.targets[-1]
        local.pending = self.local_queue.pop(0)[2]
        final = local.run()
        parts = list(local.parts)
        local.parts.clear()  # the same list: the block's emit appends to it
        position = len(self.targets) - 1
        errors: list[tuple[Any, ...]] = []
        for data in parts:
            errors += self._take(position, pickle.loads(data))
        errors += self._take(position, final)
        if errors:
            raise_failures(errors, self.name, "")

    def _take(self, position: int, message: Any) -> list[tuple[Any, ...]]:
        """Record one part of a worker's answer; the sub-env errors it carries (to raise once all are taken)."""
        if message[0] == "error":  # the command itself failed (it could not be unpickled)
            self.due[position] -= 1
            self.failed(self.commands[position].popleft()[2])  # none of its sub-envs stepped
            return message[1]  # type: ignore[no-any-return]
        _, finished, results, errors, done = message
        for index, obs, info in results:
            if obs is not None:
                self.objects[index] = obs
            if info:
                self.entries.setdefault(index, []).append(info)
        self.arrived(finished)
        if errors:
            self.failed([record[0] for record in errors])
        if done:
            self.due[position] -= 1
            self.commands[position].popleft()
        return errors  # type: ignore[no-any-return]

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
            items = [self.objects[i] for i in ids.tolist()]
            obs = concatenate(space, items, create_empty_array(space, n=len(ids), fn=np.zeros))
        infos: dict[str, Any] = {}
        entries = self.entries
        for position, i in enumerate(ids.tolist()):
            for info in entries.get(i, ()):
                add_info(infos, info, position, len(ids))
        return obs, env._rewards[ids], env._terminations[ids], env._truncations[ids], infos

    # -- failures and closing -------------------------------------------------------------

    def _listed_in_flight(self, indices: Any) -> list[int]:
        return [i for i in indices if self.status[i] == IN_FLIGHT]

    def _timed_out(self) -> NoReturn:
        waiting = [
            i
            for position in self.worker_positions
            if self.due[position]
            for i in self.targets[position].indices
            if self.status[i] == IN_FLIGHT
        ]
        lost = self._lost_by_closing(set(waiting))
        self._close_after_failure()
        raise VectorTimeoutError(
            f"{self.name}.recv: no result came within the timeout; sub-envs {waiting} were still "
            f"stepping in their workers. The vector env has been closed.{lost}",
            indices=tuple(waiting),
        )

    def _lost_by_closing(self, named: set[int]) -> str:
        """The other results closing the env loses: received by no one yet, ready or not."""
        ready = self._listed(READY)
        pending = [i for i in self._listed(IN_FLIGHT) if i not in named]
        parts = [
            f"sub-envs {ready} (ready, not yet received)" if ready else "",
            f"sub-envs {pending} (sent, not yet received)" if pending else "",
        ]
        listed = " and ".join(p for p in parts if p)
        return f" Closing the env also loses the results of {listed}." if listed else ""

    def _close_after_failure(self) -> None:
        self.status[:] = 0
        self.due = [0] * len(self.targets)
        self.local_queue = []
        self.vector.close(terminate=True)

    def close_after_interrupt(self, reason: str) -> None:
        self.vector._closed_because = reason
        self._close_after_failure()

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
        for commands in self.commands:
            commands.clear()
        return True
