"""RayVectorEnv on a real two-node cluster: placement, equality with sync, the build deadline, a lost node.

The cluster is two ``ray start`` processes on this machine (see ``conftest.TwoNodes``): the
head and a second node with the custom resource ``node2``, one CPU each. The node-loss test
kills the second node and so runs last.
"""

import functools
from collections import Counter

import numpy as np
import pytest

import palaestra
from palaestra.error import VectorTimeoutError, WorkerDiedError
from palaestra.vector import SyncVectorEnv
from palaestra_ray import ActorsNotPlacedError, RayVectorEnv
from tests.fixtures.compare import assert_same_tree

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("two_nodes")]

CARTPOLE = [functools.partial(palaestra.make, "CartPole-v1")] * 8


@pytest.fixture(autouse=True)
def free_cluster():
    """Each test starts on an idle cluster: Ray frees a closed env's actors asynchronously."""
    import time

    import ray

    deadline = time.monotonic() + 30
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)


def test_the_cluster_has_two_nodes_and_the_second_its_resource(two_nodes):
    import ray

    head, second = two_nodes.node_ids(ray)
    assert head != second
    assert ray.cluster_resources()["CPU"] == 2 and ray.cluster_resources()["node2"] == 4


def test_spread_places_the_actors_evenly_on_both_nodes(two_nodes):
    import ray

    envs = RayVectorEnv(CARTPOLE, num_actors=4, actor_options={"num_cpus": 0.25}, placement="spread")
    try:
        counts = Counter(envs.actor_nodes())
        assert sorted(counts) == sorted(two_nodes.node_ids(ray)) and set(counts.values()) == {2}
    finally:
        envs.close()


def test_pack_places_the_actors_on_one_node():
    envs = RayVectorEnv(CARTPOLE, num_actors=4, actor_options={"num_cpus": 0.25}, placement="pack")
    try:
        assert len(set(envs.actor_nodes())) == 1
    finally:
        envs.close()


def test_a_node_list_pins_each_actor_and_options_may_differ_per_actor(two_nodes):
    import ray

    head, second = two_nodes.node_ids(ray)
    envs = RayVectorEnv(CARTPOLE, num_actors=4, actor_options={"num_cpus": 0.25}, placement=[second, head])
    try:
        assert envs.actor_nodes() == (second, head, second, head)
    finally:
        envs.close()
    # Per actor, by a function of its index: odd actors need the second node's resource.
    envs = RayVectorEnv(
        CARTPOLE,
        num_actors=4,
        actor_options=lambda k: {"num_cpus": 0, "resources": {"node2": 1}} if k % 2 else {"num_cpus": 0.25},
    )
    try:
        nodes = envs.actor_nodes()
        assert nodes[1] == nodes[3] == second
    finally:
        envs.close()


@pytest.mark.parametrize("env_id", ["CartPole-v1", "HalfCheetah-v5"])
def test_sub_envs_split_over_both_nodes_give_syncs_numbers(env_id):
    fns = [functools.partial(palaestra.make, env_id)] * 4
    ours = RayVectorEnv(fns, num_actors=2, actor_options={"num_cpus": 0.5}, placement="spread")
    reference = SyncVectorEnv(fns)
    try:
        assert len(set(ours.actor_nodes())) == 2
        assert_same_tree(ours.reset(seed=3), reference.reset(seed=3))
        rng = np.random.default_rng(3)
        for _ in range(60):
            actions = np.stack([reference.single_action_space.sample() for _ in range(4)])
            if env_id == "CartPole-v1":
                actions = rng.integers(0, 2, 4)
            assert_same_tree(ours.step(actions), reference.step(actions))
    finally:
        ours.close()
        reference.close()


def test_actors_that_cannot_be_placed_fail_the_build_deadline_saying_why():
    # The docs' trap: `resources` without `num_cpus` holds a CPU too, and the second node has one.
    # The one actor that fits may still be starting at the deadline on a busy machine: it counts
    # as placed (its worker runs its constructor), so the count holds under load.
    with pytest.raises(ActorsNotPlacedError) as caught:
        RayVectorEnv(CARTPOLE, num_actors=4, actor_options={"resources": {"node2": 1}}, build_timeout=12)
    error = caught.value
    assert isinstance(error, VectorTimeoutError)
    message = str(error)
    assert message.startswith("Ray could not place 3 of 4 actor(s) within the build deadline of 12 s")
    assert "asks for {'CPU': 1, 'node2': 1}" in message
    assert "still holds 1 CPU in Ray: give num_cpus=0" in message
    assert len(error.indices) == 6  # three actors of two sub-envs each
    # The fix the message gives works (however long four workers take to start on a busy machine).
    envs = RayVectorEnv(
        CARTPOLE, num_actors=4, actor_options={"num_cpus": 0, "resources": {"node2": 1}}, build_timeout=600
    )
    try:
        assert envs.reset(seed=0)[0].shape == (8, 4)
    finally:
        envs.close()


def test_restart_mode_rebuilds_a_lost_nodes_actors_and_goes_on(two_nodes):
    """The step that notices the loss reports the lost rows truncated; the survivors' numbers are sync's."""
    import ray

    head, second = two_nodes.node_ids(ray)
    ours = RayVectorEnv(
        CARTPOLE,
        num_actors=4,
        actor_options={"num_cpus": 0.25},
        placement=[head, second],
        on_actor_failure="restart",
        build_timeout=120,
    )
    reference = SyncVectorEnv(CARTPOLE)
    try:
        assert_same_tree(ours.reset(seed=5), reference.reset(seed=5))
        rng = np.random.default_rng(5)
        two_nodes.kill_second_node()
        for _ in range(300):  # the loss shows on the first step after Ray notices it
            actions = rng.integers(0, 2, 8)
            result, expected = ours.step(actions), reference.step(actions)
            if "actor_lost" in result[4]:
                break
            assert_same_tree(result, expected)
        else:
            pytest.fail("the loss of a node went unnoticed for 300 steps")
        lost = result[4]["actor_lost"]
        assert lost.tolist() == [False, False, True, True, False, False, True, True]
        assert lost.tolist() == result[4]["_actor_lost"].tolist()
        assert result[3][lost].all() and not result[2][lost].any() and (result[1][lost] == 0).all()
        survivors = ~lost
        for got, want in zip(result[:4], expected[:4], strict=True):
            assert np.array_equal(got[survivors], want[survivors])
        for _ in range(30):  # and it goes on: the survivors still give sync's numbers
            actions = rng.integers(0, 2, 8)
            result, expected = ours.step(actions), reference.step(actions)
            for got, want in zip(result[:4], expected[:4], strict=True):
                assert np.array_equal(got[survivors], want[survivors])
        assert set(ours.actor_nodes()) == {head}  # the rebuilt actors went to the live node
    finally:
        ours.close()
        reference.close()
        two_nodes.replace_second_node()  # for the tests after this one


def test_a_lost_node_names_every_sub_env_it_ran(two_nodes):
    """Killing the second node ends the step with WorkerDiedError listing all its sub-envs. Runs last."""
    import ray

    head, second = two_nodes.node_ids(ray)
    envs = RayVectorEnv(CARTPOLE, num_actors=4, actor_options={"num_cpus": 0.25}, placement=[head, second])
    envs.reset(seed=0)
    envs.step(np.zeros(8, dtype=np.int64))
    two_nodes.kill_second_node()
    caught = None
    for _ in range(200):  # the loss shows on the first step after Ray notices it
        try:
            envs.step(np.zeros(8, dtype=np.int64))
        except WorkerDiedError as e:
            caught = e
            break
    assert caught is not None, "the loss of a node went unnoticed for 200 steps"
    assert caught.indices == (2, 3, 6, 7)  # actors 1 and 3 ran on the second node
    assert str(caught).startswith("The Ray actors running sub-envs 2-3, sub-envs 6-7 died during `step`")
    assert envs.closed
