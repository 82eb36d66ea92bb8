"""palaestra-atari against ale-py's own Gymnasium envs: the same games, ids, numbers and errors."""

import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("ale_py", reason='ale-py is not installed: pip install "palaestra[atari]"')

import gymnasium

import palaestra
from palaestra.error import Error, InvalidAction

pytestmark = pytest.mark.needs_plugins


def make_pair(env_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return palaestra.make(env_id, **kwargs), gymnasium.make(env_id, **kwargs)


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return np.array_equal(a, b) and type(a) is type(b)


CASES = {
    "Pong v5 rgb": ("ALE/Pong-v5", {}),
    "Breakout v5 grayscale": ("ALE/Breakout-v5", {"obs_type": "grayscale"}),
    "Seaquest v5 ram": ("ALE/Seaquest-v5", {"obs_type": "ram"}),
    "MsPacman v5 full actions": ("ALE/MsPacman-v5", {"full_action_space": True}),
    "SpaceInvaders v4 (frameskip drawn from [2, 5))": ("SpaceInvaders-v4", {}),
    "Pong v0 (sticky)": ("Pong-v0", {}),
    "Breakout NoFrameskip-v4": ("BreakoutNoFrameskip-v4", {}),
    "Freeway mode and difficulty": ("ALE/Freeway-v5", {"mode": 1, "difficulty": 1}),
    "Breakout frame budget": ("ALE/Breakout-v5", {"max_num_frames_per_episode": 400}),
    "Pong sound": ("ALE/Pong-v5", {"sound_obs": True}),
    "Pong rendered": ("ALE/Pong-v5", {"render_mode": "rgb_array"}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_steps_match_ale_pys_gymnasium_env(case):
    env_id, kwargs = CASES[case]
    ours, theirs = make_pair(env_id, **kwargs)
    assert (
        ours.spec.kwargs == theirs.spec.kwargs
        and ours.spec.max_episode_steps == theirs.spec.max_episode_steps
    )
    assert repr(ours.observation_space) == repr(theirs.observation_space).replace("Dict(", "Dict(")
    assert ours.action_space.n == theirs.action_space.n
    assert ours.unwrapped.get_action_meanings() == theirs.unwrapped.get_action_meanings()
    for seed in (0, 7):
        a, b = ours.reset(seed=seed), theirs.reset(seed=seed)
        assert same(a[0], b[0]) and same(a[1], b[1]), seed
        theirs.action_space.seed(seed)
        for t in range(400):
            action = theirs.action_space.sample()
            a, b = ours.step(action), theirs.step(action)
            assert same(a[0], b[0]) and a[1:4] == b[1:4] and same(a[4], b[4]), (seed, t)
            if "render_mode" in kwargs and t % 50 == 0:
                assert np.array_equal(ours.render(), theirs.render())
            if a[2] or a[3]:
                assert same(ours.reset()[0], theirs.reset()[0])
    ours.close()
    theirs.close()


def test_continuous_actions_match():
    ours, theirs = make_pair("ALE/Breakout-v5", continuous=True)
    ours.reset(seed=1)
    theirs.reset(seed=1)
    theirs.action_space.seed(1)
    for t in range(200):
        action = theirs.action_space.sample()
        a, b = ours.step(action), theirs.step(action)
        assert same(a[0], b[0]) and a[1:4] == b[1:4], t


def test_the_ids_are_ale_pys():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import ale_py  # noqa: F401  # registers its ids with Gymnasium

    theirs = {k for k, s in gymnasium.registry.items() if "ale_py" in str(s.entry_point)}
    ours = {k for k in palaestra.registry if palaestra.registry.owner(k) == "palaestra-atari"}
    assert ours == theirs
    for env_id in ("ALE/Pong-v5", "PongNoFrameskip-v4", "Pong-v0", "ALE/Tetris-v5"):
        mine, reference = palaestra.spec(env_id), gymnasium.spec(env_id)
        assert (mine.kwargs, mine.max_episode_steps, mine.namespace) == (
            reference.kwargs,
            reference.max_episode_steps,
            reference.namespace,
        )


def test_the_games_are_ale_pys_roms():
    from ale_py import roms

    from palaestra_atari._games import ALL_GAMES

    assert tuple(roms.get_all_rom_ids()) == ALL_GAMES


def test_bad_input_is_named():
    with pytest.raises(Error, match=r"Unknown Atari game 'pongg'.*Did you mean 'pong'"):
        palaestra.make("ALE/Pong-v5", game="pongg")
    with pytest.raises(Error, match=r"^Invalid observation type: rgbb. Expecting: rgb, grayscale, ram."):
        palaestra.make("ALE/Pong-v5", obs_type="rgbb")
    with pytest.raises(Error, match=r"^Invalid stochastic frameskip, lower bound must be strictly less"):
        palaestra.make("ALE/Pong-v5", frameskip=(4, 2))
    env = palaestra.make("ALE/Pong-v5")
    env.reset(seed=0)
    for bad in (6, -1, 1.5, "left", None):
        with pytest.raises(
            InvalidAction, match=r"AtariEnv.step: action .* is not in the action space Discrete\(6\)"
        ):
            env.step(bad)
    assert env.step(np.int64(2))[0].shape == (210, 160, 3)  # numpy integers are actions too
    with pytest.raises(palaestra.error.NameNotFound, match="Did you mean: `Pong`"):
        palaestra.make("ALE/Ponng-v5")


def test_pickling_rebuilds_the_game():
    env = palaestra.make("ALE/Pong-v5").unwrapped
    copy = pickle.loads(pickle.dumps(env))
    assert same(env.reset(seed=3)[0], copy.reset(seed=3)[0])


def test_keys_for_play():
    keys = palaestra.make("ALE/Pong-v5").unwrapped.get_keys_to_action()
    assert keys == gymnasium.make("ALE/Pong-v5").unwrapped.get_keys_to_action()
