"""AtariPreprocessing against Gymnasium's on an env exposing the ALE interface."""

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.wrappers import AtariPreprocessing
from tests.core.wrappers.test_vector_differential import compare
from tests.fixtures.fake_ale import make_fake_atari_class

PalAtari, GymAtari = make_fake_atari_class(palaestra), make_fake_atari_class(gymnasium)

SETTINGS = {
    "defaults": {},
    "rgb-scaled": {"grayscale_obs": False, "scale_obs": True, "screen_size": (64, 48)},
    "newaxis-lifeloss": {"grayscale_newaxis": True, "terminal_on_life_loss": True, "noop_max": 5},
    "no-skip": {"frame_skip": 1, "noop_max": 0},
}


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_rollouts_match_gymnasium(name):
    kwargs = SETTINGS[name]
    ours = AtariPreprocessing(PalAtari(), **kwargs)
    ref = gymnasium.wrappers.AtariPreprocessing(GymAtari(), **kwargs)
    assert repr(ours.observation_space) == repr(ref.observation_space)
    rng = np.random.default_rng(1)
    for seed in (0, 1):
        compare(ours.reset(seed=seed), ref.reset(seed=seed), f"{name} reset")
        for t in range(60):
            action = int(rng.integers(0, 4))
            a, b = ours.step(action), ref.step(action)
            compare(a, b, f"{name} seed={seed} t={t}")
            assert ours.lives == ref.lives and ours.game_over == ref.game_over
            if a[2] or a[3]:
                break


def test_bad_arguments_name_the_culprit():
    with pytest.raises(ValueError, match="`frame_skip` to be positive, actually: 0"):
        AtariPreprocessing(PalAtari(), frame_skip=0)
    with pytest.raises(ValueError, match="`screen_size` to be positive, actually: \\(84, -1\\)"):
        AtariPreprocessing(PalAtari(), screen_size=(84, -1))
    with pytest.raises(ValueError, match="frameskip=1"):
        AtariPreprocessing(PalAtari(frameskip=4))
    with pytest.raises(ValueError, match="`noop_max` to be non-negative"):
        AtariPreprocessing(PalAtari(), noop_max=-1)


def test_spec_rebuilds_the_preprocessing(isolated):
    palaestra.register("FakeAtari-v0", entry_point=PalAtari)
    env = AtariPreprocessing(palaestra.make("FakeAtari-v0"), screen_size=42)
    assert env.spec.additional_wrappers[-1].kwargs["screen_size"] == 42
    rebuilt = palaestra.make(env.spec)
    assert rebuilt.observation_space.shape == (42, 42)
    assert np.array_equal(rebuilt.reset(seed=3)[0], env.reset(seed=3)[0])
