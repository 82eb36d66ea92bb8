"""Exceptions raised by palaestra.

The names match Gymnasium's ``error`` module so ``except gymnasium.error.X`` ports by
changing the import. palaestra's own, more specific errors subclass them, and also a
builtin base where the meaning matches (an unknown id is a ``KeyError``, a bad argument
a ``ValueError``), so generic ``except`` clauses keep working.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = [
    "ActionOverflowError",
    "AlreadyPendingCallError",
    "ClosedEnvironmentError",
    "CustomSpaceError",
    "DependencyNotInstalled",
    "DeprecatedEnv",
    "DeprecatedWrapper",
    "DynamicSpaceError",
    "EnvCheckError",
    "EnvCheckTypeError",
    "Error",
    "InvalidAction",
    "InvalidActionType",
    "InvalidBound",
    "InvalidEnvArgumentValue",
    "InvalidEnvArguments",
    "InvalidEnvId",
    "InvalidResetOptions",
    "InvalidMetadata",
    "InvalidProbability",
    "InvalidSampleArgument",
    "InvalidSampleArgumentType",
    "InvalidSeed",
    "InvalidVectorInfo",
    "MissingArgument",
    "MissingSuiteError",
    "NameNotFound",
    "NamespaceNotFound",
    "PluginConflictError",
    "PluginError",
    "PluginLoadError",
    "RegistrationError",
    "ResetNeeded",
    "SnapshotError",
    "SnapshotNotSupported",
    "SubEnvError",
    "UnregisteredEnv",
    "UnsupportedMode",
    "VectorTimeoutError",
    "VectorizerNotFound",
    "VersionNotFound",
    "WorkerDiedError",
    "WrapperSetNotFound",
]


class Error(Exception):
    """Root of every palaestra error."""


class UnregisteredEnv(Error, KeyError):
    """No environment is registered under the requested id."""

    def __str__(self) -> str:
        # KeyError would wrap the message in quotes; keep it readable.
        return str(self.args[0]) if self.args else ""


class NamespaceNotFound(UnregisteredEnv):
    """The namespace part of an env id is unknown."""


class NameNotFound(UnregisteredEnv):
    """The name part of an env id is unknown in its namespace."""


class VersionNotFound(UnregisteredEnv):
    """The requested version is newer than every registered version."""


class MissingSuiteError(NameNotFound):
    """The id belongs to a published suite whose plugin distribution is not installed."""


class InvalidEnvArguments(Error, TypeError):
    """An environment's constructor rejected the keyword arguments ``make`` passed."""


class InvalidEnvId(Error, TypeError):
    """An env id that is neither a string nor an ``EnvSpec``.

    ``make`` raises a ``TypeError`` for it and ``make_vec`` an ``Error``, in Gymnasium; this is both.
    """


class InvalidEnvArgumentValue(InvalidEnvArguments, ValueError):
    """A constructor argument has the right type but an impossible value (NaN, a negative size...)."""


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


class RegistrationError(Error, ValueError):
    """An environment (or other description) cannot be registered as given."""


class DependencyNotInstalled(Error, ImportError):
    """An optional dependency needed by the requested feature is missing."""


class UnsupportedMode(Error):
    """The requested render mode is not supported by the environment."""


class InvalidMetadata(Error):
    """An environment's ``metadata`` is malformed."""


class ResetNeeded(Error):
    """``step`` or ``render`` was called before ``reset``."""


class InvalidAction(Error, ValueError, AssertionError):
    """The action given to ``step`` is not in the action space.

    Also an ``AssertionError``: Gymnasium's CartPole, MountainCar, LunarLander and Blackjack
    ``assert`` their actions, so ``except`` clauses written for them keep working.
    """


class InvalidResetOptions(Error, TypeError):
    """``reset``'s ``options`` is not a mapping (a dict) or ``None``."""


class InvalidActionType(InvalidAction, TypeError):
    """An action (or batch of actions) of a type the space cannot hold (Gymnasium raises ``TypeError``)."""


class ActionOverflowError(InvalidAction, OverflowError):
    """An action so large that the env's arithmetic overflows (Gymnasium raises ``OverflowError``)."""


class InvalidSeed(Error, ValueError):
    """A seed is not a non-negative Python integer."""


class EnvCheckError(Error, AssertionError):
    """An environment broke the API contract that ``utils.env_checker`` checks.

    Also an ``AssertionError``: Gymnasium's checks fail with one, so ``except`` clauses
    written for them keep working.
    """


class EnvCheckTypeError(EnvCheckError, TypeError):
    """An env's attribute is of the wrong type (a space that is not a palaestra space)."""


class SnapshotNotSupported(Error, NotImplementedError):
    """The environment cannot save and restore its state (``Env.snapshot``)."""


class SnapshotError(Error, ValueError):
    """A snapshot does not fit the environment it is restored into, or cannot be taken."""


class DeprecatedWrapper(ImportError):
    """A wrapper was renamed or removed; the message names its replacement."""


def _define_vector_timeout_error() -> type[Error]:
    # It also subclasses multiprocessing.TimeoutError (what Gymnasium raises and code catches);
    # multiprocessing costs milliseconds to import, so the class is made on first use.
    import multiprocessing

    class VectorTimeoutError(Error, multiprocessing.TimeoutError, TimeoutError):
        """A vector env's worker did not answer within the timeout.

        Attributes:
            indices: The sub-environments of the worker that did not answer.
        """

        def __init__(self, message: str, *, indices: tuple[int, ...]):
            super().__init__(message)
            self.indices = indices

    VectorTimeoutError.__module__ = __name__
    VectorTimeoutError.__qualname__ = "VectorTimeoutError"
    return VectorTimeoutError


if TYPE_CHECKING:
    from palaestra._base._space_errors import CustomSpaceError as CustomSpaceError
    from palaestra._base._space_errors import DynamicSpaceError as DynamicSpaceError
    from palaestra._base._space_errors import InvalidBound as InvalidBound
    from palaestra._base._space_errors import InvalidProbability as InvalidProbability
    from palaestra._base._space_errors import InvalidSampleArgument as InvalidSampleArgument
    from palaestra._base._space_errors import InvalidSampleArgumentType as InvalidSampleArgumentType
    from palaestra._base._space_errors import MissingArgument as MissingArgument
    from palaestra._base._vector_errors import AlreadyPendingCallError as AlreadyPendingCallError
    from palaestra._base._vector_errors import ClosedEnvironmentError as ClosedEnvironmentError
    from palaestra._base._vector_errors import InvalidVectorInfo as InvalidVectorInfo
    from palaestra._base._vector_errors import NoAsyncCallError as NoAsyncCallError
    from palaestra._base._vector_errors import SubEnvError as SubEnvError
    from palaestra._base._vector_errors import WorkerDiedError as WorkerDiedError


if TYPE_CHECKING:

    class VectorTimeoutError(Error, TimeoutError):
        """A vector env's worker did not answer within the timeout (also a ``multiprocessing.TimeoutError``)."""

        indices: tuple[int, ...]

        def __init__(self, message: str, *, indices: tuple[int, ...]): ...


class PluginError(Error):
    """A plugin could not provide what was asked of it.

    Attributes:
        namespace: The plugin's namespace (its entry-point name); ``None`` for a conflict over a
            default-namespace env name, which belongs to no namespace.
        distribution: The distribution that declared the plugin, if known.
    """

    def __init__(self, message: str, *, namespace: str | None, distribution: str | None = None):
        super().__init__(message)
        self.namespace = namespace
        self.distribution = distribution


class PluginLoadError(PluginError, ImportError):
    """A plugin's module failed to import, or one of its hooks raised."""


class PluginConflictError(PluginError, RegistrationError):
    """Two distributions claim the same namespace, the same id, or the same default-namespace name.

    Attributes:
        distributions: Both claimants, in discovery order.
    """

    def __init__(self, message: str, *, namespace: str | None, distributions: tuple[str, ...]):
        super().__init__(message, namespace=namespace, distribution=distributions[0])
        self.distributions = distributions


# Errors defined in their own modules when first asked for (see palaestra._base._vector_errors).
_LAZY_ERRORS = {
    "AlreadyPendingCallError": "palaestra._base._vector_errors",
    "ClosedEnvironmentError": "palaestra._base._vector_errors",
    "CustomSpaceError": "palaestra._base._space_errors",
    "DynamicSpaceError": "palaestra._base._space_errors",
    "InvalidBound": "palaestra._base._space_errors",
    "InvalidProbability": "palaestra._base._space_errors",
    "InvalidSampleArgument": "palaestra._base._space_errors",
    "InvalidSampleArgumentType": "palaestra._base._space_errors",
    "InvalidVectorInfo": "palaestra._base._vector_errors",
    "MissingArgument": "palaestra._base._space_errors",
    "NoAsyncCallError": "palaestra._base._vector_errors",
    "SubEnvError": "palaestra._base._vector_errors",
    "WorkerDiedError": "palaestra._base._vector_errors",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY_ERRORS:
        import importlib

        value = globals()[name] = getattr(importlib.import_module(_LAZY_ERRORS[name]), name)
        return value
    if name == "VectorTimeoutError":
        value = globals()[name] = _define_vector_timeout_error()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_ERRORS, "VectorTimeoutError"})
