"""Shipping env factories to worker processes."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["CloudpickleWrapper", "dumps_factory", "ship_factories"]


def dumps_factory(obj: Any) -> bytes:
    """Pickle ``obj`` with cloudpickle when available (lambdas, closures), else pickle."""
    try:
        # optional dependency: cloudpickle
        import cloudpickle  # type: ignore[import-untyped]
    except ImportError:
        return pickle.dumps(obj)
    return cloudpickle.dumps(obj)  # type: ignore[no-any-return]


def ship_factories(
    env_fns: Sequence[Callable[[], Any]], block: range, fork: bool, context: str | None
) -> Any:
    """The factories of ``block`` as a worker gets them: the list itself when forked, else pickled.

    Each one is pickled and loaded back first, so one that cannot travel is named.
    """
    fns = [env_fns[i] for i in block]
    if fork:
        return fns  # inherited by the child, never pickled
    for i, fn in zip(block, fns, strict=True):
        try:
            pickle.loads(dumps_factory(fn))
        except Exception as e:
            raise TypeError(
                f"env_fns[{i}] ({fn!r}) cannot be pickled for the {context!r} start method: {e}. "
                "Use a module-level function or functools.partial, install cloudpickle, or use context='fork'."
            ) from e
    return dumps_factory(fns)


class CloudpickleWrapper:
    """Wraps a callable so that it pickles with cloudpickle (when installed).

    Args:
        fn: The callable, typically an env factory.
    """

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def __getstate__(self) -> bytes:
        return dumps_factory(self.fn)

    def __setstate__(self, state: bytes) -> None:
        self.fn = pickle.loads(state)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)
