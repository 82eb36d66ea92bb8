"""The errors of vector envs, defined when first used (``palaestra.error`` serves them).

A process that makes one env never raises them; defining their classes at start-up cost
every process (an exception class costs about 12 us to create and as much to tear down).
Each class's ``__module__`` is ``palaestra.error``, where pickles and tracebacks name it.
"""

from __future__ import annotations

from palaestra.error import Error, rebuilding_reduce

__all__ = [
    "AlreadyPendingCallError",
    "ClosedEnvironmentError",
    "InvalidVectorInfo",
    "NoAsyncCallError",
    "SubEnvError",
    "UnguardedMainError",
    "WorkerDiedError",
]


class InvalidVectorInfo(Error, TypeError, ValueError, AssertionError):
    """A vector env's info is not a dict of one entry per sub-env.

    Catchable as the ``TypeError``/``ValueError`` palaestra raised before and as the
    ``AssertionError`` Gymnasium raises.
    """


class AlreadyPendingCallError(Exception):
    """An asynchronous call is already pending on a vector environment."""

    __reduce__ = rebuilding_reduce

    def __init__(self, message: str, name: str):
        super().__init__(message)
        self.name = name


class NoAsyncCallError(Exception):
    """A ``*_wait`` call was made without a pending asynchronous call."""

    __reduce__ = rebuilding_reduce

    def __init__(self, message: str, name: str):
        super().__init__(message)
        self.name = name


class ClosedEnvironmentError(Exception):
    """An operation was attempted on a closed environment."""

    __reduce__ = rebuilding_reduce


class SubEnvError(Error):
    """A sub-environment of a vector env raised; carries the worker's traceback.

    Raised directly when the original exception cannot be rebuilt in the parent, and
    otherwise attached as the ``__cause__`` of the re-raised original exception.

    Attributes:
        index: The sub-environment's index.
        error_type: The original exception's class name.
        worker_traceback: The traceback text from the worker process.
    """

    def __init__(self, message: str, *, index: int, error_type: str, worker_traceback: str):
        super().__init__(message)
        self.index = index
        self.error_type = error_type
        self.worker_traceback = worker_traceback


class WorkerDiedError(Error, RuntimeError):
    """A vector env's worker process exited unexpectedly.

    Attributes:
        indices: The sub-environments the worker ran.
        exitcode: The process exit code (negative: killed by that signal).
    """

    def __init__(self, message: str, *, indices: tuple[int, ...], exitcode: int | None):
        super().__init__(message)
        self.indices = indices
        self.exitcode = exitcode


class UnguardedMainError(Error, RuntimeError):
    """Worker processes would run the user's script again, and its top-level code starts workers.

    Raised before any worker starts, when the start method is ``spawn`` or ``forkserver``
    (which import the main script in every worker) and the call comes from the script's
    top-level code outside an ``if __name__ == "__main__":`` block.

    Attributes:
        script: The main script's path.
        line: The line of the top-level call.
    """

    def __init__(self, message: str, *, script: str, line: int):
        super().__init__(message)
        self.script = script
        self.line = line


for _cls in (
    UnguardedMainError,
    InvalidVectorInfo,
    AlreadyPendingCallError,
    NoAsyncCallError,
    ClosedEnvironmentError,
    SubEnvError,
    WorkerDiedError,
):
    _cls.__module__ = "palaestra.error"
