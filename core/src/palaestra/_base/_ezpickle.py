"""Pickling by constructor arguments."""

from __future__ import annotations

from typing import Any

__all__ = ["EzPickle"]


class EzPickle:
    """Pickle an object by re-running its constructor with the recorded arguments.

    Useful for environments that hold unpicklable simulator handles: call
    ``EzPickle.__init__(self, *args, **kwargs)`` with the constructor's arguments and
    unpickling builds a fresh instance from them.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._ezpickle_args = args
        self._ezpickle_kwargs = kwargs

    def __getstate__(self) -> dict[str, Any]:
        return {"_ezpickle_args": self._ezpickle_args, "_ezpickle_kwargs": self._ezpickle_kwargs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        fresh = type(self)(*state["_ezpickle_args"], **state["_ezpickle_kwargs"])
        self.__dict__.update(fresh.__dict__)
