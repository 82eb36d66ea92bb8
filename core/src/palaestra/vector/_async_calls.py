"""The protocol of a worker-backed env's asynchronous calls: which one is pending, and closing when one is cut short.

It knows the env only by the :class:`Interruptible` face it guards (not the env's class), so
the env's module imports this one and not the other way round.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import Enum
from typing import Any, Protocol, TypeVar, cast

__all__ = ["AsyncState", "Interruptible", "closes_if_interrupted"]


class AsyncState(Enum):
    """Which asynchronous call, if any, is waiting for its ``*_wait``."""

    DEFAULT = "default"
    WAITING_RESET = "reset"
    WAITING_STEP = "step"
    WAITING_CALL = "call"


class Interruptible(Protocol):
    """What :func:`closes_if_interrupted` reads and sets on the env whose method it guards."""

    closed: bool
    _closed_because: str | None
    _state: AsyncState

    def close(self, *, terminate: bool = ...) -> None:
        """Close the env (``terminate``: stop its workers at once)."""


_Method = TypeVar("_Method", bound=Callable[..., Any])


def closes_if_interrupted(method: _Method) -> _Method:
    """Close the vector env if a KeyboardInterrupt (or SystemExit) stops ``method`` midway.

    An exchange with the workers cut short leaves replies in flight (perhaps half read): the
    env cannot tell what its workers have done, so it is closed at once instead of hanging or
    mixing one step's replies into the next. Interrupts between calls do no harm.
    """

    @functools.wraps(method)
    def guarded(self: Interruptible, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except BaseException as exc:
            if not isinstance(exc, Exception) and not self.closed:
                self._closed_because = (
                    f"{type(exc).__name__} interrupted `{method.__name__}` while it exchanged messages "
                    "with the workers, so the replies in flight were lost"
                )
                self._state = AsyncState.DEFAULT
                self.close(terminate=True)
            raise

    return cast("_Method", guarded)
