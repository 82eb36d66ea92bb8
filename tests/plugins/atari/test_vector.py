"""The natively batched Atari env: ale-py's vector interface, palaestra's vector API.

It gives what ale-py's own Gymnasium vector env gives, and, with the preprocessing set up
the same way, exactly what ``SyncVectorEnv`` of single envs in ``AtariPreprocessing`` and
``FrameStackObservation`` gives.
"""

import warnings

import numpy as np
import pytest

pytest.importorskip("ale_py", reason='ale-py is not installed: pip install "palaestra[atari]"')

import gymnasium

import palaestra
from palaestra.error import ClosedEnvironmentError, Error, InvalidAction, InvalidResetOptions
from palaestra.vector import AutoresetMode, SyncVectorEnv
from palaestra.wrappers import AtariPreprocessing, FrameStackObservation, TransformReward

pytestmark = pytest.mark.needs_plugins


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_steps_match_ale_pys_vector_env(mode):
    kwargs = {"max_num_frames_per_episode": 400, "autoreset_mode": mode.value}
    ours = quiet(palaestra.make_vec, "ALE/Breakout-v5", 4, **kwargs)
    theirs = quiet(
        gymnasium.make_vec, "ALE/Breakout-v5", 4, vectorization_mode="vector_entry_point", **kwargs
    )
    assert type(ours.unwrapped).__name__ == "AtariVectorEnv" and ours.metadata["autoreset_mode"] is mode
    a, b = ours.reset(seed=3), theirs.reset(seed=3)
    assert np.array_equal(a[0], b[0]) and all(np.array_equal(a[1][k], b[1][k]) for k in b[1])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        actions = rng.integers(0, 4, 4)
        a, b = ours.step(actions), theirs.step(actions)
        for x, y in zip(a[:4], b[:4], strict=True):
            assert np.array_equal(x, y)
        done = a[2] | a[3]
        ended += int(done.sum())
        if mode is AutoresetMode.SAME_STEP and done.any():
            assert list(a[4]["_final_obs"]) == list(done)
            for i in np.flatnonzero(done):
                assert np.array_equal(a[4]["final_obs"][i], b[4]["final_obs"][i])
    assert ended > 0  # 400-frame episodes: every game ended at least once


def preprocessed(**single):
    env = palaestra.make("ALE/Breakout-v5", frameskip=1, repeat_action_probability=0.0)
    env = AtariPreprocessing(env, noop_max=0, frame_skip=4, screen_size=84, **single)
    env = TransformReward(env, np.sign)
    return FrameStackObservation(env, 4, padding_type="zero")


@pytest.mark.parametrize("grayscale", [True, False])
def test_with_the_same_preprocessing_it_equals_sync_of_preprocessed_envs(grayscale):
    # What the batched env does differently unless set so: it draws no-op starts and sticky
    # actions from the emulator's generator, presses FIRE at reset, and pads the first stack
    # with zero frames (FrameStackObservation repeats the first frame by default).
    batched = palaestra.make_vec(
        "ALE/Breakout-v5",
        3,
        repeat_action_probability=0.0,
        noop_max=0,
        use_fire_reset=False,
        grayscale=grayscale,
    )
    sync = SyncVectorEnv([lambda: preprocessed(grayscale_obs=grayscale)] * 3)
    a, b = batched.reset(seed=0), sync.reset(seed=0)
    assert np.array_equal(a[0], b[0])
    rng = np.random.default_rng(1)
    for t in range(700):
        actions = rng.integers(0, 4, 3)
        a, b = batched.step(actions), sync.step(actions)
        for x, y in zip(a[:4], b[:4], strict=True):
            assert np.array_equal(x, y), t


def test_disabled_autoreset_waits_for_a_reset_of_the_finished_games():
    envs = palaestra.make_vec("ALE/Breakout-v5", 2, max_num_frames_per_episode=200, autoreset_mode="Disabled")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.DISABLED
    envs.reset(seed=0)
    for _ in range(100):
        _, _, terminated, truncated, info = envs.step(np.zeros(2, np.int64))
        if (terminated | truncated).any():
            break
    done, frames = terminated | truncated, info["episode_frame_number"].copy()
    with pytest.raises(Error, match=r"finished and were not reset \(autoreset_mode=DISABLED\)"):
        envs.step(np.zeros(2, np.int64))
    _, info = envs.reset(options={"reset_mask": done})
    assert (info["episode_frame_number"][done] < frames[done]).all()  # a new episode (after its no-ops)
    assert (info["episode_frame_number"][~done] == frames[~done]).all()  # the others untouched
    envs.step(np.zeros(2, np.int64))  # all running again


def test_an_asynchronous_batch_returns_the_games_that_are_ready():
    envs = palaestra.make_vec("ALE/Pong-v5", 4, vector_kwargs={"batch_size": 2})
    assert envs.batch_size == 2 and envs.observation_space.shape == (4, 4, 84, 84)
    envs.async_reset(seed=0)
    counts = np.zeros(4, dtype=np.int64)
    for _ in range(40):  # which games are ready first depends on the threads, not on the seed
        obs, rewards, _, _, info = envs.recv()
        ids = info["env_id"].tolist()
        assert obs.shape == (2, 4, 84, 84) and rewards.shape == (2,) and ids == sorted(set(ids))
        counts[ids] += 1
        envs.send(np.zeros(2, np.int64), info["env_id"][::-1])  # any order: passed on in ALE's
    assert counts.sum() == 80
    ids = envs.recv()[4]["env_id"]
    with pytest.raises(InvalidAction, match=r"takes actions for exactly the games of the last recv\(\)"):
        envs.send(np.zeros(1, np.int64), ids[:1])
    with pytest.raises(Error, match=r"step: with batch_size=2 < num_envs=4 its games run asynchronously"):
        envs.step(np.zeros(4, np.int64))
    with pytest.raises(Error, match=r"batch_size is ALE's, fixed when the env is made \(it is 2\)"):
        envs.batch_size = 4
    envs.close()
    with pytest.raises(ValueError, match=r"autoreset_mode=DISABLED needs batch_size == num_envs"):
        palaestra.make_vec("ALE/Pong-v5", 4, batch_size=2, autoreset_mode="Disabled")


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_recv_with_every_game_gives_what_step_gives(mode):
    stepped = palaestra.make_vec(
        "ALE/Breakout-v5", 3, max_num_frames_per_episode=200, autoreset_mode=mode.value
    )
    received = palaestra.make_vec(
        "ALE/Breakout-v5", 3, max_num_frames_per_episode=200, autoreset_mode=mode.value
    )
    expected = stepped.reset(seed=4)
    received.async_reset(seed=4)
    got = received.recv()
    assert got[4]["env_id"].tolist() == [0, 1, 2]
    assert np.array_equal(expected[0], got[0])
    rng = np.random.default_rng(0)
    for _ in range(120):
        actions = rng.integers(0, 4, 3)
        expected = stepped.step(actions)
        received.send(actions, np.arange(3))
        got = received.recv()
        for x, y in zip(expected[:4], got[:4], strict=True):
            assert np.array_equal(x, y)
        assert expected[4].keys() == got[4].keys()
        assert all(
            np.array_equal(expected[4][k], got[4][k])
            for k in expected[4]
            if not k.startswith(("final", "_final"))
        )
    stepped.close()
    received.close()


def test_seeds_and_bad_input():
    envs = palaestra.make_vec("ALE/Pong-v5", 3)
    a = envs.reset(seed=[5, None, 7])[0]
    b = envs.reset(seed=[5, 6, 7])[0]
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[2], b[2])
    with pytest.raises(ValueError, match=r"must match num_envs=3 but got length=2\. Give one seed"):
        envs.reset(seed=[1, 2])
    with pytest.raises(InvalidResetOptions, match=r"reset_mask'\] must be a bool array of shape \(3,\)"):
        envs.reset(options={"reset_mask": [True, False, True]})
    for bad in (np.array([0, 1]), np.array([0, 1, 9]), np.array([0.0, 1.0, 2.0]), None):
        with pytest.raises(InvalidAction, match="AtariVectorEnv.step: actions"):
            envs.step(bad)
    with pytest.raises(Error, match=r"Invalid frameskip of 0, frameskip must be positive"):
        palaestra.make_vec("ALE/Pong-v5", 2, frameskip=0)
    with pytest.raises(ValueError, match=r"batch_size must be an integer in \[0, 2\] \(games per step"):
        palaestra.make_vec("ALE/Pong-v5", 2, batch_size=3)


BAD_SEEDS = {
    "negative": (-1, "Seed must be greater or equal to zero, actual value: -1"),
    "a string": ("ab", "Seed must be a python integer, actual type: <class 'str'>. Pass an int"),
    "a float": (1.5, "Seed must be a python integer, actual type: <class 'float'>"),
    "a bool": (True, "Seed must be a python integer, actual type: <class 'bool'>"),
    "past 2**31": (2**31, r"at most 2\*\*31 - 1 = 2147483647 for ALE's vector interface"),
    "running past 2**31": (2**31 - 2, "got a game seed of 2147483648"),
    "a float in a list": ([1, 2.0, 3], "Seed must be a python integer, actual type: <class 'float'>"),
    "a negative in a list": ([1, -2, 3], "greater or equal to zero, actual value: -2"),
    "a 2-d array": (np.zeros((3, 1), dtype=np.int64), "Seed must be a python integer"),
}


@pytest.mark.parametrize(("seed", "words"), BAD_SEEDS.values(), ids=BAD_SEEDS)
def test_bad_seeds_are_named_before_they_reach_ale(seed, words):
    envs = palaestra.make_vec("ALE/Pong-v5", 3)
    try:
        with pytest.raises(Error, match=words):
            envs.reset(seed=seed)
        assert envs.reset(seed=np.int64(4))[0].shape == (3, 4, 84, 84)  # still usable
    finally:
        envs.close()


BAD_SETTINGS = {
    "stack_num": (0, r"stack_num must be an integer >= 1 \(frames stacked per observation\), got 0"),
    "img_height": (0, r"img_height must be an integer >= 1 \(pixels\), got 0"),
    "img_width": (0, r"img_width must be an integer >= 1"),
    "num_threads": (-1, r"num_threads must be an integer >= 0 \(0: one per core\), got -1"),
    "repeat_action_probability": (2.0, r"must be a number in \[0.0, 1.0\] \(a probability\), got 2.0"),
    "noop_max": (-1, r"noop_max must be an integer >= 0"),
    "max_num_frames_per_episode": (2.5, "must be an integer >= 0"),
    "thread_affinity_offset": (-2, r"thread_affinity_offset must be an integer >= -1 \(-1: no pinning\)"),
}


@pytest.mark.parametrize(
    ("name", "value", "words"), [(k, *v) for k, v in BAD_SETTINGS.items()], ids=BAD_SETTINGS
)
def test_settings_ale_would_hang_or_misread_on_are_refused(name, value, words):
    # stack_num=0 and a zero image size used to hang in reset, inside ALE, beyond Ctrl-C.
    with pytest.raises(ValueError, match=words):
        palaestra.make_vec("ALE/Pong-v5", 2, **{name: value})


def test_calls_after_close_name_the_closed_env():
    envs = palaestra.make_vec("ALE/Pong-v5", 2)
    envs.reset(seed=0)
    envs.close()
    for call in (lambda: envs.reset(), lambda: envs.step(np.zeros(2, dtype=np.int64))):
        with pytest.raises(ClosedEnvironmentError, match=r"after a call to `close\(\)`. Make a new one"):
            call()
