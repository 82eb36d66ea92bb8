"""The message rule, held for every exception class palaestra shares with Gymnasium.

For each class in ``gymnasium.error`` (palaestra's ``error`` module has them all), one mistake
that makes Gymnasium raise it is made against both libraries: palaestra raises its class of
the same name, and its message begins with Gymnasium's (palaestra's advice comes after).
The other modules' tests (``test_*_words.py``, the env suites' bad-input tests) cover many
more mistakes per class.
"""

import inspect

import gymnasium
import numpy as np
import pytest

import palaestra
from tests.fixtures.checker import outcome
from tests.fixtures.gridworld import make_gridworld_class

# Classes Gymnasium 1.4.0 defines but never raises (so there are no words to keep), or whose
# words palaestra changes on purpose.
NOT_COMPARED = {
    "MissingArgument": "never raised by Gymnasium 1.4.0",
    "UnsupportedMode": "never raised by Gymnasium 1.4.0",
    "DeprecatedWrapper": "never raised by Gymnasium 1.4.0 (documented only)",
    "UnregisteredEnv": "raised through its subclasses NameNotFound, NamespaceNotFound, VersionNotFound",
    "DependencyNotInstalled": "install hints name palaestra's distributions and extras (docs/migrating.md)",
}


def _async(lib):
    return lib.vector.AsyncVectorEnv([make_gridworld_class(lib)] * 2)


def _pending(lib):
    env = _async(lib)
    env.reset(seed=0)
    env.step_async(np.zeros(2, dtype=np.int64))
    try:
        env.step_async(np.zeros(2, dtype=np.int64))
    finally:
        env.step_wait()
        env.close()


def _closed(lib):
    env = _async(lib)
    env.close()
    env.step(np.zeros(2, dtype=np.int64))


def _not_waiting(lib):
    env = _async(lib)
    try:
        env.step_wait()
    finally:
        env.close()


def _custom_space(lib):
    return type("CustomSpace", (lib.spaces.Space,), {})()


def _registered(lib, *ids, metadata=None):
    cls = make_gridworld_class(lib)
    if metadata is not None:
        cls.metadata = metadata
    for env_id in ids:
        lib.register(env_id, entry_point=cls)


def _sticky(lib):
    env = make_gridworld_class(lib)()
    lib.wrappers.StickyAction(env, repeat_action_probability=1.0)


SCENARIOS = {
    "AlreadyPendingCallError": _pending,
    "ClosedEnvironmentError": _closed,
    "NoAsyncCallError": _not_waiting,
    "CustomSpaceError": lambda lib: lib.vector.utils.create_shared_memory(_custom_space(lib), n=2),
    "Error": lambda lib: lib.envs.registration.parse_env_id("a b c"),
    "DeprecatedEnv": lambda lib: (_registered(lib, "ErrWords-v1", "ErrWords-v3"), lib.make("ErrWords-v2")),
    "NameNotFound": lambda lib: (_registered(lib, "ErrWords-v1"), lib.make("ErrWrds-v1")),
    "NamespaceNotFound": lambda lib: (_registered(lib, "errns/ErrWords-v1"), lib.make("errnss/ErrWords-v1")),
    "VersionNotFound": lambda lib: (_registered(lib, "ErrWords-v1", "ErrWords-v3"), lib.make("ErrWords-v9")),
    "RegistrationError": lambda lib: _registered(lib, "ErrWords", "ErrWords-v1"),
    "InvalidMetadata": lambda lib: (_registered(lib, "ErrWords-v1", metadata=[1]), lib.make("ErrWords-v1")),
    "ResetNeeded": lambda lib: lib.make(
        lib.envs.registration.EnvSpec("ErrWords-v0", make_gridworld_class(lib))
    ).step(0),
    "InvalidBound": lambda lib: lib.wrappers.NormalizeReward(make_gridworld_class(lib)(), gamma=2.0),
    "InvalidProbability": _sticky,
}

# Mistakes with a reference env, made in the real registry.
REFERENCE_SCENARIOS = {
    "InvalidAction": lambda lib: (lambda env: (env.reset(seed=0), env.step(9)))(
        lib.make("CarRacing-v3", continuous=False, disable_env_checker=True)
    ),
}


def _gymnasium_error_names():
    return {
        name
        for name, cls in vars(gymnasium.error).items()
        if inspect.isclass(cls)
        and issubclass(cls, BaseException)
        and cls.__module__ == gymnasium.error.__name__
    }


def test_every_shared_exception_class_has_a_scenario_or_a_reason():
    shared = _gymnasium_error_names()
    assert shared <= set(
        dir(palaestra.error)
    )  # palaestra has every one of Gymnasium's names (some load lazily)
    compared = set(SCENARIOS) | set(REFERENCE_SCENARIOS)
    assert compared | set(NOT_COMPARED) == shared
    assert not compared & set(NOT_COMPARED)


def assert_same_class_and_words_first(name, scenario):
    try:
        (ours, _), (theirs, _) = (outcome(lambda lib=lib: scenario(lib)) for lib in (palaestra, gymnasium))
    finally:
        for env_id in [k for k in gymnasium.registry if "ErrWords" in k]:
            del gymnasium.registry[env_id]
    assert type(theirs).__name__ == name, theirs
    assert isinstance(ours, getattr(palaestra.error, name)), ours
    assert str(ours).strip('"').startswith(str(theirs).strip('"')), (str(ours), str(theirs))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_same_mistake_raises_the_same_class_with_gymnasiums_words_first(name, isolated):
    assert_same_class_and_words_first(name, SCENARIOS[name])


@pytest.mark.needs_plugins
@pytest.mark.parametrize("name", sorted(REFERENCE_SCENARIOS))
def test_the_same_mistake_with_a_reference_env_reads_the_same(name):
    pytest.importorskip("Box2D", reason="Gymnasium raises InvalidAction only in CarRacing (Box2D)")
    assert_same_class_and_words_first(name, REFERENCE_SCENARIOS[name])


def test_palaestra_error_defines_every_class_at_import():
    """An ordinary module: every class is in its namespace once it is imported, under its name.

    VectorTimeoutError too, though its base (multiprocessing.TimeoutError) costs importing
    multiprocessing (about 5 ms a process; docs/architecture.md, "Lazy seams").
    """
    import multiprocessing
    import subprocess
    import sys

    code = (
        "import sys, palaestra.error as e\n"
        "print(sorted(n for n in e.__all__ if n not in vars(e)), 'multiprocessing' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.split("\n")[:1] == ["[] True"], result.stderr
    assert issubclass(palaestra.error.VectorTimeoutError, multiprocessing.TimeoutError)
    assert not hasattr(palaestra.error, "__getattr__")
    for name in palaestra.error.__all__:
        cls = getattr(palaestra.error, name)
        assert cls.__module__ == "palaestra.error" and cls.__name__ == name
        assert name in dir(palaestra.error)
        assert issubclass(cls, Exception)
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchError'"):
        palaestra.error.NoSuchError  # noqa: B018
