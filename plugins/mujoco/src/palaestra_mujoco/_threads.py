"""The MuJoCo vector env's helper threads (:class:`Crew`), which share the sub-envs' physics.

The threaded sub-env steps run each sub-env's ``mj_step`` on these threads and the caller
alike (the bindings release the GIL inside it); a thread's exception is raised in the
caller, after every thread stopped touching the envs.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = ["Crew", "physics_job"]


class Crew:
    """Helper threads that run one piece of work alongside the calling thread.

    ``run(work)`` hands the same callable to every helper, runs it in the caller too and
    returns when all are done; the callable shares its jobs out itself (an iterator that
    every thread draws from). An exception in any thread is raised in the caller, after
    every thread has stopped touching the envs.
    """

    def __init__(self, helpers: int) -> None:
        self._inboxes: list[queue.SimpleQueue[Callable[[], None] | None]] = []
        self._done: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()
        self._threads = []
        for number in range(helpers):
            inbox: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
            thread = threading.Thread(
                target=_serve, args=(inbox, self._done), name=f"palaestra-mujoco-{number}", daemon=True
            )
            thread.start()
            self._inboxes.append(inbox)
            self._threads.append(thread)

    def run(self, work: Callable[[], None]) -> None:
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
        for inbox in self._inboxes:
            inbox.put(None)
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join()
        self._inboxes, self._threads = [], []


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


def physics_job(envs: Sequence[Any], jobs: Iterator[int]) -> Callable[[], None]:
    """The work every thread runs: the physics of sub-envs drawn from ``jobs`` until none is left.

    Threads draw indices from one iterator (each ``next`` is atomic under the GIL), so a
    thread that finishes early takes more: contact-rich sub-envs cost more than others.
    """

    def work() -> None:
        for k in jobs:
            env = envs[k]
            model, data = env.model, env.data
            env._mj_step(model, data, env.frame_skip)
            if env.uses_body_forces:
                env._mj_post(model, data)

    return work
