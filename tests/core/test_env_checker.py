"""check_env and the passive checker catch broken environments with actionable messages."""

import numpy as np
import pytest

from palaestra import Env, spaces
from palaestra.error import Error
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


def test_good_env_passes():
    check_env(Good())
    check_env(Good(render_mode="rgb_array"))


def test_float64_observation_in_float32_box_is_an_error():
    class Wrong(Good):
        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return np.zeros(3), {}

    with pytest.warns(UserWarning) as caught, pytest.raises(Error, match="not within the observation space"):
        check_env(Wrong())
    messages = [str(w.message) for w in caught]
    assert any("not within the observation space" in m for m in messages)
    assert any("expecting numpy array dtype to be float32" in m for m in messages)


def test_four_tuple_step_raises():
    class Old(Good):
        def step(self, action):
            return np.zeros(3, np.float32), 0.0, False, {}

    with pytest.raises(Error, match="five element tuple"):
        check_env(Old())


def test_non_numeric_reward_only_warns():
    class Odd(Good):
        def step(self, action):
            return self.np_random.uniform(-1, 1, 3).astype(np.float32), "1", False, False, {}

    with pytest.warns(UserWarning, match="reward returned by `step\\(\\)` must be a float"):
        check_env(Odd())


def test_returning_the_same_array_twice_is_flagged():
    class Reuse(Good):
        def __init__(self):
            super().__init__()
            self.buffer = np.zeros(3, np.float32)

        def step(self, action):
            self.buffer[:] = self.np_random.uniform(-1, 1, 3)
            return self.buffer, 0.0, False, False, {}

    with pytest.raises(Error, match="share memory"):
        check_env(Reuse())


def test_unseeded_randomness_is_caught():
    class Unseeded(Good):
        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return np.random.default_rng().uniform(-1, 1, 3).astype(np.float32), {}

    with pytest.raises(Error, match="reset must be deterministic"):
        check_env(Unseeded())


def test_missing_options_argument():
    class NoOptions(Good):
        def reset(self, *, seed=None):
            Env.reset(self, seed=seed)
            return np.zeros(3, np.float32), {}

    with pytest.warns(DeprecationWarning, match="options"), pytest.raises(Error, match="options"):
        check_env(NoOptions())


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

    with pytest.raises(TypeError, match="does not inherit from `palaestra.spaces.Space`"):
        PassiveEnvChecker(NoSpace())


def test_data_equivalence():
    assert data_equivalence({"a": np.ones(2)}, {"a": np.ones(2)})
    assert not data_equivalence(np.ones(2), np.ones(2, np.float32))
    assert not data_equivalence((1, 2), (1, 3))
    assert data_equivalence(np.array([np.nan]), np.array([np.nan]))
