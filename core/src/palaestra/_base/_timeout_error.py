"""VectorTimeoutError, in a module of its own: its base class needs :mod:`multiprocessing`.

``palaestra.error`` serves it, defined when first used: importing multiprocessing costs
milliseconds that a process never timing out a worker need not pay. The import system runs
this module once, whichever threads ask for the class at once, so there is one class.
"""

from __future__ import annotations

import multiprocessing

from palaestra._base._error_root import Error

__all__ = ["VectorTimeoutError"]


class VectorTimeoutError(Error, multiprocessing.TimeoutError, TimeoutError):
    """A vector env's worker did not answer within the timeout (also a ``multiprocessing.TimeoutError``).

    Attributes:
        indices: The sub-environments of the worker that did not answer.
    """

    def __init__(self, message: str, *, indices: tuple[int, ...]):
        super().__init__(message)
        self.indices = indices


VectorTimeoutError.__module__ = "palaestra.error"
