"""Advice added to an error as a note, so its message keeps the words code may compare."""

from __future__ import annotations

from typing import TypeVar

__all__ = ["noted"]

_Error = TypeVar("_Error", bound=BaseException)


def noted(error: _Error, note: str) -> _Error:
    """``error`` with ``note`` added (shown under the message by tracebacks from Python 3.11 on).

    On Python 3.10, which has no ``add_note``, the note is kept in ``__notes__`` all the same
    (the CLI shows it), and the message stays as it is.
    """
    add = getattr(error, "add_note", None)
    if add is not None:
        add(note)
    else:  # pragma: no cover - Python 3.10
        notes = getattr(error, "__notes__", None)
        if not isinstance(notes, list):
            notes = []
            error.__notes__ = notes  # type: ignore[attr-defined]
        notes.append(note)
    return error
