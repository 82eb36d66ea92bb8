"""The MuJoCo vector env's helper threads (:class:`Crew`), which share the sub-envs' physics.

The threaded sub-env steps run each sub-env's ``mj_step`` on these threads and the caller
alike (the bindings release the GIL inside it); a thread's exception is raised in the
caller, after every thread stopped touching the envs. Before the process forks, every crew
lets its helpers go (a forked child gets none of a parent's threads; Python 3.12 warns
about forking with threads alive); the next ``run`` starts them again.
"""

from __future__ import annotations

import os
import queue
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

__all__ = ["Crew", "run_each", "run_physics"]


class Crew:
    """Helper threads that run one piece of work alongside the calling thread.

    ``run(work)`` hands the same callable to every helper, runs it in the caller too and
    returns when all are done; the callable shares its jobs out itself (an iterator that
    every thread draws from). An exception in any thread is raised in the caller, after
    every thread has stopped touching the envs.
    """

    def __init__(self, helpers: int) -> None:
        self._helpers = helpers
        self._closed = False
        self._inboxes: list[queue.SimpleQueue[Callable[[], None] | None]] = []
        self._done: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._start()
        _CREWS.add(self)

    def _start(self) -> None:
        for number in range(self._helpers):
            inbox: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
            thread = threading.Thread(
                target=_serve, args=(inbox, self._done), name=f"palaestra-mujoco-{number}", daemon=True
            )
            thread.start()
            self._inboxes.append(inbox)
            self._threads.append(thread)

    def run(self, work: Callable[[], None]) -> None:
        if not self._threads and not self._closed:
            self._start()  # let go before a fork
        for inbox in self._inboxes:
            inbox.put(work)
        failure: BaseException | None = None
        try:
            work()
        except BaseException as error:  # re-raised below, once the helpers stopped
            failure = error
        finally:
            for _ in self._inboxes:
                outcome = self._done.get()
                if failure is None:
                    failure = outcome
        if failure is not None:
            raise failure

    def close(self) -> None:
        """Stop the helpers for good (``run`` then works in the caller alone)."""
        self._closed = True
        self.rest()

    def rest(self) -> None:
        """Stop the helpers until the next ``run``."""
        for inbox in self._inboxes:
            inbox.put(None)
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join()
        self._inboxes, self._threads = [], []

    @property
    def working(self) -> int:
        """How many helper threads are alive now."""
        return sum(thread.is_alive() for thread in self._threads)


_CREWS: weakref.WeakSet[Crew] = weakref.WeakSet()


def _rest_crews() -> None:
    """Let every crew's helpers go before this process forks."""
    for crew in list(_CREWS):
        crew.rest()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_rest_crews)


def _serve(
    inbox: queue.SimpleQueue[Callable[[], None] | None], done: queue.SimpleQueue[BaseException | None]
) -> None:
    while (work := inbox.get()) is not None:
        try:
            work()
        except BaseException as error:  # handed to the caller of run()
            done.put(error)
        else:
            done.put(None)


def _physics_job(
    envs: Sequence[Any],
    jobs: Iterator[int],
    before: Callable[[int], None] | None,
    after: Callable[[int], None] | None,
) -> Callable[[], None]:
    """The work every thread runs: the physics of sub-envs drawn from ``jobs`` until none is left.

    Threads draw indices from one iterator (each ``next`` is atomic under the GIL), so a
    thread that finishes early takes more: contact-rich sub-envs cost more than others.
    ``before(k)`` and ``after(k)``, if given, run in the same thread right before and after
    sub-env ``k``'s physics.
    """

    def work() -> None:
        for k in jobs:
            env = envs[k]
            model, data = env.model, env.data
            if before is not None:
                before(k)
            env._mj_step(model, data, env.frame_skip)
            if env.uses_body_forces:
                env._mj_post(model, data)
            if after is not None:
                after(k)

    return work


def run_physics(
    crew: Crew | None,
    envs: Sequence[Any],
    indices: Iterable[int],
    *,
    before: Callable[[int], None] | None = None,
    after: Callable[[int], None] | None = None,
) -> None:
    """Step the physics of sub-envs ``indices`` on ``crew`` and the caller (the caller alone: ``None``).

    ``before(k)`` and ``after(k)`` run right before and after sub-env ``k``'s physics, in the
    thread that steps it.
    """
    _share(crew, _physics_job(envs, iter(indices), before, after))


def run_each(crew: Crew | None, count: int, work_one: Callable[[int], None]) -> None:
    """``work_one(j)`` for each ``j`` in ``range(count)``, shared out over ``crew`` and the caller."""
    jobs = iter(range(count))

    def work() -> None:
        for j in jobs:
            work_one(j)

    _share(crew, work)


def _share(crew: Crew | None, work: Callable[[], None]) -> None:
    """Run ``work`` on ``crew`` and the caller (the caller alone: ``None``); it shares its jobs out itself."""
    if crew is None:
        work()
    else:
        crew.run(work)
