"""One knob for parallelism: ``vector_kwargs={"num_workers": k}`` on every vectorizer and batched env."""

import pytest

import palaestra
from palaestra import error
from palaestra.plugin import usable_cores

pytestmark = pytest.mark.needs_plugins


@pytest.mark.parametrize(
    ("env_id", "mode", "k", "expected"),
    [
        ("Hopper-v5", None, 2, 2),  # MuJoCo's threads
        ("Hopper-v5", None, 9, 3),  # never more than sub-envs
        ("LunarLander-v3", None, 2, 2),  # the Box2D blocks' worker processes
        ("CartPole-v1", "async", 2, 2),  # AsyncVectorEnv's worker processes
        ("CartPole-v1", "sync", 1, 1),
        ("CartPole-v1", None, 1, 1),  # array operations in the calling thread
    ],
)
def test_every_vectorizer_takes_num_workers(env_id, mode, k, expected):
    envs = palaestra.make_vec(env_id, 3, vectorization_mode=mode, vector_kwargs={"num_workers": k})
    assert envs.num_workers == expected
    envs.reset(seed=0)
    envs.close()


def test_the_default_is_the_cores_this_process_may_use_at_most_one_per_sub_env():
    envs = palaestra.make_vec("Hopper-v5", 64)
    assert envs.num_workers == min(usable_cores(), 64)
    envs.close()
    envs = palaestra.make_vec("CartPole-v1", 1, vectorization_mode="async")
    assert envs.num_workers == 1
    envs.close()


def test_an_env_that_steps_in_one_thread_says_the_knob_has_no_effect():
    with pytest.warns(
        UserWarning,
        match=r"CartPoleVectorEnv steps all its sub-envs in the calling thread.*num_workers=4 has no effect",
    ):
        envs = palaestra.make_vec("CartPole-v1", 8, vector_kwargs={"num_workers": 4})
    assert envs.num_workers == 1
    envs.close()


def test_sync_refuses_more_than_one_worker_and_names_async():
    with pytest.raises(
        error.InvalidEnvArgumentValue,
        match=r"SyncVectorEnv steps its sub-envs one after another.*"
        r"vectorization_mode='async', vector_kwargs=\{'num_workers': 2\}",
    ):
        palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync", vector_kwargs={"num_workers": 2})


@pytest.mark.parametrize("bad", [0, -2, 1.5, True, "4"])
def test_bad_worker_counts_are_named(bad):
    with pytest.raises(
        error.InvalidEnvArgumentValue,
        match=rf"CartPoleVectorEnv: num_workers must be a positive integer .*got {bad!r}",
    ):
        palaestra.make_vec("CartPole-v1", 2, vector_kwargs={"num_workers": bad})


def test_other_vector_kwargs_of_a_batched_env_keep_gymnasiums_refusal():
    with pytest.raises(
        error.Error,
        match=r"Custom vector environment can be passed arguments only through kwargs and "
        r"`vector_kwargs` is not empty \(\{'copy': False\}\)",
    ):
        palaestra.make_vec("CartPole-v1", 2, vector_kwargs={"num_workers": 1, "copy": False})


def test_atari_takes_the_knob_as_ales_threads():
    pytest.importorskip("ale_py", reason="the Atari plugin needs ale-py")
    envs = palaestra.make_vec("ALE/Pong-v5", 2, vector_kwargs={"num_workers": 1})
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (2, 4, 84, 84)
    envs.close()
