"""palaestra_envpool: EnvPool's interface on palaestra's envs, with palaestra's (Gymnasium's) numbers."""

import sys

import numpy as np
import pytest

import palaestra
import palaestra_envpool as envpool
from palaestra import error

pytestmark = pytest.mark.needs_plugins

gymnasium = pytest.importorskip(
    "gymnasium", reason="the pools hand out Gymnasium's spaces through the bridge"
)


@pytest.mark.parametrize("mode", [None, "sync", "async"])
def test_full_batch_steps_are_palaestras_numbers_as_envpools_types(mode):
    pool = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=3, vectorization_mode=mode)
    reference = palaestra.make_vec("CartPole-v1", 4, vectorization_mode=mode)
    obs, info = pool.reset()
    ref_obs, _ = reference.reset(seed=3)
    np.testing.assert_array_equal(obs, ref_obs)
    assert info["env_id"].dtype == np.int32 and info["elapsed_step"].tolist() == [0, 0, 0, 0]
    rng = np.random.default_rng(0)
    steps = np.zeros(4, dtype=np.int32)
    ended = np.zeros(4, dtype=np.bool_)
    for _ in range(120):
        actions = rng.integers(0, 2, size=4)
        obs, rewards, terminated, truncated, info = pool.step(actions)
        ref = reference.step(actions)
        np.testing.assert_array_equal(obs, ref[0])
        assert rewards.dtype == np.float32 and rewards.tolist() == ref[1].tolist()
        assert terminated.tolist() == ref[2].tolist() and truncated.tolist() == ref[3].tolist()
        steps = np.where(ended, 0, steps + 1)
        ended = terminated | truncated
        assert info["elapsed_step"].tolist() == steps.tolist()
        assert info["players"]["env_id"].tolist() == [0, 1, 2, 3]
    assert isinstance(pool.action_space, gymnasium.spaces.Discrete)  # EnvPool's classes
    assert pool.single_observation_space.shape == (4,)
    pool.close()
    reference.close()


def test_some_sub_envs_step_and_reset_as_their_own_single_envs():
    pool = envpool.make_gymnasium("Acrobot-v1", num_envs=3, seed=10, vectorization_mode="sync")
    singles = [palaestra.make("Acrobot-v1") for _ in range(3)]
    obs, _ = pool.reset()
    for i, env in enumerate(singles):
        np.testing.assert_array_equal(obs[i], env.reset(seed=10 + i)[0])
    rng = np.random.default_rng(1)
    for _ in range(60):
        ids = rng.permutation(3)[: rng.integers(1, 4)]
        actions = rng.integers(0, 3, size=ids.size)
        obs, rewards, _, _, info = pool.step(actions, ids)
        assert info["env_id"].tolist() == ids.tolist()  # in the order asked for
        for row, (i, action) in enumerate(zip(ids, actions, strict=False)):
            single_obs, reward, *_ = singles[i].step(action)
            np.testing.assert_array_equal(obs[row], single_obs)
            assert rewards[row] == np.float32(reward)
        if rng.random() < 0.2:
            i = int(rng.integers(0, 3))
            obs, info = pool.reset(np.array([i]))
            np.testing.assert_array_equal(obs[0], singles[i].reset()[0])
            assert info["env_id"].tolist() == [i] and info["elapsed_step"].tolist() == [0]
    pool.close()


def test_time_limit_elapsed_step_and_the_autoreset_after_it():
    pool = envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=0, max_episode_steps=3)
    pool.reset()
    seen = []
    for _ in range(5):
        _, rewards, _terminated, truncated, info = pool.step(np.ones(2, dtype=np.int64))
        seen.append((rewards.tolist(), truncated.tolist(), info["elapsed_step"].tolist()))
    assert seen == [
        ([1, 1], [False, False], [1, 1]),
        ([1, 1], [False, False], [2, 2]),
        ([1, 1], [True, True], [3, 3]),
        ([0, 0], [False, False], [0, 0]),  # EnvPool's autoreset: the next episode's start
        ([1, 1], [False, False], [1, 1]),
    ]
    assert pool.config["max_episode_steps"] == 3 and pool.spec.config.seed == 0


def test_integer_observations_are_int32_and_blackjack_is_one_row():
    taxi = envpool.make_gymnasium("Taxi-v4", num_envs=2, seed=0)
    obs, info = taxi.reset()
    assert obs.dtype == np.int32 and obs.shape == (2,)
    assert "prob" in info and "_prob" not in info  # the env's keys, no presence masks
    blackjack = envpool.make_gymnasium("Blackjack-v1", num_envs=3, seed=0)
    obs, _ = blackjack.reset()
    reference = palaestra.make_vec("Blackjack-v1", 3)
    ref_obs, _ = reference.reset(seed=0)
    assert obs.dtype == np.int32 and obs.shape == (3, 3)
    np.testing.assert_array_equal(obs, np.stack(ref_obs, axis=1))
    assert blackjack.observation_space.shape == (3,) and blackjack.observation_space.contains(obs[0])


def test_async_mode_serves_batches_in_turn_with_their_ids():
    pool = envpool.make("Taxi-v4", num_envs=8, batch_size=4, seed=1)
    assert pool.is_async
    pool.async_reset()
    served = []
    for round_ in range(4):
        obs, rewards, _, _, info = pool.recv()
        served.append(info["env_id"].tolist())
        assert obs.shape == (4,) and rewards.dtype == np.float32
        assert info["elapsed_step"].tolist() == [0 if round_ < 2 else 1] * 4
        pool.send(np.zeros(4, dtype=np.int64), info["env_id"])
    assert served == [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 2, 3], [4, 5, 6, 7]]
    pool.close()


def test_dm_time_steps_first_mid_last_and_discount():
    pytest.importorskip("dm_env", reason='env_type="dm" needs dm-env')
    pool = envpool.make_dm("CartPole-v1", num_envs=2, seed=0, max_episode_steps=2)
    first = pool.reset()
    assert first.step_type.tolist() == [0, 0] and first.observation.env_id.tolist() == [0, 1]
    kinds = [pool.step(np.zeros(2, dtype=np.int64)).step_type.tolist() for _ in range(3)]
    assert kinds == [[1, 1], [2, 2], [0, 0]]
    spec = pool.action_spec()
    assert spec.num_values == 2 and pool.observation_spec().obs.shape == (4,)
    done = envpool.make_dm("CartPole-v1", num_envs=1, seed=0)
    done.reset()
    for _ in range(200):
        ts = done.step(np.zeros(1, dtype=np.int64))
        if ts.step_type[0] == 2:
            assert ts.discount.tolist() == [0.0]  # terminated: no future
            break
    else:
        pytest.fail("pushing left for 200 steps always ends CartPole's episode")


def test_gym_is_the_gymnasium_pool_and_specs_describe_the_pool():
    assert type(envpool.make_gym("CartPole-v1")) is envpool.EnvPool
    spec = envpool.make_spec("CartPole-v1", num_envs=3)
    assert spec.config.num_envs == 3 and spec.config.batch_size == 3 and spec.config.seed == 42
    assert spec.config.max_episode_steps == 500 and spec.reward_threshold == 475.0
    assert spec.gymnasium_action_space == gymnasium.spaces.Discrete(2)
    assert "CartPole-v1" in envpool.list_all_envs()


def test_envpools_atari_names_reach_the_ale_ids():
    pytest.importorskip("ale_py", reason="the Atari plugin needs ale-py")
    spec = envpool.make_spec("Pong-v5", num_envs=2, frame_skip=4)
    assert spec.palaestra_id == "ALE/Pong-v5" and spec.env_kwargs == {"frameskip": 4}


# -- what is refused, and how -------------------------------------------------------------


def test_a_subset_of_a_batch_that_steps_together_names_the_fix():
    pool = envpool.make_gymnasium("Blackjack-v1", num_envs=4, seed=0)  # its tables step together only
    pool.reset()
    with pytest.raises(
        error.InvalidAction,
        match=r"2 of 4 sub-envs: BlackjackVectorEnv steps its sub-envs together.*vectorization_mode='sync'",
    ):
        pool.step(np.zeros(2, dtype=np.int64), np.array([0, 2]))
    pool.step(np.zeros(4, dtype=np.int64), np.arange(4))  # every id, in order: a full step


@pytest.mark.parametrize("task", ["CartPole-v1", "Taxi-v4", "Hopper-v5"])
def test_natively_batched_pools_step_any_subset(task):
    pool = envpool.make_gymnasium(task, num_envs=4, seed=3)
    reference = envpool.make_gymnasium(task, num_envs=4, seed=3)
    pool.reset()
    reference.reset()
    space = pool.action_space
    space.seed(0)
    full = np.array([space.sample() for _ in range(4)])
    obs, *_ = pool.step(full[[3, 1]], np.array([3, 1]))
    ref_obs, *_ = reference.step(full)  # the same actions for 3 and 1: their rows agree
    np.testing.assert_array_equal(obs, ref_obs[[3, 1]])
    pool.reset(np.array([0]))  # sub-env 0 never stepped: a reset of it alone
    assert pool.step(full, None)[4]["elapsed_step"].tolist() == [1, 2, 1, 2]
    pool.close()
    reference.close()


@pytest.mark.parametrize(
    ("env_id", "message"),
    [
        ([0, 7], r"env_id \[7\] out of range: this pool has sub-envs 0 to 3"),
        ([1, 1], r"env_id \[1, 1\] names a sub-env twice"),
        ([0.5], r"env_id must be sub-env ids"),
    ],
)
def test_bad_env_ids_are_named(env_id, message):
    pool = envpool.make_gymnasium("CartPole-v1", num_envs=4, seed=0, vectorization_mode="sync")
    pool.reset()
    with pytest.raises(error.InvalidAction, match=message):
        pool.step(np.zeros(len(env_id), dtype=np.int64), env_id)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"env_type": "torch"}, r"env_type must be one of \['gymnasium', 'gym', 'dm'\], got 'torch'"),
        ({"num_envs": 0}, r"num_envs must be at least 1, got 0"),
        ({"num_envs": 2, "batch_size": 3}, r"batch_size must be in \[0, num_envs=2\]"),
        ({"num_threads": -1}, r"num_threads must be 0"),
        ({"seed": "1"}, r"seed must be an int, got '1'"),
        ({"max_num_players": 2}, r"palaestra's envs have one player"),
    ],
)
def test_bad_pool_settings_are_named(kwargs, message):
    with pytest.raises(error.InvalidEnvArgumentValue, match=message):
        envpool.make("CartPole-v1", **kwargs)


def test_unknown_and_old_ids_keep_palaestras_words():
    with pytest.raises(error.DeprecatedEnv, match="Please use `Taxi-v4` instead"):
        envpool.make("Taxi-v3")
    with pytest.raises(error.NameNotFound, match="Environment `NoSuchEnv` doesn't exist"):
        envpool.make("NoSuchEnv-v0")


def test_reset_seed_and_seed_warn_as_envpool_does_and_options_are_checked():
    pool = envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=0)
    with pytest.warns(UserWarning, match=r"reset\(seed=...\) is ignored; pass seed to envpool.make"):
        pool.reset(seed=5)
    with pytest.warns(UserWarning, match="The `seed` function in envpool is abandoned"):
        pool.seed(1)
    with pytest.raises(ValueError, match=r"Unsupported Gymnasium reset options for EnvPool: \['x'\]"):
        pool.reset(options={"x": 1})
    with pytest.raises(ValueError, match="Pass either env_id or options"):
        pool.reset(np.array([0]), options={"reset_mask": np.array([True, False])})
    obs, info = pool.reset(options={"reset_mask": np.array([False, True])})
    assert info["env_id"].tolist() == [1] and obs.shape == (1, 4)


def test_dm_without_dm_env_names_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "dm_env", None)  # as if it were not installed
    with pytest.raises(error.DependencyNotInstalled, match=r'pip install "palaestra-envpool\[dm\]"'):
        envpool.make_dm("CartPole-v1")


# -- field by field against EnvPool 1.2.5, where it is installed ----------------------------

SHARED = ["CartPole-v1", "Pendulum-v1", "FrozenLake-v1", "Blackjack-v1", "HalfCheetah-v5", "LunarLander-v3"]


@pytest.mark.filterwarnings("ignore:.*precision lowered by casting:UserWarning")  # EnvPool's own spaces
@pytest.mark.parametrize("task", SHARED)
def test_same_fields_as_envpool(task):
    real = pytest.importorskip(
        "envpool", reason="EnvPool 1.2.5 is a benchmark dependency (uv sync --group bench)"
    )
    theirs = real.make_gymnasium(task, num_envs=3, seed=0, max_episode_steps=4)
    ours = envpool.make_gymnasium(task, num_envs=3, seed=0, max_episode_steps=4)
    assert type(ours.observation_space) is type(theirs.observation_space)
    assert ours.observation_space.shape == theirs.observation_space.shape
    assert type(ours.action_space) is type(theirs.action_space)
    assert ours.action_space.shape == theirs.action_space.shape
    (obs, info), (their_obs, their_info) = ours.reset(), theirs.reset()
    assert obs.dtype == their_obs.dtype and obs.shape == their_obs.shape
    assert {"env_id", "players", "elapsed_step"} <= set(info)
    assert info["elapsed_step"].tolist() == their_info["elapsed_step"].tolist()
    actions = np.array([theirs.action_space.sample() for _ in range(3)])
    same_episodes = True  # until one terminates: the same rules, not the same numbers
    for _ in range(5):
        mine, other = ours.step(actions), theirs.step(actions)
        same_episodes = same_episodes and not (mine[2].any() or other[2].any())
        for a, b in zip(mine[:4], other[:4], strict=False):
            assert a.dtype == b.dtype and a.shape == b.shape
        for key in ("env_id", "elapsed_step"):
            assert mine[4][key].dtype == other[4][key].dtype
        if same_episodes:
            assert mine[4]["elapsed_step"].tolist() == other[4]["elapsed_step"].tolist()
        assert mine[4]["players"]["env_id"].tolist() == other[4]["players"]["env_id"].tolist()
    pool_settings = set(envpool.make_spec(task).config._fields[:8])  # EnvPool's own settings
    assert pool_settings <= set(theirs.config) and pool_settings <= set(ours.config)
    theirs.close()
    ours.close()


def test_num_threads_is_the_one_knob():
    pool = envpool.make_gymnasium("Hopper-v5", num_envs=3, num_threads=2, seed=0)
    assert pool.envs.num_workers == 2 and pool.config["num_threads"] == 2
    pool.close()
    pool = envpool.make_gymnasium("CartPole-v1", num_envs=3, num_threads=2, vectorization_mode="async")
    assert pool.envs.num_workers == 2
    pool.close()
    pool = envpool.make_gymnasium("CartPole-v1", num_envs=3, num_threads=2, vectorization_mode="sync")
    assert pool.envs.num_workers == 1  # sync steps in the calling thread, as asked
    pool.close()
