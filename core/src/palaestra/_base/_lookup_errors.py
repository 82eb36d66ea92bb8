"""The errors of ids and names nobody registered, defined when first raised.

``palaestra.error`` serves them (see :mod:`palaestra._base._vector_errors` for why they
live apart): a process whose ids all exist never defines them. Each class's ``__module__``
is ``palaestra.error``.
"""

from __future__ import annotations

from palaestra.error import Error, UnregisteredEnv

__all__ = [
    "DeprecatedEnv",
    "MissingSuiteError",
    "NameNotFound",
    "NamespaceNotFound",
    "VectorizerNotFound",
    "VersionNotFound",
    "WrapperSetNotFound",
]


class NamespaceNotFound(UnregisteredEnv):
    """The namespace part of an env id is unknown."""


class NameNotFound(UnregisteredEnv):
    """The name part of an env id is unknown in its namespace."""


class VersionNotFound(UnregisteredEnv):
    """The requested version is newer than every registered version."""


class MissingSuiteError(NameNotFound):
    """The id belongs to a published suite whose plugin distribution is not installed."""


class VectorizerNotFound(Error, KeyError, ValueError):
    """``make_vec`` was asked for a vectorization mode nobody registered.

    A ``ValueError`` too, as Gymnasium raises for an invalid mode.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class WrapperSetNotFound(Error, KeyError):
    """``make(..., wrappers=name)`` named a wrapper set nobody registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class DeprecatedEnv(Error):
    """The requested version is older than the registered one, or was retired."""


for _cls in (
    NamespaceNotFound,
    NameNotFound,
    VersionNotFound,
    MissingSuiteError,
    VectorizerNotFound,
    WrapperSetNotFound,
    DeprecatedEnv,
):
    _cls.__module__ = "palaestra.error"
