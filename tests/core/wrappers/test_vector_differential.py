"""Vector wrappers give Gymnasium 1.4.0's numbers on seeded rollouts, in each supported autoreset mode."""

import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from tests.fixtures.gridworld import make_gridworld_class
from tests.fixtures.image_env import make_image_env_class
from tests.fixtures.info_env import make_info_env_class

# Uses the reference suites' envs (CartPole-v1, ...): needs the plugins installed.
pytestmark = pytest.mark.needs_plugins

CLASSES = {
    lib: {
        "grid": make_gridworld_class(lib),
        "image": make_image_env_class(lib),
        "info": make_info_env_class(lib),
    }
    for lib in (palaestra, gymnasium)
}
NEXT, SAME = "NEXT_STEP", "SAME_STEP"


def build(lib, base, mode, n=3):
    autoreset = lib.vector.AutoresetMode[mode]
    if base in CLASSES[lib]:
        cls = CLASSES[lib][base]
        fns = [
            (
                lambda c=cls, i=i: (
                    lib.wrappers.TimeLimit(c(i), 30) if base == "info" else lib.wrappers.TimeLimit(c(), 30)
                )
            )
            for i in range(n)
        ]
        return lib.vector.SyncVectorEnv(fns, autoreset_mode=autoreset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lib.make_vec(base, n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": autoreset})


def vw(lib):
    return lib.wrappers.vector


CASES = {
    "TransformObservation": (
        "CartPole-v1",
        (NEXT,),
        lambda lib, e: vw(lib).TransformObservation(e, lambda o: o * 2),
    ),
    "FilterObservation": ("grid", (NEXT,), lambda lib, e: vw(lib).FilterObservation(e, ["target"])),
    "FlattenObservation": ("grid", (NEXT,), lambda lib, e: vw(lib).FlattenObservation(e)),
    "FlattenObservation-tuple": ("Blackjack-v1", (NEXT,), lambda lib, e: vw(lib).FlattenObservation(e)),
    "GrayscaleObservation": ("image", (NEXT,), lambda lib, e: vw(lib).GrayscaleObservation(e, keep_dim=True)),
    "ResizeObservation": ("image", (NEXT,), lambda lib, e: vw(lib).ResizeObservation(e, (12, 16))),
    "ReshapeObservation": ("image", (NEXT,), lambda lib, e: vw(lib).ReshapeObservation(e, (24, 96))),
    "RescaleObservation": (
        "Pendulum-v1",
        (NEXT,),
        lambda lib, e: vw(lib).RescaleObservation(e, np.float32(0), np.float32(1)),
    ),
    "DtypeObservation": ("CartPole-v1", (NEXT,), lambda lib, e: vw(lib).DtypeObservation(e, np.float64)),
    "NormalizeObservation": ("Pendulum-v1", (NEXT,), lambda lib, e: vw(lib).NormalizeObservation(e)),
    "TransformAction": (
        "Pendulum-v1",
        (NEXT, SAME),
        lambda lib, e: vw(lib).TransformAction(e, lambda a: a * 0.5),
    ),
    "ClipAction": ("Pendulum-v1", (NEXT, SAME), lambda lib, e: vw(lib).ClipAction(e)),
    "RescaleAction": (
        "image",
        (NEXT, SAME),
        lambda lib, e: vw(lib).RescaleAction(e, np.float32(-5), np.float32(5)),
    ),
    "TransformReward": (
        "CartPole-v1",
        (NEXT, SAME),
        lambda lib, e: vw(lib).TransformReward(e, lambda r: r * 2 - 1),
    ),
    "ClipReward": ("image", (NEXT, SAME), lambda lib, e: vw(lib).ClipReward(e, -2.0, 3.0)),
    "NormalizeReward": ("image", (NEXT, SAME), lambda lib, e: vw(lib).NormalizeReward(e, gamma=0.9)),
    "RecordEpisodeStatistics": (
        "info",
        (NEXT, SAME),
        lambda lib, e: vw(lib).RecordEpisodeStatistics(e, 4, "stats"),
    ),
    "DictInfoToList": ("info", (NEXT, SAME), lambda lib, e: vw(lib).DictInfoToList(e)),
    "DictInfoToList-stats": (
        "info",
        (NEXT,),
        lambda lib, e: vw(lib).DictInfoToList(vw(lib).RecordEpisodeStatistics(e, stats_key="stats")),
    ),
}
PARAMS = [(name, mode) for name, (_, modes, _) in sorted(CASES.items()) for mode in modes]


def compare(a, b, where):
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), f"{where}: keys {list(a)} vs {list(b)}"
        for key in a:
            compare(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            compare(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), f"{where}: {type(b)}"
        assert a.dtype == b.dtype and a.shape == b.shape, f"{where}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        if a.dtype == object:
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                compare(x, y, f"{where}[{i}]")
        else:
            assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), f"{where}: {a} vs {b}"
    else:
        assert type(a).__name__ == type(b).__name__ and (a == b or a is b), f"{where}: {a!r} vs {b!r}"


def drop_times(value):
    """RecordEpisodeStatistics' wall-clock ``t`` differs run to run: blank it out."""
    if isinstance(value, dict):
        return {k: (None if k == "t" else drop_times(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [drop_times(v) for v in value]
    return value


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("name", "mode"), PARAMS)
def test_vector_wrapper_rollouts_match_gymnasium(name, mode):
    base, _, wrap = CASES[name]
    ours, ref = wrap(palaestra, build(palaestra, base, mode)), wrap(gymnasium, build(gymnasium, base, mode))
    assert repr(ours.single_observation_space) == repr(ref.single_observation_space)
    assert repr(ours.observation_space) == repr(ref.observation_space)
    assert repr(ours.action_space) == repr(ref.action_space)
    ref.action_space.seed(5)
    for seed in (1, 2):
        compare(drop_times(ours.reset(seed=seed)), drop_times(ref.reset(seed=seed)), f"{name} reset")
        for t in range(40):
            action = ref.action_space.sample()
            a, b = ours.step(action), ref.step(action)
            for k in range(5):
                compare(drop_times(a[k]), drop_times(b[k]), f"{name} {mode} seed={seed} t={t} [{k}]")
    ours.close()
    ref.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("mode", [NEXT, SAME])
def test_episode_statistics_queues_match_gymnasium(mode):
    ours = vw(palaestra).RecordEpisodeStatistics(build(palaestra, "info", mode), 5, "stats")
    ref = vw(gymnasium).RecordEpisodeStatistics(build(gymnasium, "info", mode), 5, "stats")
    for env in (ours, ref):
        env.reset(seed=3)
        for _ in range(30):
            env.step(np.array([1, 2, 0]))
    assert ours.episode_count == ref.episode_count > 5
    assert list(ours.return_queue) == list(ref.return_queue)
    assert list(ours.length_queue) == list(ref.length_queue)
    assert len(ours.time_queue) == 5


def test_episode_statistics_partial_reset_restarts_only_masked_envs():
    env = vw(palaestra).RecordEpisodeStatistics(build(palaestra, "info", "DISABLED"), stats_key="stats")
    env.reset(seed=0)
    env.step(np.zeros(3, dtype=np.int64))
    mask = np.array([True, False, False])
    options = {"reset_mask": mask}
    env.reset(options=options)
    assert env.episode_lengths.tolist() == [0, 1, 1]
    assert options == {"reset_mask": mask}  # the caller's options are left alone
    with pytest.raises(TypeError, match="must be a numpy array"):
        env.reset(options={"reset_mask": [True, True, True]})


def test_episode_statistics_refuses_to_overwrite_an_info_key():
    env = vw(palaestra).RecordEpisodeStatistics(build(palaestra, "info", NEXT), stats_key="episode")
    env.reset(seed=0)

    def step_until_an_episode_ends():
        for _ in range(12):
            env.step(np.zeros(3, dtype=np.int64))

    with pytest.raises(
        ValueError, match="key 'episode' but this key already exists in info.*another `stats_key`"
    ):
        step_until_an_episode_ends()


def test_dict_info_to_list_names_a_malformed_key():
    env = vw(palaestra).DictInfoToList(build(palaestra, "CartPole-v1", NEXT))
    with pytest.raises(ValueError, match=r"info\['bad'\] has length 2, expected one entry per sub-env \(3\)"):
        env._split({"bad": np.zeros(2)})
    with pytest.raises(TypeError, match="info to be a dict"):
        env._split([{}, {}, {}])


def test_normalize_observation_refuses_partial_resets_and_bad_epsilon():
    env = build(palaestra, "Pendulum-v1", "DISABLED")
    with pytest.raises(
        palaestra.error.InvalidBound,
        match=r"^`epsilon` should be strictly positive. Received 0 \(NormalizeObservation\)$",
    ):
        vw(palaestra).NormalizeObservation(env, epsilon=0)
    wrapped = vw(palaestra).NormalizeObservation(env)
    wrapped.reset(seed=0)
    with pytest.raises(ValueError, match="does not support partial resets"):
        wrapped.reset(options={"reset_mask": np.array([True, False, True])})
    with pytest.raises(
        palaestra.error.InvalidBound,
        match=r"^`gamma` should be in the interval \[0, 1\]. Received 1.5 \(NormalizeReward\)$",
    ):
        vw(palaestra).NormalizeReward(env, gamma=1.5)


def test_normalize_observation_needs_a_box():
    env = build(palaestra, "grid", NEXT)
    with pytest.raises(TypeError, match="FlattenObservation"):
        vw(palaestra).NormalizeObservation(env)


def test_frozen_statistics_stop_updating():
    env = vw(palaestra).NormalizeObservation(build(palaestra, "Pendulum-v1", NEXT))
    env.reset(seed=0)
    env.update_running_mean = False
    count = env.obs_rms.count
    env.step(env.action_space.sample())
    assert env.obs_rms.count == count and env.update_running_mean is False


def test_observation_wrappers_refuse_same_step_autoreset():
    env = build(palaestra, "CartPole-v1", SAME)
    with pytest.raises(ValueError, match="NEXT_STEP or DISABLED"):
        vw(palaestra).FlattenObservation(env)


def test_vectorized_spaces_follow_the_single_env_wrapper():
    env = vw(palaestra).DtypeObservation(build(palaestra, "CartPole-v1", NEXT), np.float64)
    assert env.single_observation_space.dtype == np.float64
    assert env.observation_space.shape == (3, 4) and env.observation_space.dtype == np.float64
