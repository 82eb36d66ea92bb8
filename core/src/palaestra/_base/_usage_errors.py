"""Errors of uses a first step never meets (a retired wrapper, a snapshot, an odd action).

``palaestra.error`` serves them, defined when first asked for (see
:mod:`palaestra._base._vector_errors` for why they live apart); each class's ``__module__``
is ``palaestra.error``.
"""

from __future__ import annotations

from palaestra.error import Error, InvalidAction, InvalidEnvArguments

__all__ = [
    "ActionOverflowError",
    "DeprecatedWrapper",
    "InvalidActionType",
    "InvalidEnvArgumentValue",
    "SnapshotError",
    "SnapshotNotSupported",
    "UnsupportedMode",
]


class InvalidEnvArgumentValue(InvalidEnvArguments, ValueError):
    """A constructor argument has the right type but an impossible value (NaN, a negative size...)."""


class UnsupportedMode(Error):
    """The requested render mode is not supported by the environment."""


class InvalidActionType(InvalidAction, TypeError):
    """An action (or batch of actions) of a type the space cannot hold (Gymnasium raises ``TypeError``)."""


class ActionOverflowError(InvalidAction, OverflowError):
    """An action so large that the env's arithmetic overflows (Gymnasium raises ``OverflowError``)."""


class SnapshotNotSupported(Error, NotImplementedError):
    """The environment cannot save and restore its state (``Env.snapshot``)."""


class SnapshotError(Error, ValueError):
    """A snapshot does not fit the environment it is restored into, or cannot be taken."""


class DeprecatedWrapper(ImportError):
    """A wrapper was renamed or removed; the message names its replacement."""


for _cls in (
    InvalidEnvArgumentValue,
    UnsupportedMode,
    InvalidActionType,
    ActionOverflowError,
    SnapshotNotSupported,
    SnapshotError,
    DeprecatedWrapper,
):
    _cls.__module__ = "palaestra.error"
