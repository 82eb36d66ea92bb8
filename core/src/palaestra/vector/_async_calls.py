"""AsyncVectorEnv's asynchronous calls: which one is pending, and closing when one is cut short."""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:
    from palaestra.vector._async import AsyncVectorEnv

__all__ = ["AsyncState", "closes_if_interrupted"]


class AsyncState(Enum):
    """Which asynchronous call, if any, is waiting for its ``*_wait``."""

    DEFAULT = "default"
    WAITING_RESET = "reset"
    WAITING_STEP = "step"
    WAITING_CALL = "call"


_Method = TypeVar("_Method", bound=Callable[..., Any])


def closes_if_interrupted(method: _Method) -> _Method:
    """Close the vector env if a KeyboardInterrupt (or SystemExit) stops ``method`` midway.

    An exchange with the workers cut short leaves replies in flight (perhaps half read): the
    env cannot tell what its workers have done, so it is closed at once instead of hanging or
    mixing one step's replies into the next. Interrupts between calls do no harm.
    """

    @functools.wraps(method)
    def guarded(self: AsyncVectorEnv, *args: Any, **kwargs: Any) -> Any:
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
