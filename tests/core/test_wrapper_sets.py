"""Wrapper sets: registered by plugins (and the core) through a hook, applied by make and make_vec."""

import sys

import numpy as np
import pytest

import palaestra
from palaestra.error import PluginConflictError, PluginLoadError, RegistrationError, WrapperSetNotFound
from palaestra.wrappers import FrameStackObservation, NormalizeObservation, NormalizeReward
from tests.fixtures.fake_dists import GOOD_ENV, make_dist

SET_HOOKS = """
from palaestra import hookimpl


@hookimpl
def palaestra_register_envs(registrar):
    registrar.register("Counter-v0", entry_point="{pkg}.envs:CounterEnv", max_episode_steps=20)


@hookimpl
def palaestra_register_wrapper_sets(registrar):
{body}
"""


def set_plugin(site, dist, ns, body):
    pkg = dist.replace("-", "_")
    make_dist(
        site,
        dist,
        {ns: f"{pkg}._hooks"},
        {f"{pkg}._hooks": SET_HOOKS.format(pkg=pkg, body=body), f"{pkg}.envs": GOOD_ENV},
    )


STACK = """    registrar.register(
        "stack",
        [
            ("palaestra.wrappers:TimeAwareObservation", {"flatten": True}),
            ("palaestra.wrappers:FrameStackObservation", {"stack_size": 3}),
        ],
    )
"""


def wrapper_names(env):
    return [w.name for w in env.spec.additional_wrappers]


def test_make_applies_a_plugin_set_and_the_spec_rebuilds_it(site, isolated):
    set_plugin(site, "stack-sets", "ss", STACK)
    set_plugin(site, "other-sets", "os", STACK)
    env = palaestra.make("ss/Counter-v0", wrappers="ss/stack")
    assert wrapper_names(env) == ["TimeAwareObservation", "FrameStackObservation"]
    assert env.observation_space.shape == (3, 2)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (3, 2)
    rebuilt = palaestra.make(env.spec)
    assert wrapper_names(rebuilt) == wrapper_names(env)
    assert np.array_equal(rebuilt.reset(seed=5)[0], env.reset(seed=5)[0])
    assert "other_sets._hooks" not in sys.modules  # only the owning plugin was loaded


def register_image_env():
    from tests.fixtures.image_env import make_image_env_class

    palaestra.register("Image-v0", entry_point=make_image_env_class(palaestra), max_episode_steps=30)


def test_sets_apply_to_any_env_and_compose_in_order(isolated):
    register_image_env()
    env = palaestra.make("Image-v0", wrappers="normalize")
    assert isinstance(env, NormalizeReward) and isinstance(env.env, NormalizeObservation)
    both = palaestra.make("Image-v0", wrappers=["normalize", "normalize"])
    assert wrapper_names(both) == ["NormalizeObservation", "NormalizeReward"] * 2


def test_the_builtin_atari_set(isolated):
    from tests.fixtures.fake_ale import make_fake_atari_class

    palaestra.register("FakeAtari-v0", entry_point=make_fake_atari_class(palaestra))
    env = palaestra.make("FakeAtari-v0", wrappers="atari")
    assert isinstance(env, FrameStackObservation) and env.observation_space.shape == (4, 84, 84)
    assert env.reset(seed=0)[0].shape == (4, 84, 84)


def test_make_vec_applies_sets_to_every_sub_env(site, isolated):
    set_plugin(site, "stack-sets", "ss", STACK)
    for mode in ("sync", "async"):
        envs = palaestra.make_vec("ss/Counter-v0", 2, vectorization_mode=mode, wrappers="ss/stack")
        assert envs.single_observation_space.shape == (3, 2)
        obs, _ = envs.reset(seed=1)
        assert obs.shape == (2, 3, 2)
        assert envs.spec.kwargs["wrappers"] == ["ss/stack"]
        again = palaestra.make_vec(envs.spec)
        assert np.array_equal(again.reset(seed=1)[0], obs)
        envs.close()
        again.close()
    palaestra.register(
        "Batched-v0",
        entry_point="tests.fixtures.vector_envs:InfoEnv",
        vector_entry_point="palaestra.vector:SyncVectorEnv",
    )
    native = palaestra.make_vec("Batched-v0", 3, wrappers="normalize")  # sets need sub-envs: sync
    assert type(native.unwrapped).__name__ == "SyncVectorEnv"
    assert native.spec.kwargs["vectorization_mode"] == "sync"
    native.close()


def test_unknown_sets_and_bad_arguments(site, isolated):
    set_plugin(site, "broken-sets", "bs", "    raise RuntimeError('set hook exploded')\n")
    register_image_env()
    with pytest.raises(
        WrapperSetNotFound,
        match=r"Unknown wrapper set 'normalise'. Known: \[.*'normalize'.*\]. Did you mean 'normalize'?",
    ):
        palaestra.make("Image-v0", wrappers="normalise")
    with pytest.raises(PluginLoadError, match="set hook exploded"):
        palaestra.make("Image-v0", wrappers="bs/anything")
    with pytest.raises(TypeError, match="takes wrapper set names"):
        palaestra.make("Image-v0", wrappers=[NormalizeObservation])
    with pytest.raises(TypeError, match="takes a wrapper set name or a list of them, got 5"):
        palaestra.make("Image-v0", wrappers=5)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('    registrar.register("bad name", ["palaestra.wrappers:ClipAction"])', "invalid wrapper set name"),
        ('    registrar.register("empty", [])', "non-empty list of wrappers"),
        ('    registrar.register("s", ["palaestra.wrappers.ClipAction"])', "is not 'module:Class'"),
        ('    registrar.register("s", [42])', "cannot read wrapper 42"),
        ('    registrar.register("s", ["a:B"])\n    registrar.register("s", ["a:B"])', "registered twice"),
    ],
)
def test_malformed_registrations_are_refused(site, isolated, body, message):
    set_plugin(site, "bad-sets", "bad", body)
    with pytest.raises(PluginLoadError, match="palaestra_register_wrapper_sets hook raised") as info:
        palaestra.make("bad/Counter-v0")
    assert isinstance(info.value.__cause__, RegistrationError)
    assert message in str(info.value)


def test_two_distributions_cannot_own_one_set_name(isolated):
    from palaestra._discovery._discovery import PluginRecord

    host = isolated
    host.loader.commit_named(
        "Wrapper set", host.loader.wrapper_sets, PluginRecord("x", "m", "dist-a", ""), {"x/s": ()}
    )
    with pytest.raises(
        PluginConflictError, match="Wrapper set 'x/s' is registered by both dist-a and dist-b"
    ):
        host.loader.commit_named(
            "Wrapper set", host.loader.wrapper_sets, PluginRecord("x", "m", "dist-b", ""), {"x/s": ()}
        )
