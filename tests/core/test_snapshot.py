"""Env.snapshot() / Env.restore(): state, generator and wrapper layers, and the errors."""

from __future__ import annotations

import pickle
import threading

import numpy as np
import pytest

import palaestra as ps
from palaestra import error, spaces
from palaestra.utils.env_checker import check_env, check_snapshot
from palaestra.wrappers import (
    FrameStackObservation,
    NormalizeObservation,
    OrderEnforcing,
    RecordEpisodeStatistics,
    TimeLimit,
)


class NoisyWalk(ps.Env):
    """A random walk: every step draws from np_random, so the generator is part of the state."""

    metadata = {"render_modes": []}
    snapshot_fields = ("position", "trail")

    def __init__(self):
        self.observation_space = spaces.Box(-1e3, 1e3, shape=(1,), dtype=np.float64)
        self.action_space = spaces.Discrete(2)
        self.position = 0.0
        self.trail = np.zeros(3)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.position = float(self.np_random.normal())
        self.trail = np.zeros(3)
        return np.array([self.position]), {}

    def step(self, action):
        self.position += (1.0 if action else -1.0) + float(self.np_random.normal())
        self.trail = np.roll(self.trail, 1)
        self.trail[0] = self.position  # written in place after the roll: copies must not alias
        return (
            np.array([self.position]),
            self.position,
            abs(self.position) > 8,
            False,
            {"trail": self.trail.copy()},
        )


class Unsnapshottable(NoisyWalk):
    snapshot_fields = None


class ForgetfulWalk(NoisyWalk):
    snapshot_fields = ("trail",)  # forgets position: check_snapshot must catch it


def rollout(env, actions):
    results = []
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        results.append((obs.tolist(), reward, terminated, truncated, info["trail"].tolist()))
        if terminated or truncated:
            results.append(env.reset()[0].tolist())
    return results


ACTIONS = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1]


def test_restore_continues_exactly_including_generator_draws():
    env = NoisyWalk()
    env.reset(seed=7)
    rollout(env, ACTIONS[:3])
    snapshot = env.snapshot()
    first = rollout(env, ACTIONS)
    env.restore(snapshot)
    assert rollout(env, ACTIONS) == first
    env.restore(snapshot)  # a snapshot is reusable: restoring copied it
    assert rollout(env, ACTIONS) == first


def test_snapshot_is_a_copy_of_the_state_not_a_view():
    env = NoisyWalk()
    env.reset(seed=1)
    env.step(1)
    snapshot = env.snapshot()
    saved_trail = snapshot.state["trail"].copy()
    env.step(0)
    assert snapshot.state["trail"].tolist() == saved_trail.tolist()
    env.restore(snapshot)
    env.trail[0] = 123.0  # the env's arrays after a restore are not the snapshot's
    assert snapshot.state["trail"].tolist() == saved_trail.tolist()


def test_restore_keeps_the_generator_object_so_references_follow_it():
    env = NoisyWalk()
    env.reset(seed=3)
    generator = env.np_random
    snapshot = env.snapshot()
    expected = generator.random()
    env.restore(snapshot)
    assert env.np_random is generator
    assert generator.random() == expected
    assert env.np_random_seed == 3


def test_snapshot_before_the_generator_exists_restores_to_no_generator():
    env = NoisyWalk()
    snapshot = env.snapshot()
    assert snapshot.rng is None
    env.reset(seed=5)
    env.restore(snapshot)
    assert env._np_random is None and env.position == 0.0


def test_pickled_snapshot_restores_into_a_fresh_env():
    env = TimeLimit(NoisyWalk(), 50)
    env.reset(seed=11)
    rollout(env, ACTIONS[:4])
    snapshot = env.snapshot()
    first = rollout(env, ACTIONS)
    fresh = TimeLimit(NoisyWalk(), 50)
    fresh.restore(pickle.loads(pickle.dumps(snapshot)))
    assert rollout(fresh, ACTIONS) == first


def test_wrapper_layers_are_restored_time_limit_truncates_at_the_same_step():
    env = TimeLimit(NoisyWalk(), 6)
    env.reset(seed=0)
    for _ in range(4):
        env.step(1)
    snapshot = env.snapshot()
    flags = [env.step(0)[3] for _ in range(2)]
    assert flags == [False, True]
    env.restore(snapshot)
    assert [env.step(0)[3] for _ in range(2)] == [False, True]


def test_order_enforcing_state_comes_back_with_the_snapshot():
    env = OrderEnforcing(NoisyWalk())
    snapshot = env.snapshot()  # before the first reset
    env.reset(seed=0)
    env.step(1)
    env.restore(snapshot)
    with pytest.raises(error.ResetNeeded):
        env.step(1)


@pytest.mark.parametrize(
    "wrap",
    [
        lambda env: RecordEpisodeStatistics(env),
        lambda env: NormalizeObservation(env),
        lambda env: FrameStackObservation(env, 3),
    ],
    ids=["RecordEpisodeStatistics", "NormalizeObservation", "FrameStackObservation"],
)
def test_stateful_core_wrappers_are_restored_without_declaring_fields(wrap):
    env = wrap(NoisyWalk())
    env.reset(seed=2)
    for action in ACTIONS[:5]:
        env.step(action)
    snapshot = env.snapshot()

    def run():
        return [(np.asarray(o).tolist(), r, str(i)) for o, r, _, _, i in (env.step(a) for a in ACTIONS)]

    first = run()
    env.restore(snapshot)
    assert run() == first


def test_snapshot_layers_and_repr_name_the_stack():
    env = ps.make("CartPole-v1")
    snapshot = env.snapshot()
    assert snapshot.layers == ("TimeLimit", "OrderEnforcing", "PassiveEnvChecker", "CartPoleEnv")
    assert (
        repr(snapshot)
        == "Snapshot(CartPole-v1: TimeLimit > OrderEnforcing > PassiveEnvChecker > CartPoleEnv)"
    )


def test_env_without_snapshot_fields_says_it_cannot_and_how_to_add_it():
    env = TimeLimit(Unsnapshottable(), 10)
    with pytest.raises(
        error.SnapshotNotSupported, match=r"Unsnapshottable instance.*snapshot_fields"
    ) as info:
        env.snapshot()
    assert isinstance(info.value, NotImplementedError)


def test_restoring_into_a_differently_wrapped_env_names_both_stacks():
    snapshot = TimeLimit(NoisyWalk(), 10).snapshot()
    with pytest.raises(
        error.SnapshotError, match=r"taken from TimeLimit > NoisyWalk and does not fit NoisyWalk"
    ):
        NoisyWalk().restore(snapshot)
    with pytest.raises(
        error.SnapshotError, match=r"does not fit OrderEnforcing > NoisyWalk.*built the same way"
    ):
        OrderEnforcing(NoisyWalk()).restore(snapshot)


def test_restoring_another_envs_snapshot_names_both_ids():
    snapshot = ps.make("CartPole-v1").snapshot()
    with pytest.warns(DeprecationWarning, match="CartPole-v0 is out of date"):
        older = ps.make("CartPole-v0")
    with pytest.raises(
        error.SnapshotError, match=r"taken from CartPole-v1 \(.*\) and does not fit CartPole-v0 \(TimeLimit"
    ):
        older.restore(snapshot)


def test_a_failed_restore_leaves_the_env_untouched():
    env = TimeLimit(NoisyWalk(), 10)
    env.reset(seed=4)
    before = env.snapshot()
    with pytest.raises(error.SnapshotError):
        env.restore(OrderEnforcing(NoisyWalk()).snapshot())
    after = env.snapshot()
    assert after.state == before.state and after.inner.state["position"] == before.inner.state["position"]


def test_restore_rejects_what_is_not_a_snapshot():
    with pytest.raises(TypeError, match=r"restore\(\) takes a Snapshot made by env.snapshot\(\), got dict"):
        NoisyWalk().restore({"position": 1.0})


class Counting(ps.Wrapper):
    def __init__(self, env):
        super().__init__(env)
        self.steps = 0
        self.base = env.unwrapped  # a reference into the stack: not state, never copied

    def step(self, action):
        self.steps += 1
        return super().step(action)


def test_a_third_party_wrappers_attributes_are_saved_but_not_its_references_to_the_stack():
    env = Counting(NoisyWalk())
    env.reset(seed=0)
    env.step(1)
    snapshot = env.snapshot()
    assert set(snapshot.state) == {"steps"}
    env.step(1)
    env.restore(snapshot)
    assert env.steps == 1 and env.base is env.env


class Locked(ps.Wrapper):
    def __init__(self, env):
        super().__init__(env)
        self.lock = threading.Lock()


def test_wrapper_state_that_cannot_be_copied_names_the_attribute_and_the_fix():
    with pytest.raises(
        error.SnapshotError, match=r"Locked: its attribute 'lock' \(lock\).*Locked.snapshot_fields"
    ):
        Locked(NoisyWalk()).snapshot()

    class DeclaredLocked(Locked):
        snapshot_fields = ()

    assert DeclaredLocked(NoisyWalk()).snapshot().state == {}


def test_a_listed_field_that_does_not_exist_is_named():
    class Typo(NoisyWalk):
        snapshot_fields = ("positoin",)

    with pytest.raises(
        error.SnapshotError,
        match=r"lists 'positoin' in snapshot_fields but has no attribute 'positoin' now. If reset\(\) sets it",
    ):
        Typo().snapshot()


def test_check_snapshot_passes_good_envs_and_skips_envs_without_snapshots():
    check_snapshot(NoisyWalk())
    check_snapshot(Unsnapshottable())
    with pytest.warns(UserWarning, match="Not able to test alternative render modes"):  # no spec
        check_env(NoisyWalk())


def test_check_snapshot_catches_state_the_snapshot_leaves_out():
    with pytest.raises(error.EnvCheckError, match=r"snapshot_fields .* must cover every attribute"):
        check_snapshot(ForgetfulWalk())
    with pytest.raises(error.EnvCheckError, match="snapshot_fields"):
        check_env(ForgetfulWalk())


def test_check_snapshot_reports_a_snapshot_that_cannot_be_taken_as_a_check_failure():
    class Typo(NoisyWalk):
        snapshot_fields = ("positoin",)

    with pytest.raises(error.EnvCheckError, match=r"env.snapshot\(\) failed: .*'positoin'"):
        check_snapshot(Typo())


def test_snapshots_compare_by_identity_and_can_key_a_dict():
    env = NoisyWalk()
    first, second = env.snapshot(), env.snapshot()
    assert first != second and {first: 1}[first] == 1
