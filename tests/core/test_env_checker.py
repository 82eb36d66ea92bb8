"""check_env and the passive checker catch broken environments with actionable messages."""

import functools
import inspect
import types
import warnings

import numpy as np
import pytest

from palaestra import Env, spaces
from palaestra.error import EnvCheckError, Error
from palaestra.utils import passive_env_checker
from palaestra.utils.env_checker import check_env, data_equivalence
from palaestra.wrappers import PassiveEnvChecker


class Good(Env):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 5}

    def __init__(self, render_mode=None):
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-1, 1, (3,), np.float32)
        self.action_space = spaces.Discrete(2)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return self.np_random.uniform(-1, 1, 3).astype(np.float32), {}

    def step(self, action):
        return self.np_random.uniform(-1, 1, 3).astype(np.float32), 0.5, False, False, {}

    def render(self):
        return np.zeros((4, 4, 3), np.uint8)


NO_SPEC = "Not able to test alternative render modes due to the environment not having a spec"


def test_good_env_passes():
    with pytest.warns(UserWarning, match=rf"{NO_SPEC}.*palaestra.make` \(unchecked modes: \[\]\)"):
        check_env(Good(render_mode="rgb_array"))
    with pytest.warns(UserWarning, match=rf"{NO_SPEC}.*unchecked modes: \['rgb_array'\]"):
        check_env(Good())
    check_env(Good(), skip_render_check=True)


def test_an_env_without_a_spec_warns_as_gymnasium_warns():
    import gymnasium
    from gymnasium.utils.env_checker import check_env as gymnasium_check_env

    class GymGood(gymnasium.Env):
        metadata = Good.metadata

        def __init__(self, render_mode=None):
            self.render_mode = render_mode
            self.observation_space = gymnasium.spaces.Box(-1, 1, (3,), np.float32)
            self.action_space = gymnasium.spaces.Discrete(2)

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return self.np_random.uniform(-1, 1, 3).astype(np.float32), {}

        def step(self, action):
            return self.np_random.uniform(-1, 1, 3).astype(np.float32), 0.5, False, False, {}

        def render(self):
            return np.zeros((4, 4, 3), np.uint8)

    with pytest.warns(UserWarning, match=NO_SPEC):
        gymnasium_check_env(GymGood(render_mode="rgb_array"))
    with pytest.warns(UserWarning, match=NO_SPEC):
        check_env(Good(render_mode="rgb_array"))


def test_float64_observation_in_float32_box_is_an_error():
    class Wrong(Good):
        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return np.zeros(3), {}

    with pytest.raises(
        EnvCheckError,
        match=r"^The first element returned by `env.reset\(\)` is not within the observation space.$",
    ):
        check_env(Wrong(), skip_render_check=True)
    with pytest.warns(UserWarning) as caught:
        PassiveEnvChecker(Wrong()).reset()
    assert [str(w.message)[11:-4] for w in caught] == [
        "The obs returned by the `reset()` method was expecting numpy array dtype to be float32, actual type: float64",
        "The obs returned by the `reset()` method is not within the observation space.",
    ]


def test_old_step_api_is_a_deprecation_then_fails_to_unpack_as_in_gymnasium():
    class Old(Good):
        def step(self, action):
            return np.zeros(3, np.float32), 0.0, False, {}

    with (
        pytest.warns(DeprecationWarning, match="Core environment is written in old step API"),
        pytest.raises(ValueError, match="not enough values to unpack"),
    ):
        check_env(Old(), skip_render_check=True)

    class Three(Good):
        def step(self, action):
            return np.zeros(3, np.float32), 0.0, False

    with pytest.raises(
        Error, match="to return a four or five element tuple, actual number of elements returned: 3."
    ):
        check_env(Three(), skip_render_check=True)


def test_non_numeric_reward_only_warns():
    class Odd(Good):
        def step(self, action):
            return self.np_random.uniform(-1, 1, 3).astype(np.float32), "1", False, False, {}

    with pytest.warns(UserWarning, match="reward returned by `step\\(\\)` must be a float"):
        check_env(Odd(), skip_render_check=True)


def test_returning_the_same_array_twice_is_flagged():
    class Reuse(Good):
        def __init__(self):
            super().__init__()
            self.buffer = np.zeros(3, np.float32)

        def step(self, action):
            self.buffer[:] = self.np_random.uniform(-1, 1, 3)
            return self.buffer, 0.0, False, False, {}

    with pytest.raises(Error, match="share an object, therefore, modifying one will modify the other"):
        check_env(Reuse(), skip_render_check=True)


def test_unseeded_randomness_is_caught():
    class Unseeded(Good):
        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return np.random.default_rng().uniform(-1, 1, 3).astype(np.float32), {}

    with pytest.raises(Error, match="is non-deterministic as the observations are not equivalent"):
        check_env(Unseeded(), skip_render_check=True)


def test_missing_options_argument():
    class NoOptions(Good):
        def reset(self, *, seed=None):
            Env.reset(self, seed=seed)
            return np.zeros(3, np.float32), {}

    with pytest.raises(Error, match="does not provide an `options` or `\\*\\*kwargs` keyword argument"):
        check_env(NoOptions(), skip_render_check=True)
    with pytest.warns(DeprecationWarning, match="can be passed `options`"):
        passive_env_checker.env_reset_passive_checker(NoOptions())


def test_passive_checker_flags_data_reuse_and_bad_info():
    class SameObs(Good):
        def __init__(self):
            super().__init__()
            self.obs = np.zeros(3, np.float32)

        def reset(self, *, seed=None, options=None):
            return self.obs, {}

        def step(self, action):
            return self.obs, 0.0, False, False, {}

    env = PassiveEnvChecker(SameObs())
    env.reset()
    with pytest.warns(UserWarning, match="share an object"):
        env.step(0)

    class BadInfo(Good):
        def reset(self, *, seed=None, options=None):
            return np.zeros(3, np.float32), []

    with pytest.raises(Error, match="was not a dictionary"):
        PassiveEnvChecker(BadInfo()).reset()


def test_passive_checker_rejects_non_space():
    class NoSpace(Good):
        def __init__(self):
            super().__init__()
            self.action_space = [0, 1]

    with pytest.raises(
        TypeError,
        match="^action space does not inherit from `gymnasium.spaces.Space`, actual type: <class 'list'>$",
    ):
        PassiveEnvChecker(NoSpace())


def test_data_equivalence():
    assert data_equivalence({"a": np.ones(2)}, {"a": np.ones(2)})
    assert not data_equivalence(np.ones(2), np.ones(2, np.float32))
    assert not data_equivalence((1, 2), (1, 3))
    assert data_equivalence(np.array([np.nan]), np.array([np.nan]), exact=True)  # same bits
    assert data_equivalence(np.array(["a", "b"]), np.array(["a", "b"]))  # Gymnasium raises here
    assert not data_equivalence(np.array(["a", "b"]), np.array(["a", "c"]))


PAIRS = {
    "tiny float difference": (np.array([1.0]), np.array([1.000001])),
    "float beyond tolerance": (np.array([1.0]), np.array([1.001])),
    "near zero": (np.array([0.0]), np.array([9e-6])),
    "large ints": (np.array([1_000_000]), np.array([1_000_001])),
    "small ints": (np.array([1, 2]), np.array([1, 3])),
    "bools": (np.array([True, False]), np.array([True, False])),
    "nan": (np.array([np.nan]), np.array([np.nan])),
    "nested": ({"x": (np.array([2.0]), 3)}, {"x": (np.array([2.00001]), 3)}),
    "object arrays": (np.array([1.0, "a"], dtype=object), np.array([1.0, "a"], dtype=object)),
}


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("case", sorted(PAIRS))
def test_data_equivalence_agrees_with_gymnasium(case, exact):
    from gymnasium.utils.env_checker import data_equivalence as theirs

    a, b = PAIRS[case]
    expected = theirs(a, b, exact=exact)
    if case == "nan" and exact:
        expected = True  # palaestra: identical NaNs are the same data (Gymnasium: np.all(a == b))
    assert data_equivalence(a, b, exact=exact) is bool(expected)


# --- the individual checks, public under Gymnasium's names ---------------------------------


import palaestra  # noqa: E402
from palaestra.utils import env_checker  # noqa: E402


def test_every_gymnasium_check_exists_and_fails_as_an_assertion_error():
    import gymnasium.utils.env_checker as reference

    names = [
        n
        for n in dir(reference)
        if (n.startswith("check_") or n == "data_equivalence")
        and getattr(reference, n).__module__ == reference.__name__
    ]
    assert names and all(callable(getattr(env_checker, n)) for n in names)
    assert set(names) <= set(env_checker.__all__)
    assert issubclass(EnvCheckError, AssertionError) and issubclass(EnvCheckError, Error)


def test_reset_must_return_obs_and_info():
    class ObsOnly(Good):
        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return np.zeros(3, np.float32)

    with pytest.raises(EnvCheckError, match=r"was not a tuple of the form `\(obs, info\)`.*numpy.ndarray"):
        env_checker.check_reset_return_type(ObsOnly())
    env_checker.check_reset_return_type(Good())


def test_reset_seed_determinism():
    class OwnGenerator(Good):
        def reset(self, *, seed=None, options=None):
            self._np_random = np.random.default_rng()  # ignores the seed
            return np.zeros(3, np.float32), {}

    with pytest.raises(EnvCheckError, match=r"random generates are not same when the same seeds are passed"):
        env_checker.check_reset_seed_determinism(OwnGenerator())

    class NoSeed(Good):
        def reset(self, *, options=None):
            return np.zeros(3, np.float32), {}

    with pytest.raises(EnvCheckError, match="does not provide a `seed` or `\\*\\*kwargs` keyword argument"):
        env_checker.check_reset_seed_determinism(NoSeed())

    class SeedDefault(Good):
        def reset(self, *, seed=0, options=None):
            return super().reset(seed=seed)

    with pytest.warns(
        UserWarning, match="default seed argument in reset should be `None`.*Actual default: 0"
    ):
        env_checker.check_reset_seed_determinism(SeedDefault())
    env_checker.check_reset_seed_determinism(Good())


def test_a_spec_that_declares_nondeterminism_skips_the_observation_comparisons(monkeypatch):
    class Noisy(Good):
        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return np.random.default_rng().uniform(-1, 1, 3).astype(np.float32), {}

        def step(self, action):
            return np.random.default_rng().uniform(-1, 1, 3).astype(np.float32), 0.0, False, False, {}

    env = Noisy()
    with pytest.raises(EnvCheckError, match=r"^Using `env.reset\(seed=123\)` is non-deterministic"):
        env_checker.check_reset_seed_determinism(env)
    with pytest.raises(EnvCheckError, match="^Deterministic step observations are not equivalent"):
        env_checker.check_step_determinism(env)
    env.spec = palaestra.EnvSpec("Noisy-v0", entry_point=Noisy, nondeterministic=True)
    env_checker.check_reset_seed_determinism(env)
    env_checker.check_step_determinism(env)


def test_reset_options():
    class RejectsOptions(Good):
        def reset(self, *, seed=None, options=None):
            if options is not None:
                raise TypeError("unexpected options")
            return super().reset(seed=seed)

    with pytest.raises(
        EnvCheckError, match=r"cannot be reset with options.*The error was: unexpected options$"
    ):
        env_checker.check_reset_options(RejectsOptions())

    class Kwargs(Good):
        def reset(self, **kwargs):
            return super().reset(seed=kwargs.get("seed"))

    env_checker.check_reset_options(Kwargs())


def test_step_that_truncates_at_once_is_flagged():
    class Truncating(Good):
        def step(self, action):
            return np.zeros(3, np.float32), 0.0, False, True, {}

    with pytest.raises(EnvCheckError, match="^Environment truncates after 1 step"):
        env_checker.check_step_determinism(Truncating())


def test_returned_data_not_reused_names_both_calls():
    class SharedInfo(Good):
        info = {"a": np.zeros(2)}

        def reset(self, *, seed=None, options=None):
            obs, _ = super().reset(seed=seed)
            return obs, self.info

        def step(self, action):
            return np.zeros(3, np.float32), 0.0, False, False, self.info

    with pytest.raises(
        EnvCheckError,
        match=r"infos returned by `env.reset\(\) \(call 1\)` and `env.step\(\) \(call 2\)` share an object",
    ):
        env_checker.check_returned_data_not_reused(SharedInfo())
    env_checker.check_returned_data_not_reused(Good())


def test_deprecated_api_warnings():
    class Old(Good):
        def seed(self, seed=None):
            return [seed]

        def reset(self, *, seed=None, options=None, return_info=False):
            return super().reset(seed=seed)

    with pytest.warns(UserWarning, match=r"Official support for the `seed` function is dropped"):
        env_checker.check_seed_deprecation(Old())
    with pytest.warns(UserWarning, match="`return_info` is deprecated as an optional argument to `reset`"):
        env_checker.check_reset_return_info_deprecation(Old())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env_checker.check_seed_deprecation(Good())
        env_checker.check_reset_return_info_deprecation(Good())


def test_space_limits():
    with pytest.warns(UserWarning) as caught:
        env_checker.check_space_limit(
            spaces.Dict({"a": spaces.Tuple([spaces.Box(-np.inf, np.inf, (2,))])}), "observation"
        )
    assert [str(w.message) for w in caught] == [
        "\x1b[33mWARN: A Box observation space minimum value is -infinity. This is probably too low.\x1b[0m",
        "\x1b[33mWARN: A Box observation space maximum value is infinity. This is probably too high.\x1b[0m",
    ]
    with pytest.warns(UserWarning, match="symmetric and normalized space"):
        env_checker.check_space_limit(spaces.Box(0, 5, (2,)), "action")
    with pytest.warns(UserWarning, match="symmetric and normalized space"):
        env_checker.check_space_limit(spaces.Box(-1, 0.5, (2,)), "action")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for low, high in ((-1, 1), (0, 1), (-0.5, 0.5)):
            env_checker.check_space_limit(spaces.Box(low, high, (2,)), "action")
        env_checker.check_space_limit(spaces.Box(0, 5, (2, 2)), "action")  # images: any range
        env_checker.check_space_limit(spaces.Box(0, 5, (2,)), "observation")


def test_check_env_renders_each_other_mode_through_the_spec(monkeypatch):
    class BadFrame(Good):
        def render(self):
            return np.zeros((4, 4), np.uint8) if self.render_mode == "rgb_array" else None

    palaestra.register("CheckerBadFrame-v0", entry_point=BadFrame)
    try:
        env = palaestra.make("CheckerBadFrame-v0").unwrapped
        with pytest.warns(
            UserWarning, match="RGB-array rendering should return a numpy array with three axes, got 2"
        ):
            check_env(env)
        check_env(env, skip_render_check=True)
    finally:
        del palaestra.registry["CheckerBadFrame-v0"]


def test_close_twice_is_checked_on_a_fresh_copy():
    class CloseOnce(Good):
        def __init__(self, render_mode=None):
            super().__init__(render_mode)
            self.closed = False

        def close(self):
            if self.closed:
                raise RuntimeError("already closed")
            self.closed = True

    palaestra.register("CheckerCloseOnce-v0", entry_point=CloseOnce)
    try:
        env = palaestra.make("CheckerCloseOnce-v0").unwrapped
        with pytest.warns(
            UserWarning, match=r"closed environment should be allowed.*exception: already closed"
        ):
            check_env(env, skip_render_check=True)
        assert not env.closed  # the env under test stays open
    finally:
        del palaestra.registry["CheckerCloseOnce-v0"]


class _Resets:
    """reset signatures seen in the wild, as methods (what the passive checker reads)."""

    observation_space = spaces.Discrete(2)

    def usual(self, *, seed=None, options=None):
        return 0, {}

    def positional(self, seed=None, options=None):
        return 0, {}

    def seeded(self, *, seed=3, options=None):
        return 0, {}

    def seed_without_default(self, seed, options=None):
        return 0, {}

    def kwargs_only(self, **kwargs):
        return 0, {}

    def no_options(self, seed=None):
        return 0, {}

    def nothing(self):
        return 0, {}

    def args_and_kwargs(self, *args, seed=None, **kwargs):
        return 0, {}

    def mixed(self, a=0, b=1, /, seed=None, *rest, options=None, extra=2, **more):
        return 0, {}


_SIGNATURES = [name for name in vars(_Resets) if not name.startswith("_") and name != "observation_space"]


def _decorated_reset(self, *, seed=None, options=None):
    return 0, {}


_decorated_reset.__wrapped__ = _Resets.nothing  # inspect follows __wrapped__, so must we


@pytest.mark.parametrize(
    "reset",
    [getattr(_Resets(), name) for name in _SIGNATURES]
    + [
        _Resets.usual,
        lambda seed=None, options=None: None,
        _decorated_reset.__get__(_Resets()),
        print,
        functools.partial(_Resets.usual, None),
    ],
)
def test_the_fast_reset_signature_read_agrees_with_inspect(reset):
    from palaestra._env._passive_checks import _NO_DEFAULT, _reset_parameters

    fast = _reset_parameters(reset)
    if fast is None:  # left to inspect: decorated, builtin or partial
        assert isinstance(reset, (types.BuiltinFunctionType, functools.partial)) or hasattr(
            reset, "__wrapped__"
        )
        return
    parameters = inspect.signature(reset).parameters
    names, seed_default = fast
    assert sorted(names) == sorted(parameters)  # the checker asks only which names are there
    expected = parameters["seed"].default if "seed" in parameters else _NO_DEFAULT
    assert seed_default is (_NO_DEFAULT if expected is inspect.Parameter.empty else expected)


@pytest.mark.parametrize("name", _SIGNATURES)
def test_every_reset_signature_draws_the_warnings_inspect_finds(name):
    from palaestra._env._passive_checks import _check_reset_signature, env_reset_passive_checker

    env = _Resets()
    env.reset = getattr(env, name)
    with warnings.catch_warnings(record=True) as checked:
        warnings.simplefilter("always")
        env_reset_passive_checker(env, **{"seed_without_default": {"seed": 0}}.get(name, {}))
    with warnings.catch_warnings(record=True) as inspected:
        warnings.simplefilter("always")
        _check_reset_signature(env.reset)
    assert [str(w.message) for w in checked] == [str(w.message) for w in inspected]
    unusual = name in ("seeded", "seed_without_default", "no_options", "nothing")
    assert bool(inspected) is unusual
