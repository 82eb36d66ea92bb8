"""Minari records a bridged palaestra env as it records Gymnasium's, and makes it again on load."""

import gymnasium
import numpy as np
import pytest

minari = pytest.importorskip("minari", reason='Minari is not installed (pip install "minari[hdf5]")')
pytest.importorskip("h5py", reason='Minari stores datasets with h5py: pip install "minari[hdf5]"')

import palaestra  # noqa: E402
from palaestra_gymnasium import to_gymnasium  # noqa: E402

# Minari advises on metadata a test dataset does not need (eval_env and the like).
pytestmark = [
    pytest.mark.needs_plugins,
    pytest.mark.filterwarnings("ignore:`.*` is set to None:UserWarning"),
    # DataCollector leaves its temporary folder to the garbage collector (Minari 0.5).
    pytest.mark.filterwarnings("ignore:Implicitly cleaning up:ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]


def record(env, dataset_id, episodes=3):
    from minari import DataCollector

    collector = DataCollector(env)
    env.action_space.seed(7)
    for episode in range(episodes):
        collector.reset(seed=episode)
        while True:
            _, _, terminated, truncated, _ = collector.step(env.action_space.sample())
            if terminated or truncated:
                break
    dataset = collector.create_dataset(
        dataset_id=dataset_id,
        algorithm_name="random",
        code_permalink="tests/plugins/gymnasium/test_minari.py",
        author="palaestra tests",
        author_email="tests@example.invalid",
        description="random actions, recorded by the bridge test",
    )
    collector.close()
    return dataset


@pytest.mark.parametrize("env_id", ["CartPole-v1", "FrozenLake-v1"])
def test_a_bridged_env_records_the_same_dataset_as_gymnasiums_and_loads_back(env_id, tmp_path, monkeypatch):
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    name = env_id.split("-")[0].lower()
    ours = record(to_gymnasium(palaestra.make(env_id)), f"palaestra/{name}/random-v0")
    theirs = record(gymnasium.make(env_id), f"gymnasium/{name}/random-v0")
    assert ours.total_episodes == theirs.total_episodes == 3
    for mine, reference in zip(ours.iterate_episodes(), theirs.iterate_episodes(), strict=True):
        for field in ("observations", "actions", "rewards", "terminations", "truncations"):
            np.testing.assert_array_equal(getattr(mine, field), getattr(reference, field))
    assert ours.spec.env_spec.entry_point == f"palaestra_gymnasium.entry_points:{env_id}"
    loaded = minari.load_dataset(f"palaestra/{name}/random-v0")
    env = loaded.recover_environment()  # made again from the stored spec's JSON
    try:
        assert env.spec.id == f"palaestra/{env_id}"
        first = next(loaded.iterate_episodes())
        obs, _ = env.reset(seed=0)
        np.testing.assert_array_equal(obs, first.observations[0])
    finally:
        env.close()


def test_a_spec_of_ones_own_keeps_its_creator_object():
    spec = palaestra.spec("CartPole-v1")
    own = palaestra.EnvSpec("Mine-v0", entry_point=spec.entry_point, max_episode_steps=5)
    env = to_gymnasium(palaestra.make(own))
    assert not isinstance(env.spec.entry_point, str)  # not registered: no name to give it
