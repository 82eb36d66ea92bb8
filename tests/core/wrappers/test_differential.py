"""Every single-env wrapper gives Gymnasium 1.4.0's numbers on seeded rollouts."""

import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from tests.fixtures.gridworld import make_gridworld_class
from tests.fixtures.image_env import make_image_env_class

# Uses the reference suites' envs (CartPole-v1, ...): needs the plugins installed.
pytestmark = pytest.mark.needs_plugins

CLASSES = {
    lib: {"grid": make_gridworld_class(lib), "image": make_image_env_class(lib)}
    for lib in (palaestra, gymnasium)
}


def build(lib, base):
    if base in CLASSES[lib]:
        env = CLASSES[lib][base]()
        return lib.wrappers.TimeLimit(lib.wrappers.OrderEnforcing(env), 40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lib.make(base)


CASES = {
    "TransformObservation": (
        "CartPole-v1",
        lambda lib, e: lib.wrappers.TransformObservation(e, lambda o: o * 2, None),
    ),
    "FilterObservation-dict": ("grid", lambda lib, e: lib.wrappers.FilterObservation(e, ["target"])),
    "FilterObservation-tuple": ("Blackjack-v1", lambda lib, e: lib.wrappers.FilterObservation(e, [2, 0])),
    "FlattenObservation": ("grid", lambda lib, e: lib.wrappers.FlattenObservation(e)),
    "FlattenObservation-tuple": ("Blackjack-v1", lambda lib, e: lib.wrappers.FlattenObservation(e)),
    "GrayscaleObservation": ("image", lambda lib, e: lib.wrappers.GrayscaleObservation(e)),
    "GrayscaleObservation-keep": (
        "image",
        lambda lib, e: lib.wrappers.GrayscaleObservation(e, keep_dim=True),
    ),
    "ReshapeObservation": ("image", lambda lib, e: lib.wrappers.ReshapeObservation(e, (24, 96))),
    "RescaleObservation": (
        "Pendulum-v1",
        lambda lib, e: lib.wrappers.RescaleObservation(e, np.float32(0), np.float32(1)),
    ),
    "DtypeObservation-box": ("CartPole-v1", lambda lib, e: lib.wrappers.DtypeObservation(e, np.float64)),
    "DtypeObservation-discrete": (
        "FrozenLake-v1",
        lambda lib, e: lib.wrappers.DtypeObservation(e, np.float32),
    ),
    "DiscretizeObservation": ("Pendulum-v1", lambda lib, e: lib.wrappers.DiscretizeObservation(e, 5)),
    "DiscretizeObservation-multi": (
        "Pendulum-v1",
        lambda lib, e: lib.wrappers.DiscretizeObservation(e, (3, 4, 5), True),
    ),
    "DelayObservation": ("CartPole-v1", lambda lib, e: lib.wrappers.DelayObservation(e, 3)),
    "TimeAwareObservation": ("CartPole-v1", lambda lib, e: lib.wrappers.TimeAwareObservation(e)),
    "TimeAwareObservation-dict": (
        "grid",
        lambda lib, e: lib.wrappers.TimeAwareObservation(e, flatten=False, normalize_time=True),
    ),
    "TimeAwareObservation-tuple": (
        "Blackjack-v1",
        lambda lib, e: lib.wrappers.TimeAwareObservation(lib.wrappers.TimeLimit(e, 10), flatten=False),
    ),
    "FrameStackObservation": ("CartPole-v1", lambda lib, e: lib.wrappers.FrameStackObservation(e, 4)),
    "FrameStackObservation-zero": (
        "grid",
        lambda lib, e: lib.wrappers.FrameStackObservation(e, 3, padding_type="zero"),
    ),
    "NormalizeObservation": ("Pendulum-v1", lambda lib, e: lib.wrappers.NormalizeObservation(e)),
    "MaxAndSkipObservation": ("image", lambda lib, e: lib.wrappers.MaxAndSkipObservation(e, 3)),
    "TransformAction": (
        "Pendulum-v1",
        lambda lib, e: lib.wrappers.TransformAction(e, lambda a: a * 0.5, None),
    ),
    "ClipAction": ("Pendulum-v1", lambda lib, e: lib.wrappers.ClipAction(e)),
    "RescaleAction": (
        "Pendulum-v1",
        lambda lib, e: lib.wrappers.RescaleAction(e, np.float32(-1), np.float32(1)),
    ),
    "RescaleAction-image": ("image", lambda lib, e: lib.wrappers.RescaleAction(e, -5.0, 5.0)),
    "DiscretizeAction": ("image", lambda lib, e: lib.wrappers.DiscretizeAction(e, 4)),
    "DiscretizeAction-multi": (
        "image",
        lambda lib, e: lib.wrappers.DiscretizeAction(e, (3, 5), multidiscrete=True),
    ),
    "StickyAction": ("CartPole-v1", lambda lib, e: lib.wrappers.StickyAction(e, 0.3, (1, 3))),
    "RepeatAction": ("CartPole-v1", lambda lib, e: lib.wrappers.RepeatAction(e, 3)),
    "TransformReward": ("CartPole-v1", lambda lib, e: lib.wrappers.TransformReward(e, lambda r: r * 2 - 1)),
    "ClipReward": ("image", lambda lib, e: lib.wrappers.ClipReward(e, -2.0, 3.0)),
    "NormalizeReward": ("Pendulum-v1", lambda lib, e: lib.wrappers.NormalizeReward(e, gamma=0.9)),
    "Autoreset": ("CartPole-v1", lambda lib, e: lib.wrappers.Autoreset(e)),
    "RecordEpisodeStatistics": ("CartPole-v1", lambda lib, e: lib.wrappers.RecordEpisodeStatistics(e, 5)),
}


def compare(a, b, where):
    if isinstance(a, dict):
        assert sorted(a) == sorted(b), where
        for key in a:
            if key == "t" and isinstance(a[key], float):
                continue  # wall-clock time of RecordEpisodeStatistics
            compare(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), where
        for x, y in zip(a, b, strict=True):
            compare(x, y, where)
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, f"{where}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), f"{where}: {a} vs {b}"
    else:
        assert a == b, f"{where}: {a!r} vs {b!r}"


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(CASES))
def test_wrapper_rollouts_match_gymnasium(name):
    base, wrap = CASES[name]
    ours, ref = wrap(palaestra, build(palaestra, base)), wrap(gymnasium, build(gymnasium, base))
    assert repr(ours.observation_space) == repr(ref.observation_space)
    assert repr(ours.action_space) == repr(ref.action_space)
    ref.action_space.seed(5)
    for seed in (1, 2):
        compare(ours.reset(seed=seed), ref.reset(seed=seed), f"{name} reset")
        for t in range(60):
            action = ref.action_space.sample()
            a, b = ours.step(action), ref.step(action)
            for k in range(5):
                compare(a[k], b[k], f"{name} seed={seed} t={t} [{k}]")
            if (a[2] or a[3]) and name != "Autoreset":
                break
    assert (
        [w.name for w in ours.spec.additional_wrappers] == [w.name for w in ref.spec.additional_wrappers]
        if (ours.spec is not None and ref.spec is not None)
        else True
    )


REGISTERED_BASES = sorted(name for name, (base, _) in CASES.items() if base not in CLASSES[palaestra])


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", REGISTERED_BASES)
def test_make_of_the_spec_rebuilds_the_wrapper_stack(name):
    base, wrap = CASES[name]
    env = wrap(palaestra, build(palaestra, base))
    rebuilt = palaestra.make(env.spec)
    assert [w.name for w in rebuilt.spec.additional_wrappers] == [
        w.name for w in env.spec.additional_wrappers
    ]
    assert rebuilt.spec.additional_wrappers[-1].kwargs == env.spec.additional_wrappers[-1].kwargs
    env.action_space.seed(3)
    compare(rebuilt.reset(seed=9), env.reset(seed=9), f"{name} reset")
    for t in range(10):
        action = env.action_space.sample()
        a, b = rebuilt.step(action), env.step(action)
        compare(a, b, f"{name} t={t}")
        if a[2] or a[3]:
            break
