"""Registration and make speak Gymnasium's words first.

For each mistake, the same registration calls run against Gymnasium and against a sandboxed
palaestra registry; palaestra's error is an instance of the class Gymnasium raises (its
``palaestra.error`` twin for Gymnasium's own classes), its message begins with Gymnasium's
(palaestra's advice comes after it), and the warnings are Gymnasium's, word for word.
"""

import itertools

import gymnasium
import numpy as np
import pytest

import palaestra
from tests.fixtures.checker import outcome

_ids = itertools.count()


def env_class(lib, metadata=None, rejects_kwargs=False):
    class Probe(lib.Env):
        def __init__(self, render_mode=None, **kwargs):
            if rejects_kwargs and kwargs:
                raise TypeError(f"unexpected {sorted(kwargs)}")
            self.render_mode = render_mode
            self.observation_space = lib.spaces.Discrete(2)
            self.action_space = lib.spaces.Discrete(2)

        def reset(self, *, seed=None, options=None):
            lib.Env.reset(self, seed=seed)
            return 0, {}

        def step(self, action):
            return 0, 0.0, False, False, {}

        def render(self):
            return np.zeros((2, 2, 3), np.uint8)

    Probe.metadata = {"render_modes": ["rgb_array"], "render_fps": 4} if metadata is None else metadata
    return Probe


def _vector_env(num_envs):
    return None


CASES = {
    "no entry point": lambda lib, n: lib.register(f"{n}-v0"),
    "versioned after unversioned": lambda lib, n: (
        lib.register(n, entry_point=env_class(lib)),
        lib.register(f"{n}-v1", entry_point=env_class(lib)),
    ),
    "unversioned after versioned": lambda lib, n: (
        lib.register(f"{n}-v1", entry_point=env_class(lib)),
        lib.register(n, entry_point=env_class(lib)),
    ),
    "overriding": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=env_class(lib)),
        lib.register(f"{n}-v0", entry_point=env_class(lib)),
    ),
    "an int id": lambda lib, n: lib.make(123),
    "make_vec an int id": lambda lib, n: lib.make_vec(123),
    "spec of an int": lambda lib, n: lib.spec(123),
    "a spec without entry point": lambda lib, n: lib.make(lib.envs.registration.EnvSpec(f"{n}-v0")),
    "metadata not a dict": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=env_class(lib, metadata=[1])),
        lib.make(f"{n}-v0"),
    ),
    "metadata without render modes": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=env_class(lib, metadata={"render_fps": 3})),
        lib.make(f"{n}-v0"),
    ),
    "render modes not iterable": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=env_class(lib, metadata={"render_modes": 3})),
        lib.make(f"{n}-v0"),
    ),
    "a module that is not there": lambda lib, n: lib.make(f"no_such_module_{n}:Env-v0"),
    "unversioned make": lambda lib, n: (lib.register(f"{n}-v2", entry_point=env_class(lib)), lib.make(n)),
    "constructor rejects kwargs": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=env_class(lib, rejects_kwargs=True)),
        lib.make(f"{n}-v0", foo=1),
    ),
    "creator returns no env": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=lambda: "not an env"),
        lib.make(f"{n}-v0"),
    ),
    "make_vec sync without entry point": lambda lib, n: (
        lib.register(f"{n}-v0", vector_entry_point=_vector_env),
        lib.make_vec(f"{n}-v0", 2, vectorization_mode="sync"),
    ),
    "make_vec without vector entry point": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=env_class(lib)),
        lib.make_vec(f"{n}-v0", 2, vectorization_mode="vector_entry_point"),
    ),
    "make_vec vector kwargs to a vector entry point": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=env_class(lib), vector_entry_point=_vector_env),
        lib.make_vec(f"{n}-v0", 2, vectorization_mode="vector_entry_point", vector_kwargs={"a": 1}),
    ),
    "wrapper spec without kwargs": lambda lib, n: (
        lib.register(
            f"{n}-v0",
            entry_point=env_class(lib),
            additional_wrappers=(lib.envs.registration.WrapperSpec("W", "x:y", None),),
        ),
        lib.make(f"{n}-v0"),
    ),
    "human rendering applied": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=env_class(lib)),
        lib.make(f"{n}-v0", render_mode="human").close(),
    ),
    "unsupported render mode": lambda lib, n: (
        lib.register(f"{n}-v0", entry_point=env_class(lib)),
        lib.make(f"{n}-v0", render_mode="ansi"),
    ),
    "malformed id": lambda lib, n: lib.register("bad id!", entry_point=env_class(lib)),
    "nested namespace": lambda lib, n: lib.register(f"a/b/{n}-v0", entry_point=env_class(lib)),
}


def family(ours, theirs):
    """``ours`` is what ``theirs`` is (Gymnasium's own error classes by their palaestra twin)."""
    if isinstance(theirs, gymnasium.error.Error):
        return isinstance(ours, getattr(palaestra.error, type(theirs).__name__))
    return isinstance(ours, type(theirs))


# Mistakes with the reference envs, in the default registry.
REFERENCE_CASES = {
    "make_vec unknown mode": lambda lib: lib.make_vec("CartPole-v1", 2, vectorization_mode="bogus"),
    "unknown kwargs for a reference env": lambda lib: lib.make("CartPole-v1", foo=1),
    "a version that never was": lambda lib: lib.make("CartPole-v7"),
    "a deprecated version": lambda lib: lib.make("Humanoid-v0"),
    "a misspelt name": lambda lib: lib.make("CartPol-v1"),
    "an unknown namespace": lambda lib: lib.make("phys3d/CartPole-v1"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_registration_mistakes_read_as_in_gymnasium(isolated, case):
    name = f"Words{next(_ids)}"
    try:
        ours, theirs = (outcome(lambda lib=lib: CASES[case](lib, name)) for lib in (palaestra, gymnasium))
    finally:
        for env_id in [k for k in gymnasium.registry if name in k]:
            del gymnasium.registry[env_id]
    assert_same_words(ours, theirs)


@pytest.mark.needs_plugins
@pytest.mark.parametrize("case", sorted(REFERENCE_CASES))
def test_mistakes_with_reference_envs_read_as_in_gymnasium(case):
    ours, theirs = (outcome(lambda lib=lib: REFERENCE_CASES[case](lib)) for lib in (palaestra, gymnasium))
    assert_same_words(ours, theirs)


def assert_same_words(ours, theirs):
    (our_error, our_warnings), (their_error, their_warnings) = ours, theirs
    assert our_warnings == their_warnings
    if their_error is None:
        assert our_error is None, our_error
        return
    assert family(our_error, their_error), (type(our_error), type(their_error))
    ours, theirs = str(our_error).strip('"'), str(their_error).strip('"')  # KeyErrors quote
    assert ours.startswith(theirs), (ours, theirs)
