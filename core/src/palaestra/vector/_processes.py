"""Starting, watching and stopping worker processes (the parent's side of the pipes)."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import numbers
import os
import pickle
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from palaestra import logger
from palaestra._base._arguments import check_flag, check_timeout
from palaestra.error import SubEnvError, VectorTimeoutError, WorkerDiedError
from palaestra.vector.utils._pickling import dumps_factory

__all__ = [
    "SPIN_LIMIT",
    "SPIN_SECONDS",
    "Worker",
    "check_arguments",
    "describe_exit",
    "fork_safe_context",
    "polling_window",
    "raise_failures",
    "raise_reply_error",
    "reap",
    "send",
    "shutdown",
    "read_soon",
    "spin_until_readable",
    "THREADS_PER_BLOCK",
    "plan_blocks",
    "split_blocks",
]


#: Give the core to a process with real work (a worker mid-step) while polling.
yield_core = getattr(os, "sched_yield", lambda: None)
_yield = yield_core

# Poll a pipe for this long before sleeping on it: waking a sleeping process costs tens of
# microseconds on small VMs, more than a cheap env's whole step. Only done while answers
# have been arriving that fast, so slow envs never spin.
SPIN_SECONDS = 100e-6
# Past a millisecond of polling, a wake-up (~0.1 ms) costs less than the polling would.
SPIN_LIMIT = 1e-3
#: The longest single wait ``poll`` takes (its C int of milliseconds); longer waits loop.
MAX_POLL_MS = 2**31 - 1


def polling_window(step_seconds: float) -> float:
    """How long a worker polls for its next command after a step that took ``step_seconds``.

    The next command comes once the slowest worker has answered too, which can be most of
    a step later; a worker asleep on an idle core of a VM takes 100 us or more to wake,
    longer than a heavy env's whole step budget. So: twice the step, between
    ``SPIN_SECONDS`` and ``SPIN_LIMIT``.
    """
    return max(SPIN_SECONDS, min(SPIN_LIMIT, 2.0 * step_seconds))


@dataclass
class Worker:
    """One worker process, its pipe and the sub-env indices it runs."""

    process: Any
    conn: Any
    indices: tuple[int, ...]
    fast: bool = True

    def label(self) -> str:
        """``sub-envs 0-3 (pid 123)`` for messages."""
        first, last = self.indices[0], self.indices[-1]
        envs = f"sub-env {first}" if first == last else f"sub-envs {first}-{last}"
        return f"{envs} (worker pid {self.process.pid})"


def split_blocks(num_envs: int, num_workers: int) -> list[range]:
    """Contiguous, near-equal blocks of sub-env indices, one per worker."""
    base, extra = divmod(num_envs, num_workers)
    blocks, start = [], 0
    for w in range(num_workers):
        size = base + (1 if w < extra else 0)
        blocks.append(range(start, start + size))
        start += size
    return blocks


#: The most threads a block steps on where blocks step in threads: beyond that, its own
#: serial part (its resets and its Python) bounds the step, and another block (a process)
#: does better (docs/vector.md).
THREADS_PER_BLOCK = 8


def plan_blocks(num_envs: int, num_workers: int, cores: int, threaded: bool) -> tuple[list[range], list[int]]:
    """The blocks of sub-envs for ``num_workers`` workers, and the threads each block steps on.

    One block per worker, except where blocks step on threads outside the GIL (``threaded``):
    then the workers are the blocks' threads, up to :data:`THREADS_PER_BLOCK` a block and
    never more blocks than cores. A block's threads share its work through one counter,
    where more processes would each add their messages and wake-ups to every step.
    """
    num_blocks = min(-(-num_workers // THREADS_PER_BLOCK), cores) if threaded else num_workers
    threads = [len(share) for share in split_blocks(num_workers, num_blocks)]
    return split_blocks(num_envs, num_blocks), threads


def describe_exit(exitcode: int | None) -> str:
    """Human text for a process exit code."""
    if exitcode is None:
        return "is still running"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"was killed by {name}"
    return f"exited with code {exitcode}"


def receive(worker: Worker, deadline: float | None, spin: float | None = None) -> Any:
    """Wait for one reply; detect death at once and time out at ``deadline``.

    ``spin``: how long to poll before sleeping when the worker has been answering quickly
    (default :data:`SPIN_SECONDS`).

    Returns:
        ``None`` for the empty fast-path reply, else the unpickled message.

    Raises:
        WorkerDiedError: The process exited before answering.
        VectorTimeoutError: No answer before the deadline.
    """
    if deadline is None:
        # Blocking read: a dead worker closes its end of the pipe, which ends the read at once.
        try:
            data, worker.fast = read_soon(
                worker.conn, worker.fast, SPIN_SECONDS if spin is None else spin, miss_ends_polling=True
            )
        except (EOFError, OSError):
            worker.process.join(1.0)
            raise _died(worker) from None
        return pickle.loads(data) if data else None
    while True:
        remaining = max(0.0, deadline - time.monotonic())
        ready = wait([worker.conn, worker.process.sentinel], remaining)
        if worker.conn in ready:
            try:
                data = worker.conn.recv_bytes()
            except (EOFError, OSError):
                ready = [worker.process.sentinel]
            else:
                return pickle.loads(data) if data else None
        if worker.process.sentinel in ready:
            worker.process.join(1.0)
            raise _died(worker)
        if time.monotonic() >= deadline:
            raise VectorTimeoutError(
                f"The worker running {worker.label()} did not answer within the timeout; "
                "the vector env has been closed.",
                indices=worker.indices,
            )


def send(worker: Worker, data: bytes) -> None:
    """Send ``data`` to the worker.

    Raises:
        WorkerDiedError: The process has exited (its end of the pipe is gone).
    """
    try:
        worker.conn.send_bytes(data)
    except OSError:  # BrokenPipeError, ConnectionResetError: nobody is reading any more
        worker.process.join(1.0)
        raise _died(worker) from None


def spin_until_readable(conn: Any, seconds: float) -> bool:
    """Poll ``conn`` for up to ``seconds``; whether data arrived in that time."""
    end = time.perf_counter() + seconds
    poll = conn.poll
    while not poll(0):
        if time.perf_counter() > end:
            return False
        # Give the core to a process with real work (a worker mid-step) if there is one.
        _yield()
    return True


def read_soon(
    conn: Any, fast: bool, spin: float = SPIN_SECONDS, *, miss_ends_polling: bool = False
) -> tuple[bytes, bool]:
    """Read one message, polling first while messages have been arriving quickly.

    Returns:
        The message and whether to poll before the next read: true when this message came
        while polling or just after, so slow phases (heavy envs, a long policy) stop the
        polling by themselves and fast phases start it again.
    """
    if fast and spin_until_readable(conn, spin):
        return conn.recv_bytes(), True
    if fast and miss_ends_polling:
        # The parent polled in vain while the workers computed: they are heavy, and polling
        # again next step would take a core from them.
        return conn.recv_bytes(), False
    start = time.perf_counter()
    data = conn.recv_bytes()
    return data, time.perf_counter() - start < spin


def _died(worker: Worker) -> WorkerDiedError:
    return WorkerDiedError(
        f"The worker running {worker.label()} {describe_exit(worker.process.exitcode)} "
        "without answering; the vector env has been closed.",
        indices=worker.indices,
        exitcode=worker.process.exitcode,
    )


def raise_failures(records: list[tuple[Any, ...]], vector_env: str, during: str) -> None:
    """Log the sub-env failures with their worker tracebacks, then re-raise the first.

    A failure that repeats the first (the same type and message, as when every sub-env is
    asked for an attribute none has) is not logged again: the note on the raised one lists
    it. The first is raised with its original type when it can be rebuilt (with the others
    listed in a note), naming its sub-env; otherwise as :class:`SubEnvError`.

    Args:
        records: ``(index, type name, message, traceback, pickled exception)`` per failure.
        vector_env: The vector env's class name, for messages.
        during: What the sub-envs were doing (``"step"``, ``"close"``...).
    """
    if not records:
        return
    _, first_type, first_message, _, _ = records[0]
    for position, (index, type_name, message, text, _) in enumerate(records):  # as Gymnasium logs them
        if position and (type_name, message) == (first_type, first_message):
            continue  # a repeat of the first: named in the raised error's note
        logger.error(f"Received the following error from sub-env {index}:\n{text}")
    logger.error("Raising the first exception back to the main process.")
    others = [
        f"sub-env {index} raised {type_name}: {message}" for index, type_name, message, _, _ in records[1:]
    ]
    raise_reply_error(records[0], vector_env, during, others)


def raise_reply_error(
    record: tuple[Any, ...],
    vector_env: str = "AsyncVectorEnv",
    during: str = "",
    others: list[str] | None = None,
) -> None:
    """Re-raise a worker's error with its original type, naming the sub-env index."""
    index, type_name, message, text, blob = record
    cause = SubEnvError(
        f"Sub-env {index} raised {type_name}: {message}\n--- worker traceback ---\n{text}",
        index=index,
        error_type=type_name,
        worker_traceback=text,
    )
    original = None
    if blob is not None:
        try:
            original = pickle.loads(blob)
        except Exception:
            original = None
    if not isinstance(original, BaseException):
        raise cause
    original.sub_env_index = index  # type: ignore[attr-defined]
    if hasattr(original, "add_note"):
        when = f" during {during}" if during else ""
        original.add_note(f"Raised by sub-env {index} of an {vector_env}{when} (worker traceback below).")
        if others:
            original.add_note("Also raised (logged above, but for repeats of this one): " + "; ".join(others))
    raise original from cause


def shutdown(workers: list[Worker], grace: float, graceful: bool) -> list[tuple[Any, ...]]:
    """Stop every worker: ask nicely (if ``graceful``), then terminate, then kill.

    Returns:
        The failures the workers reported while closing their sub-envs (error records).
    """
    failures: list[tuple[Any, ...]] = []
    if graceful:
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                worker.conn.send_bytes(pickle.dumps(("close", None)))
        deadline = time.monotonic() + grace
        for worker in workers:
            remaining = max(0.0, deadline - time.monotonic())
            try:
                if worker.conn.poll(remaining):
                    reply = pickle.loads(worker.conn.recv_bytes())
                    failures.extend(reply[1] if reply[0] == "ok" and reply[1] else [])
            except (OSError, EOFError, ValueError, pickle.UnpicklingError):
                pass
            worker.process.join(max(0.0, deadline - time.monotonic()))
    reap(workers)
    for worker in workers:
        with contextlib.suppress(OSError):
            worker.conn.close()
    return failures


def reap(workers: list[Worker], kill_rounds: int = 10) -> None:
    """Terminate, then kill, every worker still alive, and wait for each to exit.

    An interrupt (Ctrl-C) while reaping does not stop it: the rest are killed at once, and
    the interrupt is raised once no worker is left.

    Args:
        workers: The workers.
        kill_rounds: How many times (a second apart) to kill a worker that will not exit.
    """
    interrupt: BaseException | None = None
    stops = ["terminate", *["kill"] * kill_rounds]
    while stops:
        alive = [w for w in workers if w.process.is_alive()]
        if not alive:
            break
        stop = stops.pop(0)
        try:
            for worker in alive:
                getattr(worker.process, stop)()
            for worker in alive:
                worker.process.join(1.0)
        except (KeyboardInterrupt, SystemExit) as e:  # keep reaping; raise it afterwards
            interrupt = e
    else:
        stuck = [w.label() for w in workers if w.process.is_alive()]
        if stuck:
            logger.warn(
                f"Could not stop the workers running {', '.join(stuck)}; they may need killing by hand."
            )
    if interrupt is not None:
        raise interrupt


def fork_safe_context(env_fns: Sequence[Any]) -> str | None:
    """The start method when none is asked for: the platform's, except after JAX is imported.

    JAX runs threads, and forking a process with threads can deadlock the child (JAX warns so),
    so workers then start from a fork server, provided the env functions can be pickled for it.
    """
    if "jax" not in sys.modules or mp.get_start_method(allow_none=True) not in (None, "fork"):
        return None
    if "forkserver" not in mp.get_all_start_methods():
        return None
    try:
        dumps_factory(list(env_fns))
    except Exception:
        return None
    return "forkserver"


def check_arguments(
    env_fns: Sequence[Any],
    context: str | None,
    max_concurrency: Any,
    num_workers: Any,
    step_timeout: Any = None,
    copy: Any = True,
) -> None:
    """Refuse AsyncVectorEnv arguments that cannot start workers (Gymnasium's words first)."""
    check_timeout(step_timeout, "step_timeout")
    check_flag(copy, "copy", "return copies of the batched observations rather than shared buffers")
    if len(env_fns) == 0:
        raise ValueError("AsyncVectorEnv needs at least one env function, got an empty sequence")
    methods = mp.get_all_start_methods()
    if context is not None and context not in methods:
        raise ValueError(f"Invalid context {context!r}; this platform supports {methods}")
    for name, value in (("max_concurrency", max_concurrency), ("num_workers", num_workers)):
        if value is None:
            continue
        # Gymnasium's words first (its max_concurrency checks), then what to give.
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):  # numpy's ints too
            raise ValueError(f"`{name}` must be an integer or None, got {value!r} (a positive integer)")
        if value < 1:
            raise ValueError(f"`{name}` must be a positive or None, got {value!r} (a positive integer)")
