"""Exceptions raised by palaestra.

The names match Gymnasium's ``error`` module so ``except gymnasium.error.X`` ports by
changing the import. palaestra's own, more specific errors subclass them, and also a
builtin base where the meaning matches (an unknown id is a ``KeyError``, a bad argument
a ``ValueError``), so generic ``except`` clauses keep working.
"""

from __future__ import annotations

import multiprocessing  # VectorTimeoutError is one, as in Gymnasium
from typing import Any

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
    "InvalidSeedType",
    "InvalidVectorInfo",
    "MissingArgument",
    "MissingSuiteError",
    "NameNotFound",
    "NamespaceNotFound",
    "NoAsyncCallError",
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


class InvalidSeedType(InvalidSeed, TypeError):
    """A seed of a type no reset takes (a ``float`` for a vector reset, say).

    Also a ``TypeError``, as Gymnasium's vector envs raise one.
    """


class EnvCheckError(Error, AssertionError):
    """An environment broke the API contract that ``utils.env_checker`` checks.

    Also an ``AssertionError``: Gymnasium's checks fail with one, so ``except`` clauses
    written for them keep working.
    """


class EnvCheckTypeError(EnvCheckError, TypeError):
    """An env's attribute is of the wrong type (a space that is not a palaestra space)."""


# -- ids and names nobody registered ------------------------------------------------------


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


# -- uses a first step never meets (an odd action, a snapshot, a retired wrapper) ---------


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


# -- space arguments and space utilities ----------------------------------------------------


class MissingArgument(Error):
    """A required argument is missing."""


class InvalidProbability(Error):
    """A probability is outside ``[0, 1]``."""


class InvalidBound(Error):
    """A lower bound exceeds the upper bound."""


class InvalidSampleArgument(Error, ValueError, AssertionError):
    """A ``sample`` mask, probability or size argument is malformed.

    An ``AssertionError`` too: Gymnasium checks these with ``assert``, and code written for it
    may catch that.
    """


class InvalidSampleArgumentType(InvalidSampleArgument, TypeError):
    """A ``sample`` mask or probability is of the wrong type or dtype (also a ``TypeError``)."""


class InvalidSpaceArgument(Error, TypeError, ValueError):
    """A space constructor's argument is of the wrong type or value.

    Both a ``TypeError`` and a ``ValueError``: Gymnasium raises one or the other (or lets NumPy
    raise), and code written for it may catch either.
    """


class CustomSpaceError(Exception):
    """A custom space lacks an implementation of a space utility."""


class DynamicSpaceError(CustomSpaceError, TypeError):
    """A space of dynamic shape (Graph, Sequence) was asked for a fixed-size buffer.

    A ``TypeError`` too, as Gymnasium raises there.
    """


# -- vector envs --------------------------------------------------------------------------


class InvalidVectorInfo(Error, TypeError, ValueError, AssertionError):
    """A vector env's info is not a dict of one entry per sub-env.

    Catchable as the ``TypeError``/``ValueError`` palaestra raised before and as the
    ``AssertionError`` Gymnasium raises.
    """


class AlreadyPendingCallError(Exception):
    """An asynchronous call is already pending on a vector environment."""

    __reduce__ = rebuilding_reduce

    def __init__(self, message: str, name: str):
        super().__init__(message)
        self.name = name


class NoAsyncCallError(Exception):
    """A ``*_wait`` call was made without a pending asynchronous call."""

    __reduce__ = rebuilding_reduce

    def __init__(self, message: str, name: str):
        super().__init__(message)
        self.name = name


class ClosedEnvironmentError(Exception):
    """An operation was attempted on a closed environment."""

    __reduce__ = rebuilding_reduce


class SubEnvError(Error):
    """A sub-environment of a vector env raised; carries the worker's traceback.

    Raised directly when the original exception cannot be rebuilt in the parent, and
    otherwise attached as the ``__cause__`` of the re-raised original exception.

    Attributes:
        index: The sub-environment's index.
        error_type: The original exception's class name.
        worker_traceback: The traceback text from the worker process.
    """

    def __init__(self, message: str, *, index: int, error_type: str, worker_traceback: str):
        super().__init__(message)
        self.index = index
        self.error_type = error_type
        self.worker_traceback = worker_traceback


class VectorTimeoutError(Error, multiprocessing.TimeoutError, TimeoutError):
    """A vector env's worker did not answer within the timeout (also a ``multiprocessing.TimeoutError``).

    Attributes:
        indices: The sub-environments of the worker that did not answer.
    """

    def __init__(self, message: str, *, indices: tuple[int, ...]):
        super().__init__(message)
        self.indices = indices


class WorkerDiedError(Error, RuntimeError):
    """A vector env's worker process exited unexpectedly.

    Attributes:
        indices: The sub-environments the worker ran.
        exitcode: The process exit code (negative: killed by that signal).
    """

    def __init__(self, message: str, *, indices: tuple[int, ...], exitcode: int | None):
        super().__init__(message)
        self.indices = indices
        self.exitcode = exitcode


class UnguardedMainError(Error, RuntimeError):
    """Worker processes would run the user's script again, and its top-level code starts workers.

    Raised before any worker starts, when the start method is ``spawn`` or ``forkserver``
    (which import the main script in every worker) and the call comes from the script's
    top-level code outside an ``if __name__ == "__main__":`` block.

    Attributes:
        script: The main script's path.
        line: The line of the top-level call.
    """

    def __init__(self, message: str, *, script: str, line: int):
        super().__init__(message)
        self.script = script
        self.line = line


# -- plugins ------------------------------------------------------------------------------


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
