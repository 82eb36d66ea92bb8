"""Recording a wrapper's constructor arguments so a spec can rebuild it."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

__all__ = ["RecordConstructorArgs"]


class RecordConstructorArgs:
    """Mixin that stores the keyword arguments a wrapper was built with.

    ``Wrapper.spec`` turns them into a :class:`WrapperSpec`, which lets
    ``make(env.spec)`` rebuild the whole wrapper stack.
    """

    def __init__(self, *, _disable_deepcopy: bool = False, **kwargs: Any) -> None:
        # The first (outermost) call wins, so subclasses can record their own arguments.
        if not hasattr(self, "_saved_kwargs"):
            self._saved_kwargs: dict[str, Any] = kwargs if _disable_deepcopy else deepcopy(kwargs)
