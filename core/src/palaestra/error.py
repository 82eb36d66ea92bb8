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
    "InvalidSpaceArgument",
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
    "UnguardedMainError",
    "UnregisteredEnv",
    "UnsupportedMode",
    "VectorTimeoutError",
    "VectorizerNotFound",
    "VersionNotFound",
    "WorkerDiedError",
    "WrapperSetNotFound",
]


def _rebuild(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    error = cls.__new__(cls, *args)
    BaseException.__init__(error, *args)
    error.__dict__.update(state)
    return error


def rebuilding_reduce(self: BaseException) -> tuple[Any, ...]:
    """``__reduce__`` that restores an error's message and fields without calling its ``__init__``.

    Python's default calls ``cls(*args)``, which fails for an error whose constructor takes
    required keyword arguments; errors cross processes (multiprocessing, Ray) by pickle.
    """
    return (_rebuild, (type(self), self.args, dict(self.__dict__)))


class Error(Exception):
    """Root of every palaestra error; every one pickles with its message and fields."""

    __reduce__ = rebuilding_reduce


class UnregisteredEnv(Error, KeyError):
    """No environment is registered under the requested id."""

    def __str__(self) -> str:
        # KeyError would wrap the message in quotes; keep it readable.
        return str(self.args[0]) if self.args else ""


class InvalidEnvArguments(Error, TypeError):
    """An environment's constructor rejected the keyword arguments ``make`` passed."""


class InvalidEnvId(Error, TypeError):
    """An env id that is neither a string nor an ``EnvSpec``.

    ``make`` raises a ``TypeError`` for it and ``make_vec`` an ``Error``, in Gymnasium; this is both.
    """


class RegistrationError(Error, ValueError):
    """An environment (or other description) cannot be registered as given."""


class DependencyNotInstalled(Error, ImportError):
    """An optional dependency needed by the requested feature is missing."""


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


class InvalidSeed(Error, ValueError):
    """A seed is not a non-negative Python integer."""


class EnvCheckError(Error, AssertionError):
    """An environment broke the API contract that ``utils.env_checker`` checks.

    Also an ``AssertionError``: Gymnasium's checks fail with one, so ``except`` clauses
    written for them keep working.
    """


class EnvCheckTypeError(EnvCheckError, TypeError):
    """An env's attribute is of the wrong type (a space that is not a palaestra space)."""


if TYPE_CHECKING:
    from palaestra._base._lookup_errors import DeprecatedEnv as DeprecatedEnv
    from palaestra._base._lookup_errors import MissingSuiteError as MissingSuiteError
    from palaestra._base._lookup_errors import NameNotFound as NameNotFound
    from palaestra._base._lookup_errors import NamespaceNotFound as NamespaceNotFound
    from palaestra._base._lookup_errors import VectorizerNotFound as VectorizerNotFound
    from palaestra._base._lookup_errors import VersionNotFound as VersionNotFound
    from palaestra._base._lookup_errors import WrapperSetNotFound as WrapperSetNotFound
    from palaestra._base._space_errors import CustomSpaceError as CustomSpaceError
    from palaestra._base._space_errors import DynamicSpaceError as DynamicSpaceError
    from palaestra._base._space_errors import InvalidBound as InvalidBound
    from palaestra._base._space_errors import InvalidProbability as InvalidProbability
    from palaestra._base._space_errors import InvalidSampleArgument as InvalidSampleArgument
    from palaestra._base._space_errors import InvalidSampleArgumentType as InvalidSampleArgumentType
    from palaestra._base._space_errors import InvalidSpaceArgument as InvalidSpaceArgument
    from palaestra._base._space_errors import MissingArgument as MissingArgument
    from palaestra._base._timeout_error import VectorTimeoutError as VectorTimeoutError
    from palaestra._base._usage_errors import ActionOverflowError as ActionOverflowError
    from palaestra._base._usage_errors import DeprecatedWrapper as DeprecatedWrapper
    from palaestra._base._usage_errors import InvalidActionType as InvalidActionType
    from palaestra._base._usage_errors import InvalidEnvArgumentValue as InvalidEnvArgumentValue
    from palaestra._base._usage_errors import SnapshotError as SnapshotError
    from palaestra._base._usage_errors import SnapshotNotSupported as SnapshotNotSupported
    from palaestra._base._usage_errors import UnsupportedMode as UnsupportedMode
    from palaestra._base._vector_errors import AlreadyPendingCallError as AlreadyPendingCallError
    from palaestra._base._vector_errors import ClosedEnvironmentError as ClosedEnvironmentError
    from palaestra._base._vector_errors import InvalidVectorInfo as InvalidVectorInfo
    from palaestra._base._vector_errors import NoAsyncCallError as NoAsyncCallError
    from palaestra._base._vector_errors import SubEnvError as SubEnvError
    from palaestra._base._vector_errors import UnguardedMainError as UnguardedMainError
    from palaestra._base._vector_errors import WorkerDiedError as WorkerDiedError


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


# Errors defined in their own modules when first asked for (see palaestra._base._vector_errors):
# none of them is raised on the way to a first step.
_LAZY_ERRORS = {
    "ActionOverflowError": "palaestra._base._usage_errors",
    "AlreadyPendingCallError": "palaestra._base._vector_errors",
    "ClosedEnvironmentError": "palaestra._base._vector_errors",
    "CustomSpaceError": "palaestra._base._space_errors",
    "DeprecatedEnv": "palaestra._base._lookup_errors",
    "DeprecatedWrapper": "palaestra._base._usage_errors",
    "DynamicSpaceError": "palaestra._base._space_errors",
    "InvalidActionType": "palaestra._base._usage_errors",
    "InvalidBound": "palaestra._base._space_errors",
    "InvalidEnvArgumentValue": "palaestra._base._usage_errors",
    "InvalidProbability": "palaestra._base._space_errors",
    "InvalidSampleArgument": "palaestra._base._space_errors",
    "InvalidSampleArgumentType": "palaestra._base._space_errors",
    "InvalidSpaceArgument": "palaestra._base._space_errors",
    "InvalidVectorInfo": "palaestra._base._vector_errors",
    "MissingArgument": "palaestra._base._space_errors",
    "MissingSuiteError": "palaestra._base._lookup_errors",
    "NameNotFound": "palaestra._base._lookup_errors",
    "NamespaceNotFound": "palaestra._base._lookup_errors",
    "NoAsyncCallError": "palaestra._base._vector_errors",
    "SnapshotError": "palaestra._base._usage_errors",
    "SnapshotNotSupported": "palaestra._base._usage_errors",
    "SubEnvError": "palaestra._base._vector_errors",
    "UnguardedMainError": "palaestra._base._vector_errors",
    "UnsupportedMode": "palaestra._base._usage_errors",
    "VectorizerNotFound": "palaestra._base._lookup_errors",
    "VersionNotFound": "palaestra._base._lookup_errors",
    "VectorTimeoutError": "palaestra._base._timeout_error",
    "WorkerDiedError": "palaestra._base._vector_errors",
    "WrapperSetNotFound": "palaestra._base._lookup_errors",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY_ERRORS:
        import importlib

        # The import system runs each module once, whichever threads ask at once: one class.
        value = globals()[name] = getattr(importlib.import_module(_LAZY_ERRORS[name]), name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_ERRORS})
