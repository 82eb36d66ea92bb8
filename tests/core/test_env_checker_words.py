"""The env checkers speak Gymnasium's words.

The same exception class and message, the same warnings, for the same broken env, so tests
and log filters written against Gymnasium match.

Each case builds one env twice, once on each library (the class body is shared), runs the
same check from both libraries and compares what came out.
"""

import gymnasium
import gymnasium.utils.env_checker as their_checker
import gymnasium.utils.passive_env_checker as their_passive
import numpy as np
import pytest

import palaestra
import palaestra.utils.env_checker as our_checker
import palaestra.utils.passive_env_checker as our_passive
from tests.fixtures.checker import outcome


def make_env(lib, **methods):
    """A small valid env on ``lib`` (gymnasium or palaestra) with ``methods`` replaced."""

    class Probe(lib.Env):
        metadata = {"render_modes": ["rgb_array"], "render_fps": 5}

        def __init__(self, render_mode=None):
            self.render_mode = render_mode
            self.observation_space = lib.spaces.Box(-1, 1, (3,), np.float32)
            self.action_space = lib.spaces.Discrete(2)

        def reset(self, *, seed=None, options=None):
            lib.Env.reset(self, seed=seed)
            return self.np_random.uniform(-1, 1, 3).astype(np.float32), {}

        def step(self, action):
            return self.np_random.uniform(-1, 1, 3).astype(np.float32), 0.5, False, False, {}

        def render(self):
            return np.zeros((4, 4, 3), np.uint8)

    for name, method in methods.items():
        setattr(Probe, name, method)
    env = Probe()
    # Gymnasium compares reset observations only for envs with a spec; palaestra for all
    env.spec = lib.envs.registration.EnvSpec("Probe-v0")
    return env


def _reset_returning(result):
    def reset(self, *, seed=None, options=None):
        type(self).__mro__[1].reset(self, seed=seed)
        return result(self) if callable(result) else result

    return reset


def _unseeded(self, *, seed=None, options=None):
    type(self).__mro__[1].reset(self, seed=seed)
    return np.random.default_rng().uniform(-1, 1, 3).astype(np.float32), {}


def _fixed_seed(self, *, seed=None, options=None):
    type(self).__mro__[1].reset(self, seed=1)
    return np.zeros(3, np.float32), {}


def _own_generator(self, *, seed=None, options=None):
    self._np_random = np.random.default_rng()
    return np.zeros(3, np.float32), {}


def _seed_default(self, *, seed=23, options=None):
    type(self).__mro__[1].reset(self, seed=seed)
    return np.zeros(3, np.float32), {}


def _no_seed(self, *, options=None):
    return np.zeros(3, np.float32), {}


def _no_options(self, *, seed=None):
    type(self).__mro__[1].reset(self, seed=seed)
    return np.zeros(3, np.float32), {}


def _return_info(self, *, seed=None, options=None, return_info=False):
    type(self).__mro__[1].reset(self, seed=seed)
    return np.zeros(3, np.float32), {}


def _step_returning(*parts):
    def step(self, action):
        return tuple(p(self) if callable(p) else p for p in parts)

    return step


def _zeros(self):
    return np.zeros(3, np.float32)


def _noise(self):
    return np.random.default_rng().uniform(-1, 1, 3).astype(np.float32)


def _shared_obs(self):
    if not hasattr(self, "buffer"):
        self.buffer = np.zeros(3, np.float32)
    return self.buffer


# (check name, env methods) run through both libraries' ``utils.env_checker``
CHECKS = {
    "reset returns a list": ("check_reset_return_type", {"reset": _reset_returning([_zeros, {}])}),
    "reset returns a 3-tuple": ("check_reset_return_type", {"reset": _reset_returning((1, 2, 3))}),
    "reset obs outside": (
        "check_reset_return_type",
        {"reset": _reset_returning(lambda s: (np.full(3, 9, np.float32), {}))},
    ),
    "reset info a list": ("check_reset_return_type", {"reset": _reset_returning(lambda s: (_zeros(s), []))}),
    "reset without seed": ("check_reset_seed_determinism", {"reset": _no_seed}),
    "reset unseeded": ("check_reset_seed_determinism", {"reset": _unseeded}),
    "reset ignores the seed": ("check_reset_seed_determinism", {"reset": _own_generator}),
    "reset fixes the seed": ("check_reset_seed_determinism", {"reset": _fixed_seed}),
    "reset seed default": ("check_reset_seed_determinism", {"reset": _seed_default}),
    "reset without options": ("check_reset_options", {"reset": _no_options}),
    "step obs random": ("check_step_determinism", {"step": _step_returning(_noise, 0.0, False, False, {})}),
    "step reward random": (
        "check_step_determinism",
        {"step": _step_returning(_zeros, lambda s: float(np.random.rand()), False, False, {})},
    ),
    "step info random": (
        "check_step_determinism",
        {"step": _step_returning(_zeros, 0.0, False, False, lambda s: {"a": np.random.rand()})},
    ),
    "step truncates": ("check_step_determinism", {"step": _step_returning(_zeros, 0.0, False, True, {})}),
    "step reuses obs": (
        "check_returned_data_not_reused",
        {"step": _step_returning(_shared_obs, 0.0, False, False, {})},
    ),
    "seed method": ("check_seed_deprecation", {"seed": lambda self, seed=None: [seed]}),
    "return_info": ("check_reset_return_info_deprecation", {"reset": _return_info}),
    "valid env": ("check_env", {}),
}

# (passive check name, env methods) run through both libraries' ``utils.passive_env_checker``
PASSIVE = {
    "step not a tuple": ("env_step_passive_checker", {"step": _step_returning()}),
    "step 3 elements": ("env_step_passive_checker", {"step": _step_returning(1, 2, 3)}),
    "step old API": ("env_step_passive_checker", {"step": _step_returning(_zeros, 0.0, "no", {})}),
    "step flags": ("env_step_passive_checker", {"step": _step_returning(_zeros, 0.0, "no", 1, {})}),
    "step reward str": ("env_step_passive_checker", {"step": _step_returning(_zeros, "1", False, False, {})}),
    "step reward nan": (
        "env_step_passive_checker",
        {"step": _step_returning(_zeros, float("nan"), False, False, {})},
    ),
    "step reward inf": (
        "env_step_passive_checker",
        {"step": _step_returning(_zeros, float("inf"), False, False, {})},
    ),
    "step info str": ("env_step_passive_checker", {"step": _step_returning(_zeros, 0.0, False, False, "x")}),
    "step obs float64": (
        "env_step_passive_checker",
        {"step": _step_returning(lambda s: np.zeros(3), 0.0, False, False, {})},
    ),
    "reset without seed or options": (
        "env_reset_passive_checker",
        {"reset": lambda self: (np.zeros(3, np.float32), {})},
    ),
    "reset seed default": ("env_reset_passive_checker", {"reset": _seed_default}),
    "reset returns a list": ("env_reset_passive_checker", {"reset": _reset_returning([_zeros, {}])}),
    "reset returns a 3-tuple": ("env_reset_passive_checker", {"reset": _reset_returning((1, 2, 3))}),
    "reset info a set": (
        "env_reset_passive_checker",
        {"reset": _reset_returning(lambda s: (_zeros(s), {1}))},
    ),
    "render bad frame": ("env_render_passive_checker", {"render": lambda self: np.zeros((4, 4), np.float32)}),
    "render four channels": (
        "env_render_passive_checker",
        {"render": lambda self: np.zeros((4, 4, 4), np.uint8)},
    ),
}


def same_family(ours, theirs):
    """``ours`` is an instance of what ``theirs`` is (Gymnasium's error classes by name)."""
    if isinstance(theirs, gymnasium.error.Error):
        return isinstance(ours, getattr(palaestra.error, type(theirs).__name__))
    return isinstance(ours, type(theirs))


def assert_same(ours, theirs):
    (our_error, our_warnings), (their_error, their_warnings) = ours, theirs
    assert our_warnings == their_warnings
    if their_error is None:
        assert our_error is None, our_error
        return
    assert same_family(our_error, their_error), (type(our_error), type(their_error))
    assert str(our_error) == str(their_error)
    assert not getattr(our_error, "__notes__", None)  # pytest.raises(match=) reads notes too


def _render_env(lib, methods):
    env = make_env(lib, **methods)
    env.render_mode = "rgb_array"
    return env


@pytest.mark.parametrize("case", sorted(CHECKS))
def test_check_env_functions_match_gymnasium(case):
    name, methods = CHECKS[case]

    def run(checker, lib):
        env = make_env(lib, **methods)
        return outcome(
            lambda: (
                getattr(checker, name)(env, skip_render_check=True, skip_close_check=True)
                if name == "check_env"
                else getattr(checker, name)(env)
            )
        )

    assert_same(run(our_checker, palaestra), run(their_checker, gymnasium))


@pytest.mark.parametrize("case", sorted(PASSIVE))
def test_passive_checks_match_gymnasium(case):
    name, methods = PASSIVE[case]

    def run(checker, lib):
        env = _render_env(lib, methods) if name == "env_render_passive_checker" else make_env(lib, **methods)
        call = getattr(checker, name)
        return outcome(lambda: call(env, 0) if name == "env_step_passive_checker" else call(env))

    assert_same(run(our_passive, palaestra), run(their_passive, gymnasium))


SPACES = {
    "not a space": lambda lib: "error",
    "equal bounds": lambda lib: lib.spaces.Box(np.zeros(2, np.float32), np.zeros(2, np.float32)),
    "empty tuple": lambda lib: lib.spaces.Tuple([]),
    "empty dict": lambda lib: lib.spaces.Dict(),
    "infinite box": lambda lib: lib.spaces.Box(-np.inf, np.inf, (2,)),
    "wide action box": lambda lib: lib.spaces.Box(0, 5, (2,)),
    "nested infinite": lambda lib: lib.spaces.Dict(a=lib.spaces.Tuple([lib.spaces.Box(-np.inf, 1, (2,))])),
    "image box": lambda lib: lib.spaces.Box(0, 5, (2, 2)),
}


@pytest.mark.parametrize("kind", ["observation", "action"])
@pytest.mark.parametrize("case", sorted(SPACES))
def test_space_checks_match_gymnasium(case, kind):
    def run(checker, passive, lib):
        space = SPACES[case](lib)
        check = getattr(passive, f"check_{kind}_space")
        return outcome(lambda: (check(space), checker.check_space_limit(space, kind)))

    assert_same(run(our_checker, our_passive, palaestra), run(their_checker, their_passive, gymnasium))


@pytest.mark.parametrize(
    ("attribute", "value"),
    [("n", -1), ("_shape", (2,))],
)
def test_spaces_changed_after_construction_match_gymnasium(attribute, value):
    def run(passive, lib):
        space = lib.spaces.Discrete(5)
        setattr(space, attribute, value)
        return outcome(lambda: passive.check_observation_space(space))

    assert_same(run(our_passive, palaestra), run(their_passive, gymnasium))


@pytest.mark.parametrize(
    ("obs", "space"),
    [
        (3, lambda lib: lib.spaces.Discrete(2)),
        (np.uint8(0), lambda lib: lib.spaces.Discrete(1)),
        ([0, 1], lambda lib: lib.spaces.Tuple([lib.spaces.Discrete(1), lib.spaces.Discrete(2)])),
        ((1, 2, 3), lambda lib: lib.spaces.Tuple([lib.spaces.Discrete(1), lib.spaces.Discrete(2)])),
        ({1, 2}, lambda lib: lib.spaces.Dict(a=lib.spaces.Discrete(1))),
        ({"b": 0}, lambda lib: lib.spaces.Dict(a=lib.spaces.Discrete(1))),
    ],
    ids=["outside", "dtype", "list for tuple", "length", "set for dict", "keys"],
)
def test_check_obs_matches_gymnasium(obs, space):
    def run(passive, lib):
        return outcome(lambda: passive.check_obs(obs, space(lib), "testing"))

    assert_same(run(our_passive, palaestra), run(their_passive, gymnasium))


def test_check_env_refuses_a_non_env_in_gymnasiums_words():
    assert_same(
        outcome(lambda: our_checker.check_env("Error")), outcome(lambda: their_checker.check_env("Error"))
    )


@pytest.mark.parametrize("missing", ["action_space", "observation_space"])
def test_missing_spaces_match_gymnasium(missing):
    def run(checker, lib):
        env = make_env(lib)
        type(env).__init__ = lambda self, render_mode=None: None
        env = type(env)()
        for name in ("action_space", "observation_space"):
            if name != missing:
                setattr(env, name, lib.spaces.Discrete(2))
        return outcome(lambda: checker.check_env(env))

    assert_same(run(our_checker, palaestra), run(their_checker, gymnasium))
