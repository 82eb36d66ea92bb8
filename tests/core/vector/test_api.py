"""Vector env API: attributes, calls, modes, make_vec and vectorizer plugins."""

import functools

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra import spaces
from palaestra.error import PluginLoadError, ResetNeeded, VectorizerNotFound
from palaestra.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv
from palaestra.vector.utils import CloudpickleWrapper
from tests.fixtures.fake_dists import hooks_source, make_dist
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED, CrashEnv, InfoEnv

# Uses the reference suites' envs (CartPole-v1, ...): needs the plugins installed.
pytestmark = pytest.mark.needs_plugins

BUILDERS = {
    "sync": lambda fns, **kw: SyncVectorEnv(fns, **kw),
    "async": lambda fns, **kw: AsyncVectorEnv(fns, num_workers=2, **kw),
}


@pytest.fixture(params=sorted(BUILDERS))
def build(request):
    made = []

    def factory(n=4, **kwargs):
        env = BUILDERS[request.param]([functools.partial(InfoEnv, index=i) for i in range(n)], **kwargs)
        made.append(env)
        return env

    yield factory
    for env in made:
        env.close()


def test_call_get_set_attr_and_render(build):
    env = build(render_mode=None) if False else build()
    env.reset(seed=0)
    assert env.call("add", 10, b=1) == (11, 12, 13, 14)
    assert env.get_attr("label") == ("base",) * 4
    env.set_attr("label", ["a", "b", "c", "d"])
    assert env.get_attr("label") == ("a", "b", "c", "d")
    env.set_attr("label", "same")
    assert env.get_attr("label") == ("same",) * 4
    with pytest.raises(ValueError, match="Got `2` values for 4 environments"):
        env.set_attr("label", [1, 2])
    frames = env.render()
    assert len(frames) == 4 and frames[0].shape == (4, 4, 3)
    assert env.np_random_seed == (0, 1, 2, 3)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


def test_reset_mask_validation(build):
    env = build(autoreset_mode=AutoresetMode.DISABLED)
    env.reset(seed=0)
    with pytest.raises(TypeError, match="must be a numpy array"):
        env.reset(options={"reset_mask": [True, False, True, False]})
    with pytest.raises(ValueError, match="at least one True"):
        env.reset(options={"reset_mask": np.zeros(4, dtype=np.bool_)})
    with pytest.raises(ValueError, match=r"shape `\(4,\)`"):
        env.reset(options={"reset_mask": np.ones(3, dtype=np.bool_)})
    options = {"reset_mask": np.array([True, False, False, False])}
    env.reset(options=options)
    assert "reset_mask" in options  # the caller's dict is not modified


@SUB_ENV_ERRORS_LOGGED
def test_disabled_mode_refuses_to_step_a_finished_env(build):
    env = build(autoreset_mode="Disabled")
    env.reset(seed=0)
    finished = False
    for _ in range(6):
        _, _, terminated, _, _ = env.step(np.ones(4, dtype=np.int64))
        if terminated.any():
            finished = True
            break
    assert finished
    with pytest.raises(RuntimeError, match="autoreset_mode is DISABLED"):
        env.step(np.ones(4, dtype=np.int64))


def test_copy_false_returns_the_shared_buffer(build):
    env = build(copy=False)
    obs1, _ = env.reset(seed=0)
    obs2, *_ = env.step(np.zeros(4, dtype=np.int64))
    assert obs1 is obs2 or np.shares_memory(obs1, obs2)
    env_copy = build(copy=True)
    a, _ = env_copy.reset(seed=0)
    b, *_ = env_copy.step(np.zeros(4, dtype=np.int64))
    assert not np.shares_memory(a, b)


def test_invalid_autoreset_mode_names_the_valid_ones():
    with pytest.raises(ValueError, match="NextStep"):
        SyncVectorEnv([InfoEnv], autoreset_mode="sometimes")


def test_observation_mode_different_and_custom():
    class Bounded(InfoEnv):
        def __init__(self, high):
            super().__init__()
            self.observation_space = spaces.Box(-high, high, (2,), np.float32)

    fns = [functools.partial(Bounded, high=h) for h in (1.0, 2.0)]
    for cls in (SyncVectorEnv, functools.partial(AsyncVectorEnv, num_workers=2)):
        env = cls(fns, observation_mode="different")
        assert np.array_equal(env.observation_space.high, [[1, 1], [2, 2]])
        env.close()
        with pytest.raises(RuntimeError, match="observation spaces are not equivalent.*Sub-env 1 differs"):
            cls(fns)
    single = spaces.Box(-5, 5, (2,), np.float32)
    custom = SyncVectorEnv(fns, observation_mode=(spaces.Box(-5, 5, (2, 2), np.float32), single))
    assert custom.single_observation_space is single


def test_async_without_shared_memory_supports_any_observation_space():
    class TextEnv(InfoEnv):
        def __init__(self, index=0):
            super().__init__(index=index)
            self.observation_space = spaces.Text(5, charset="ab")

        def _obs(self):
            return "ab"[: 1 + self.t % 2]

    for shared_memory in (False, True):
        env = AsyncVectorEnv([TextEnv] * 2, shared_memory=shared_memory)
        obs, _ = env.reset(seed=0)
        assert isinstance(obs, tuple) and all(o in ("a", "ab") for o in obs)
        env.close()


@pytest.mark.filterwarnings("ignore:os.fork:RuntimeWarning")  # the local worker needs fork, JAX or not
def test_custom_worker_and_max_concurrency():
    from palaestra.vector import async_worker

    calls = []

    def my_worker(conn, parent_conn, config):
        calls.append(config.first_index)  # runs in the child; only proves the hook is used
        async_worker(conn, parent_conn, config)

    env = AsyncVectorEnv([InfoEnv] * 4, worker=my_worker, max_concurrency=1, num_workers=2, context="fork")
    obs, _ = env.reset(seed=0)
    assert obs.shape == (4, 2)
    env.close()
    with pytest.raises(ValueError, match="max_concurrency"):
        AsyncVectorEnv([InfoEnv], max_concurrency=0)
    with pytest.raises(ValueError, match="Invalid context"):
        AsyncVectorEnv([InfoEnv], context="teleport")


def test_info_array_dtype_comes_from_the_first_reporting_env():
    env = SyncVectorEnv([functools.partial(InfoEnv, index=i) for i in range(4)])
    env.reset(seed=0)
    _, _, _, _, infos = env.step(np.zeros(4, dtype=np.int64))
    assert infos["odd"].dtype == np.float32 and list(infos["_odd"]) == [False, True, False, True]
    assert infos["action"].dtype == np.int64


def test_make_vec_modes_and_spec():
    env = palaestra.make_vec("CartPole-v1", num_envs=3)
    assert type(env).__name__ == "CartPoleVectorEnv"  # the spec's vector_entry_point by default
    env.close()
    env = palaestra.make_vec("CartPole-v1", num_envs=3, vectorization_mode="sync")
    assert isinstance(env, SyncVectorEnv)
    assert env.spec.kwargs == {"num_envs": 3, "vectorization_mode": "sync"}
    env.close()
    palaestra.register("InfoOnly-v0", entry_point="tests.fixtures.vector_envs:InfoEnv")
    try:
        assert isinstance(palaestra.make_vec("InfoOnly-v0", 2), SyncVectorEnv)
        with pytest.raises(palaestra.error.Error, match="doesn't have a vector entry point"):
            palaestra.make_vec("InfoOnly-v0", vectorization_mode="vector_entry_point")
    finally:
        del palaestra.registry["InfoOnly-v0"]
    env = palaestra.make_vec(
        "CartPole-v1",
        2,
        vectorization_mode=palaestra.VectorizeMode.ASYNC,
        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
    )
    assert isinstance(env, AsyncVectorEnv) and env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    env.close()
    with pytest.raises(VectorizerNotFound, match="Did you mean 'async'"):
        palaestra.make_vec("CartPole-v1", vectorization_mode="asink")
    # A ValueError, as Gymnasium raises, and a KeyError (a lookup that failed).
    with pytest.raises(ValueError, match="Invalid vectorization mode") as caught:
        palaestra.make_vec("CartPole-v1", vectorization_mode="bogus")
    assert isinstance(caught.value, KeyError)
    with pytest.raises(ValueError, match="Invalid vectorization mode") as theirs:
        gymnasium.make_vec("CartPole-v1", vectorization_mode="bogus")
    assert str(caught.value).strip('"').startswith(f"{theirs.value}. Plugin vectorizers are named")
    with pytest.raises(ValueError, match="Did you mean 'vector_entry_point'"):
        palaestra.make_vec("CartPole-v1", vectorization_mode="vector_entrypoint")
    with pytest.raises(palaestra.error.Error, match="with the wrappers argument"):
        palaestra.make_vec("CartPole-v1", wrappers=[lambda e: e])
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        palaestra.make_vec("CartPole-v1", num_envs=0)


def test_make_vec_applies_wrappers_and_kwargs():
    env = palaestra.make_vec(
        "Pendulum-v1",
        2,
        vectorization_mode="sync",
        wrappers=[lambda e: palaestra.wrappers.TimeLimit(e, 3)],
        g=2.0,
    )
    assert env.get_attr("g") == (2.0, 2.0)
    env.reset(seed=0)
    for _ in range(2):
        env.step(np.zeros((2, 1), np.float32))
    assert env.step(np.zeros((2, 1), np.float32))[3].all()
    env.close()


def test_plugin_vectorizer_loads_only_its_plugin(site, isolated):
    import sys

    make_dist(
        site,
        "vec-plugin",
        {"vp": "vec_plugin._hooks"},
        {
            "vec_plugin._hooks": "from palaestra import hookimpl\n\n\n@hookimpl\ndef palaestra_register_vectorizers(registrar):\n"
            "    registrar.register('serial', 'vec_plugin.impl:build')\n",
            "vec_plugin.impl": "from palaestra.vector import SyncVectorEnv\n\n\ndef build(env_fns, **kw):\n"
            "    env = SyncVectorEnv(env_fns, **kw)\n    env.built_by = 'vp'\n    return env\n",
        },
    )
    make_dist(site, "other-vec", {"ov": "other_vec._hooks"}, {"other_vec._hooks": hooks_source("")})
    make_dist(
        site, "bad-vec", {"bv": "bad_vec._hooks"}, {"bad_vec._hooks": "raise ImportError('no engine')\n"}
    )
    palaestra.register("Info-v0", entry_point="tests.fixtures.vector_envs:InfoEnv")
    env = palaestra.make_vec("Info-v0", 2, vectorization_mode="vp/serial")
    assert env.built_by == "vp" and env.spec.kwargs["vectorization_mode"] == "vp/serial"
    assert "other_vec._hooks" not in sys.modules
    with pytest.raises(VectorizerNotFound, match="vp/serial"):
        palaestra.make_vec("Info-v0", 2, vectorization_mode="vp/parallel")
    with pytest.raises(PluginLoadError, match="no engine"):
        palaestra.make_vec("Info-v0", 2, vectorization_mode="bv/x")


def test_vector_env_base_and_wrappers():
    from palaestra.vector import VectorActionWrapper, VectorObservationWrapper, VectorRewardWrapper

    class Double(VectorObservationWrapper):
        def observations(self, observations):
            return observations * 2

    class Neg(VectorRewardWrapper):
        def rewards(self, rewards):
            return -rewards

    class Zero(VectorActionWrapper):
        def actions(self, actions):
            return np.zeros_like(actions)

    base = SyncVectorEnv([functools.partial(InfoEnv, index=i) for i in range(2)])
    env = Zero(Neg(Double(base)))
    obs, _ = env.reset(seed=0)
    assert np.array_equal(obs, base.reset(seed=0)[0] * 2)
    _, rewards, *_ = env.step(np.ones(2, dtype=np.int64))
    assert np.array_equal(rewards, [0.0, 0.0]) and env.num_envs == 2 and env.unwrapped is base
    assert repr(env).startswith("<Zero, <Neg")
    with pytest.raises(TypeError, match="Expected env to be a `palaestra.vector.VectorEnv`"):
        Double(object())
    with pytest.raises(ValueError, match="NEXT_STEP or DISABLED"):
        Double(SyncVectorEnv([InfoEnv], autoreset_mode="SameStep"))
    assert isinstance(base, VectorEnv)


def test_cloudpickle_wrapper_round_trip():
    import pickle

    wrapped = CloudpickleWrapper(lambda: 41 + 1)
    assert pickle.loads(pickle.dumps(wrapped))() == 42


def test_batched_vector_env_base_bookkeeping():
    from palaestra.vector import BatchedVectorEnv

    env = BatchedVectorEnv(3, max_episode_steps=2, autoreset_mode="Disabled")
    with pytest.raises(
        ResetNeeded, match=r"^Cannot call env.step\(\) before calling env.reset\(\) \(BatchedVectorEnv"
    ):
        env.check_step_allowed()
    mask, options = env.begin_reset(5, {"reset_mask": np.array([True, False, True]), "x": 1})
    assert mask.tolist() == [True, False, True] and options == {"x": 1}
    assert env.generators[1] is None and env.rng(1) is env.generators[1]
    assert env.rng(0).bit_generator.state == palaestra.utils.seeding.np_random(5)[0].bit_generator.state
    assert env.rng(2).bit_generator.state == palaestra.utils.seeding.np_random(7)[0].bit_generator.state
    env.steps += 2
    assert env.truncations().tolist() == [True] * 3
    env.end_step(np.array([False, True, False]))
    with pytest.raises(RuntimeError, match=r"Sub-envs \[1\] ended"):
        env.check_step_allowed()
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        BatchedVectorEnv(0)


@pytest.mark.parametrize("method", ["call", "get_attr", "set_attr"])
def test_natively_batched_envs_say_how_to_get_sync_sub_env_access(method):
    """Gymnasium gives a SyncVectorEnv for Acrobot; code calling into its sub-envs learns the fix."""
    env = palaestra.make_vec("Acrobot-v1", 2)
    assert not hasattr(env, method)
    with pytest.raises(
        AttributeError, match=rf"AcrobotVectorEnv has no {method}\(\).*vectorization_mode='sync'"
    ):
        getattr(env, method)
    with pytest.raises(AttributeError, match="'AcrobotVectorEnv' object has no attribute 'bogus'"):
        env.bogus  # noqa: B018
    env.close()


def test_sync_errors_name_the_sub_env_that_raised():
    envs = SyncVectorEnv(
        [functools.partial(CrashEnv, i, crash_index=2, crash_at=2, where="reset") for i in range(3)]
    )
    with pytest.raises(KeyError, match="bad reset seed in env 2") as caught:
        envs.reset(seed=[0, 1, 99])
    assert caught.value.sub_env_index == 2
    envs = SyncVectorEnv([functools.partial(CrashEnv, i, crash_index=1, crash_at=2) for i in range(3)])
    envs.reset(seed=0)
    envs.step(np.zeros(3, int))
    with pytest.raises(ValueError, match="env 1 exploded at step 2") as caught:
        envs.step(np.zeros(3, int))
    assert caught.value.sub_env_index == 1
    with pytest.raises(AttributeError) as caught:
        envs.call("no_such_method")
    assert caught.value.sub_env_index == 0


@pytest.mark.parametrize("mode", ["vector_entry_point", "sync", "async"])
@pytest.mark.parametrize(
    "env_id",
    ["CartPole-v1", "MountainCarContinuous-v0", "Pendulum-v1", "Acrobot-v1", "Taxi-v4", "Blackjack-v1"],
)
def test_a_batch_with_the_wrong_number_of_actions_names_both_counts(env_id, mode):
    envs = palaestra.make_vec(env_id, 4, vectorization_mode=mode)
    try:
        envs.reset(seed=0)
        envs.single_action_space.seed(0)
        for count in (3, 5):
            actions = np.stack([envs.single_action_space.sample() for _ in range(count)])
            with pytest.raises(ValueError, match=rf"\.step got {count} actions for 4 sub-environments"):
                envs.step(actions)
        # A correct batch still steps after the refusals.
        _, rewards, *_ = envs.step(envs.action_space.sample())
        assert rewards.shape == (4,)
    finally:
        envs.close()
