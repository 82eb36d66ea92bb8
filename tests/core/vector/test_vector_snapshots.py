"""VectorEnv.snapshot()/restore() for the sync and async vectorizers (real worker processes)."""

import pickle
import warnings

import numpy as np
import pytest

import palaestra
from palaestra.error import SnapshotError, SnapshotNotSupported, SubEnvError
from palaestra.vector import AutoresetMode, VectorSnapshot
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED

# Uses the reference suites' envs (CartPole-v1, ...): needs the plugins installed.
pytestmark = pytest.mark.needs_plugins

MODES = ["sync", "async"]


def make_vec(env_id="CartPole-v1", mode="sync", num_envs=4, **vector_kwargs):
    return palaestra.make_vec(env_id, num_envs=num_envs, vectorization_mode=mode, vector_kwargs=vector_kwargs)


def play(envs, actions):
    out = []
    for action in actions:
        obs, rewards, terminations, truncations, infos = envs.step(action)
        obs = [o.tolist() for o in obs] if isinstance(obs, tuple) else obs.tolist()  # Blackjack: a tuple
        out.append((obs, rewards.tolist(), terminations.tolist(), truncations.tolist(), repr(infos)))
    return out


def batches(count, num_envs=4, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 2, num_envs) for _ in range(count)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("autoreset_mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_restore_continues_exactly_across_episode_ends(mode, autoreset_mode):
    envs = make_vec(mode=mode, autoreset_mode=autoreset_mode)
    envs.reset(seed=0)
    actions = batches(80)
    play(envs, actions[:15])
    snapshot = envs.snapshot()
    expected = play(envs, actions)
    assert sum(step[2].count(True) for step in expected) >= 4  # episodes end and autoreset
    envs.restore(snapshot)
    assert play(envs, actions) == expected
    envs.restore(pickle.loads(pickle.dumps(snapshot)))
    assert play(envs, actions) == expected
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_a_pending_autoreset_is_part_of_the_vector_snapshot(mode):
    envs = make_vec(mode=mode)
    envs.reset(seed=0)
    for action in batches(200):
        terminations = envs.step(action)[2]
        if terminations.any():
            break
    snapshot = envs.snapshot()
    assert list(snapshot.autoreset) == terminations.tolist()
    first = envs.step(np.zeros(4, dtype=np.int64))
    envs.restore(snapshot)
    again = envs.step(np.zeros(4, dtype=np.int64))
    np.testing.assert_array_equal(first[0], again[0])
    assert (again[1][terminations] == 0.0).all()  # the pending sub-envs were reset, not stepped
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_one_env_snapshot_goes_into_every_sub_env(mode):
    env = palaestra.make("CartPole-v1")
    env.reset(seed=3)
    env.step(1)
    envs = make_vec(mode=mode)
    envs.reset(seed=0)
    envs.restore(env.snapshot())
    obs = envs.step(np.array([0, 1, 0, 1]))[0]
    np.testing.assert_array_equal(obs[0], obs[2])
    np.testing.assert_array_equal(obs[1], obs[3])
    np.testing.assert_array_equal(obs[1], env.step(1)[0])  # the same state as the single env
    assert not np.array_equal(obs[0], obs[1])
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_a_list_of_per_env_snapshots_is_restored_in_order(mode):
    envs = make_vec(mode=mode)
    envs.reset(seed=0)
    saved = envs.snapshot()
    shuffled = [saved.envs[i] for i in (3, 2, 1, 0)]
    first = envs.step(np.ones(4, dtype=np.int64))[0]
    envs.restore(shuffled)
    np.testing.assert_array_equal(envs.step(np.ones(4, dtype=np.int64))[0], first[::-1])
    envs.close()


@SUB_ENV_ERRORS_LOGGED
@pytest.mark.parametrize("mode", MODES)
def test_vector_restore_errors_name_the_mismatch(mode):
    envs = make_vec(mode=mode)
    envs.reset(seed=0)
    other = make_vec(mode="sync", num_envs=3)
    with pytest.raises(SnapshotError, match="holds 3 sub-envs and this vector env has 4"):
        envs.restore(other.snapshot())
    with pytest.raises(SnapshotError, match="got 2 snapshots for a vector env of 4 sub-envs"):
        envs.restore(list(other.snapshot().envs[:2]))
    with pytest.raises(TypeError, match="restore\\(\\) takes a VectorSnapshot .* got dict"):
        envs.restore({})
    pendulum = palaestra.make("Pendulum-v1").snapshot()
    mismatch = r"taken from Pendulum-v1 \(.*PendulumEnv\) and does not fit CartPole-v1 \(.*CartPoleEnv\)"
    with pytest.raises(SnapshotError, match=mismatch) as info:
        envs.restore(pendulum)
    if mode == "async":  # raised in a worker: the sub-env is named
        assert isinstance(info.value.__cause__, SubEnvError) and "Sub-env 0" in str(info.value.__cause__)
    envs.step(np.ones(4, dtype=np.int64))  # still usable
    envs.close()
    other.close()


# Every natively batched env of the reference suites (make_vec's default for these ids).
NATIVE_IDS = [
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
    "FrozenLake-v1",
    "CliffWalking-v1",
    "Taxi-v4",
    "Blackjack-v1",
]


@pytest.mark.parametrize("num_envs", [3, 60], ids=["loop", "arrays"])  # CartPole: loop up to 48
@pytest.mark.parametrize("env_id", NATIVE_IDS)
def test_natively_batched_envs_restore_their_whole_batch(env_id, num_envs):
    envs = palaestra.make_vec(env_id, num_envs=num_envs, max_episode_steps=20)
    assert type(envs).__module__.startswith(("palaestra_classic_control", "palaestra_toy_text"))
    envs.reset(seed=1)
    envs.action_space.seed(2)
    actions = [envs.action_space.sample() for _ in range(50)]
    play(envs, actions[:12])
    snapshot = envs.snapshot()
    expected = play(envs, actions)  # crosses truncation at step 20 and autoresets
    envs.restore(snapshot)
    assert play(envs, actions) == expected
    fresh = palaestra.make_vec(env_id, num_envs=num_envs, max_episode_steps=20)
    fresh.restore(pickle.loads(pickle.dumps(snapshot)))
    assert play(fresh, actions) == expected


def test_a_natively_batched_snapshot_only_fits_its_own_kind():
    native = palaestra.make_vec("CartPole-v1", num_envs=2)
    native.reset(seed=0)
    with pytest.raises(
        TypeError, match="restore\\(\\) takes a Snapshot made by env.snapshot\\(\\), got VectorSnapshot"
    ):
        native.restore(make_vec(num_envs=2).snapshot())
    with pytest.raises(
        SnapshotError, match="taken from Pendulum-v1 \\(PendulumVectorEnv\\) and does not fit CartPole-v1"
    ):
        native.restore(palaestra.make_vec("Pendulum-v1", num_envs=2).snapshot())


def test_vector_wrappers_cannot_take_snapshots_and_say_so():
    from palaestra.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(make_vec(num_envs=2))
    with pytest.raises(
        SnapshotNotSupported,
        match="RecordEpisodeStatistics.*lists no snapshot_fields.*vector wrappers cannot",
    ):
        envs.snapshot()
    with pytest.raises(SnapshotNotSupported, match="vector wrappers cannot"):
        envs.restore(VectorSnapshot((), ()))


def test_vector_snapshot_repr():
    envs = make_vec(num_envs=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        snapshot = envs.snapshot()
    assert repr(snapshot) == (
        "VectorSnapshot(2 x Snapshot(CartPole-v1: TimeLimit > OrderEnforcing > PassiveEnvChecker > CartPoleEnv))"
    )


def test_sync_restore_checks_every_sub_env_before_changing_any():
    envs = make_vec(mode="sync")
    envs.reset(seed=0)
    before = envs.snapshot()
    envs.step(np.ones(4, dtype=np.int64))
    moved = envs.snapshot()
    wrong = [*before.envs[:3], palaestra.make("Pendulum-v1").snapshot()]
    with pytest.raises(SnapshotError, match="Pendulum-v1"):
        envs.restore(wrong)
    assert [s.inner.inner.inner.state for s in envs.snapshot().envs] == [
        s.inner.inner.inner.state for s in moved.envs
    ]
