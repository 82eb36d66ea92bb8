"""Natively batched envs step any subset of their sub-envs (send/recv), the others holding still.

The reference is the sync vectorizer of the same single envs, same seeds, same actions: every
observation, reward and flag of every subset step, in both autoreset modes that step on, with
episodes ending often (a short time limit), by subsets drawn at random and by EnvPool's
asynchronous loop with a batch size that does not divide the number of sub-envs.
"""

import numpy as np
import pytest

import palaestra
from palaestra.vector import AutoresetMode

pytestmark = pytest.mark.needs_plugins

IDS = [
    "Acrobot-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Taxi-v4",
    "FrozenLake-v1",
    "CliffWalking-v1",
    "Hopper-v5",  # physics in mujoco.batch arrays
    "InvertedPendulum-v5",
    "Ant-v5",  # physics in threads
]
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP]


def pair(env_id, mode, n=4):
    batched = palaestra.make_vec(env_id, n, autoreset_mode=mode, max_episode_steps=6)
    sync = palaestra.make_vec(
        env_id, n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, max_episode_steps=6
    )
    assert batched.steps_some
    return batched, sync


def assert_same(mine, theirs, where):
    for a, b in zip(mine[:4], theirs[:4], strict=True):
        np.testing.assert_array_equal(a, b, err_msg=where)
    assert mine[4]["env_id"].tolist() == theirs[4]["env_id"].tolist(), where
    # Infos agree in their keys; their values follow Gymnasium's batching, whose dtype is the
    # first row's (an int prob of a reset makes a column of ints), and a subset's first row
    # is not the whole batch's.
    assert set(mine[4]) == set(theirs[4]), where


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("env_id", IDS)
def test_random_subsets_step_as_the_sync_vectorizer_steps_them(env_id, mode):
    batched, sync = pair(env_id, mode)
    space = batched.single_action_space
    space.seed(1)
    rng = np.random.default_rng(0)
    for envs in (batched, sync):
        envs.reset(seed=11)
    ended = 0
    for t in range(60):
        ids = np.sort(rng.permutation(4)[: rng.integers(1, 5)])
        actions = np.array([space.sample() for _ in ids])
        results = []
        for envs in (batched, sync):
            envs.batch_size = ids.size
            envs.send(actions, ids)
            results.append(envs.recv())
        assert_same(*results, f"{env_id} step {t} ids {ids.tolist()}")
        ended += int((results[0][2] | results[0][3]).sum())
    assert ended > 3  # episodes ended (and autoreset) along the way
    for envs in (batched, sync):  # a full step after the subsets: still the same
        envs.batch_size = 4
    full = np.array([space.sample() for _ in range(4)])
    for a, b in zip(batched.step(full)[:4], sync.step(full)[:4], strict=True):
        np.testing.assert_array_equal(a, b)
    batched.close()
    sync.close()


@pytest.mark.parametrize("env_id", ["Taxi-v4", "Pendulum-v1", "Hopper-v5"])
def test_envpools_async_loop_with_any_batch_size(env_id):
    batched, sync = pair(env_id, AutoresetMode.NEXT_STEP)
    space = batched.single_action_space
    space.seed(2)
    for envs in (batched, sync):
        envs.batch_size = 3  # does not divide 4: rounds do not meet
        envs.async_reset(seed=4)
    for t in range(40):
        mine, theirs = batched.recv(), sync.recv()
        assert_same(mine, theirs, f"{env_id} round {t}")
        actions = np.array([space.sample() for _ in range(3)])
        batched.send(actions, mine[4]["env_id"])
        sync.send(actions, theirs[4]["env_id"])
    batched.close()
    sync.close()


def test_cartpole_held_sub_envs_hold_still_and_the_others_step_as_in_a_full_step():
    envs = palaestra.make_vec("CartPole-v1", 4)
    twin = palaestra.make_vec("CartPole-v1", 4)
    envs.reset(seed=0)
    twin.reset(seed=0)
    before = envs.unwrapped.state.copy()
    envs.batch_size = 2
    envs.send(np.array([1, 0]), np.array([1, 3]))
    obs, *_ = envs.recv()
    full, *_ = twin.step(np.array([1, 1, 1, 0]))  # 0 and 2 take sub-env 1's action here
    np.testing.assert_array_equal(obs, full[[1, 3]])
    state = envs.unwrapped.state
    np.testing.assert_array_equal(state[:, [0, 2]], before[:, [0, 2]])  # bit for bit
    assert envs.unwrapped.steps.tolist() == [0, 1, 0, 1]


def test_a_disabled_autoreset_lets_the_others_step_while_an_ended_one_waits():
    envs = palaestra.make_vec("Taxi-v4", 2, autoreset_mode=AutoresetMode.DISABLED, max_episode_steps=1)
    envs.reset(seed=0)
    envs.step(np.array([0, 0]))  # both truncated
    envs.reset(options={"reset_mask": np.array([False, True])})
    envs.batch_size = 1
    envs.send(np.array([0]), np.array([1]))  # sub-env 0 ended and is not stepped: allowed
    assert envs.recv()[4]["env_id"].tolist() == [1]
    envs.send(np.array([0]), np.array([0]))
    with pytest.raises(
        RuntimeError, match=r"Sub-envs \[0\] ended their episode and autoreset_mode is DISABLED"
    ):
        envs.recv()


def test_an_env_without_row_axes_still_steps_only_together():
    envs = palaestra.make_vec("Blackjack-v1", 4)
    assert not envs.steps_some
    envs.reset(seed=0)
    envs.batch_size = 2
    envs.send(np.array([0, 1]), np.array([0, 1]))
    with pytest.raises(palaestra.error.NoAsyncCallError, match=r"sub-envs \[2, 3\] have no action yet"):
        envs.recv()
