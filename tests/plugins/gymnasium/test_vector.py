"""Vector envs across the bridge: Gymnasium's make_vec on palaestra ids, both adapters."""

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode as GymnasiumAutoresetMode

import palaestra
from palaestra.vector import AutoresetMode
from palaestra_gymnasium import FromGymnasiumVectorEnv, ToGymnasiumVectorEnv, from_gymnasium, to_gymnasium
from tests.fixtures.rollouts import assert_same_rollouts, rollout

pytestmark = pytest.mark.needs_plugins


def batches(env, n=150, seed=0):
    env.action_space.seed(seed)
    return [env.action_space.sample() for _ in range(n)]


def test_gymnasium_make_vec_uses_palaestras_native_vector_env():
    ours = gymnasium.make_vec("palaestra/CartPole-v1", 4)
    assert isinstance(ours, gymnasium.vector.VectorEnv) and isinstance(ours, ToGymnasiumVectorEnv)
    assert type(ours.palaestra_env).__name__ == "CartPoleVectorEnv"
    assert ours.metadata["autoreset_mode"] is GymnasiumAutoresetMode.NEXT_STEP
    assert ours.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    reference = gymnasium.make_vec("CartPole-v1", 4)  # Gymnasium's own natively batched CartPole
    actions = batches(reference)
    assert_same_rollouts(rollout(ours, actions), rollout(reference, actions))


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_make_vec_sync_and_async_build_palaestra_sub_envs(mode):
    ours = gymnasium.make_vec("palaestra/Pendulum-v1", 3, vectorization_mode=mode)
    reference = gymnasium.make_vec("Pendulum-v1", 3, vectorization_mode=mode)
    actions = batches(reference, 60)
    assert_same_rollouts(rollout(ours, actions), rollout(reference, actions))
    ours.close()
    reference.close()


@pytest.mark.parametrize("autoreset", list(AutoresetMode))
def test_to_gymnasium_vector_round_trip_in_every_autoreset_mode(autoreset):
    def build():
        return palaestra.make_vec(
            "Acrobot-v1", 3, vectorization_mode="sync", vector_kwargs={"autoreset_mode": autoreset}
        )

    original, bridged = build(), FromGymnasiumVectorEnv(ToGymnasiumVectorEnv(build()))
    assert bridged.metadata["autoreset_mode"] is autoreset
    # Libraries read the attribute too (TorchRL): each side sees its own library's enum.
    gymnasium_side = ToGymnasiumVectorEnv(build())
    assert gymnasium_side.autoreset_mode is GymnasiumAutoresetMode(autoreset.value)
    assert bridged.autoreset_mode is autoreset
    actions = batches(original, 80)
    if autoreset is AutoresetMode.DISABLED:
        actions = actions[:40]  # no episode ends before 40 steps
    assert_same_rollouts(rollout(original, actions), rollout(bridged, actions))


def test_vector_adapter_passes_calls_attributes_and_generators_through():
    inner = palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync")
    envs = to_gymnasium(inner)
    envs.reset(seed=1)
    assert envs.get_attr("gravity") == (9.8, 9.8)
    envs.set_attr("gravity", [1.0, 2.0])
    assert inner.get_attr("gravity") == (1.0, 2.0)
    assert envs.call("get_wrapper_attr", "length") == (0.5, 0.5)
    assert envs.np_random_seed == inner.np_random_seed
    assert envs.single_observation_space == to_gymnasium(inner.single_observation_space)
    assert isinstance(envs.observation_space, gymnasium.spaces.Box) and envs.observation_space.shape == (2, 4)
    envs.close()
    assert inner.closed and envs.closed


def test_from_gymnasium_vector_env_under_palaestra_vector_wrappers():
    gym_envs = gymnasium.make_vec("CartPole-v1", 3, vectorization_mode="sync")
    ours = palaestra.wrappers.vector.RecordEpisodeStatistics(from_gymnasium(gym_envs))
    reference = palaestra.wrappers.vector.RecordEpisodeStatistics(
        palaestra.make_vec("CartPole-v1", 3, vectorization_mode="sync")
    )
    actions = batches(reference, 100)
    seen, expected = rollout(ours, actions), rollout(reference, actions)
    for a, b in zip(seen, expected, strict=True):  # episode times differ; returns and lengths do not
        for info in (a[-1], b[-1]):
            info.get("episode", {}).pop("t", None)
    assert_same_rollouts(seen, expected)


def test_vector_adapters_refuse_the_wrong_library():
    with pytest.raises(TypeError, match="ToGymnasiumVectorEnv takes a palaestra.vector.VectorEnv"):
        ToGymnasiumVectorEnv(gymnasium.make_vec("CartPole-v1", 2))
    with pytest.raises(TypeError, match="FromGymnasiumVectorEnv takes a gymnasium.vector.VectorEnv"):
        FromGymnasiumVectorEnv(palaestra.make_vec("CartPole-v1", 2))


def test_gymnasium_vector_env_spec_becomes_a_palaestra_spec():
    envs = from_gymnasium(gymnasium.make_vec("CartPole-v1", 2, vectorization_mode="sync"))
    assert isinstance(envs.spec, palaestra.EnvSpec)
    assert envs.spec.id == "gymnasium/CartPole-v1" and envs.spec.kwargs["num_envs"] == 2
    assert np.array_equal(
        envs.reset(seed=0)[0],
        palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync").reset(seed=0)[0],
    )


@pytest.mark.parametrize("mode", [None, "sync", "async"])
def test_palaestra_make_vec_builds_gymnasium_envs(mode):
    ours = palaestra.make_vec("gymnasium/CartPole-v1", 3, vectorization_mode=mode)
    reference = gymnasium.make_vec("CartPole-v1", 3, vectorization_mode=mode)
    if mode is None:  # Gymnasium's own natively batched CartPole, through the bridge
        assert isinstance(ours, FromGymnasiumVectorEnv)
    actions = batches(reference, 120)
    assert_same_rollouts(rollout(ours, actions), rollout(reference, actions))
    ours.close()
    reference.close()
