"""Shipping env factories to worker processes."""

from __future__ import annotations

import pickle
from typing import Any

__all__ = ["CloudpickleWrapper", "dumps_factory"]


def dumps_factory(obj: Any) -> bytes:
    """Pickle ``obj`` with cloudpickle when available (lambdas, closures), else pickle."""
    try:
        # optional dependency: cloudpickle
        import cloudpickle  # type: ignore[import-untyped]
    except ImportError:
        return pickle.dumps(obj)
    return cloudpickle.dumps(obj)  # type: ignore[no-any-return]


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
