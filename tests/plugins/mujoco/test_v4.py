"""MuJoCo v4: every v4 id gives Gymnasium 1.4.0's numbers; v2/v3 ids explain what replaced them."""

import pickle
import warnings

import gymnasium
import mujoco
import numpy as np
import pytest

import palaestra
from palaestra.error import DependencyNotInstalled
from palaestra_mujoco import v4

# Both libraries warn that v4 ids are out of date (v5 exists), as they should.
pytestmark = pytest.mark.filterwarnings("ignore:.*is out of date:DeprecationWarning")

V4_IDS = [
    "Ant-v4",
    "HalfCheetah-v4",
    "Hopper-v4",
    "Humanoid-v4",
    "HumanoidStandup-v4",
    "InvertedPendulum-v4",
    "InvertedDoublePendulum-v4",
    "Pusher-v4",
    "Reacher-v4",
    "Swimmer-v4",
    "Walker2d-v4",
]
VARIANTS = [
    ("Ant-v4", {"use_contact_forces": True}),
    ("Ant-v4", {"use_contact_forces": True, "terminate_when_unhealthy": False, "contact_cost_weight": 1e-3}),
    ("Ant-v4", {"exclude_current_positions_from_observation": False, "healthy_z_range": (0.3, 0.9)}),
    ("Hopper-v4", {"terminate_when_unhealthy": False, "healthy_reward": 2.0}),
    ("Walker2d-v4", {"exclude_current_positions_from_observation": False, "ctrl_cost_weight": 0.1}),
    ("Humanoid-v4", {"terminate_when_unhealthy": False, "forward_reward_weight": 2.0}),
    ("HalfCheetah-v4", {"forward_reward_weight": 2.0, "reset_noise_scale": 0.2}),
    ("Swimmer-v4", {"exclude_current_positions_from_observation": False, "ctrl_cost_weight": 0.01}),
]


def gymnasium_make(env_id, monkeypatch, **kwargs):
    """Gymnasium's env; Pusher-v4 refuses MuJoCo >= 3 there, so its check is told an older version."""
    if env_id == "Pusher-v4":
        monkeypatch.setattr(mujoco, "__version__", "2.3.7")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gymnasium.make(env_id, **kwargs)


def same(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def play_side_by_side(env_id, kwargs, monkeypatch, steps=250, seed=3):
    ref = gymnasium_make(env_id, monkeypatch, **kwargs)
    ours = palaestra.make(env_id, **kwargs)
    assert ours.observation_space.shape == ref.observation_space.shape
    (a, ia), (b, ib) = ours.reset(seed=seed), ref.reset(seed=seed)
    assert same(a, b) and ia == ib == {}
    rng = np.random.default_rng(seed)
    ended = 0
    for t in range(steps):
        action = rng.uniform(ref.action_space.low, ref.action_space.high).astype(np.float32)
        x, y = ours.step(action), ref.step(action)
        assert same(x[0], y[0]), f"{env_id} step {t}: observation"
        assert x[1] == y[1] and type(x[1]) is type(y[1]), f"{env_id} step {t}: reward {x[1]!r} vs {y[1]!r}"
        assert x[2:4] == y[2:4], f"{env_id} step {t}: flags"
        assert list(x[4]) == list(y[4]), f"{env_id} step {t}: info keys"
        assert all(same(x[4][k], y[4][k]) for k in y[4]), f"{env_id} step {t}: info"
        if x[2] or x[3]:
            ended += 1
            assert same(ours.reset()[0], ref.reset()[0])
    return ended


@pytest.mark.parametrize("env_id", V4_IDS)
def test_every_v4_id_matches_gymnasium(env_id, monkeypatch):
    play_side_by_side(env_id, {}, monkeypatch)


@pytest.mark.parametrize(
    ("env_id", "kwargs"), VARIANTS, ids=[f"{i}-{n}" for n, (i, _) in enumerate(VARIANTS)]
)
def test_v4_arguments_match_gymnasium(env_id, kwargs, monkeypatch):
    play_side_by_side(env_id, kwargs, monkeypatch, steps=150)


def test_the_healthy_reward_is_paid_on_the_terminating_step_as_v4_pays_it(monkeypatch):
    assert play_side_by_side("Hopper-v4", {}, monkeypatch, steps=300) > 0
    env = palaestra.make("Hopper-v4")
    env.reset(seed=0)
    while True:
        _, reward, terminated, _, info = env.step(np.ones(3, dtype=np.float32))
        if terminated:
            break
    assert reward > info["x_velocity"] - 0.01  # v5 would have paid no healthy reward here


@pytest.mark.parametrize("env_id", V4_IDS)
def test_registration_fields_match_gymnasium(env_id):
    ours, ref = palaestra.spec(env_id), gymnasium.spec(env_id)
    assert (ours.max_episode_steps, ours.reward_threshold) == (ref.max_episode_steps, ref.reward_threshold)


def test_pusher_v4_runs_under_current_mujoco_unlike_gymnasium():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ImportError, match="only supported on `mujoco<3`"):
            gymnasium.make("Pusher-v4")
    env = palaestra.make("Pusher-v4")
    observation, _ = env.reset(seed=0)
    assert observation.shape == (23,)
    assert env.step(env.action_space.sample())[0].shape == (23,)


@pytest.mark.parametrize("env_id", ["Ant-v3", "HalfCheetah-v2", "HumanoidStandup-v2", "Reacher-v2"])
def test_retired_ids_name_mujoco_py_and_their_successors(env_id):
    name = env_id.split("-")[0]
    with pytest.raises(DependencyNotInstalled, match=rf"mujoco-py.*Use {name}-v5 \(or {name}-v4") as info:
        palaestra.make(env_id)
    assert isinstance(info.value, ImportError)  # what Gymnasium raises, and code catches


def test_v4_takes_only_v4_arguments():
    with pytest.raises(
        TypeError, match=r"HopperEnv.__init__\(\) got an unexpected keyword argument 'xml_file'; v4 takes"
    ):
        palaestra.make("Hopper-v4", xml_file="hopper.xml")
    with pytest.raises(TypeError, match="unexpected keyword argument 'frame_skip'"):
        palaestra.make("InvertedPendulum-v4", frame_skip=3)
    env = palaestra.make("HalfCheetah-v4", render_mode="rgb_array", width=64, height=48)
    env.reset(seed=0)
    assert env.render().shape == (48, 64, 3)


def test_v4_envs_pickle_as_v4_envs():
    env = palaestra.make("Ant-v4", use_contact_forces=True).unwrapped
    clone = pickle.loads(pickle.dumps(env))
    assert type(clone) is v4.AntEnv and clone.observation_space.shape == (111,)
    assert same(clone.reset(seed=2)[0], env.reset(seed=2)[0])


@pytest.mark.parametrize("env_id", ["Hopper-v4", "Ant-v4", "Reacher-v4"])
def test_v4_batched_envs_equal_sync(env_id):
    batched = palaestra.make_vec(env_id, 3, vector_kwargs={"num_workers": 2}, max_episode_steps=40)
    sync = palaestra.make_vec(env_id, 3, vectorization_mode="sync", max_episode_steps=40)
    assert type(batched).__name__.endswith("V4VectorEnv")
    a, b = batched.reset(seed=1), sync.reset(seed=1)
    assert same(a[0], b[0])
    rng = np.random.default_rng(1)
    for _ in range(60):
        actions = rng.uniform(-1, 1, (3, *batched.single_action_space.shape)).astype(np.float32)
        x, y = batched.step(actions), sync.step(actions)
        for part in range(4):
            assert same(x[part], y[part])
        assert list(x[4]) == list(y[4])
    batched.close()
    sync.close()
