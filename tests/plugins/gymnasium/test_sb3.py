"""Stable-Baselines3 on palaestra: its env checker, identical PPO runs, and the VecEnv adapter."""

import os
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.vector import AutoresetMode
from palaestra_gymnasium import to_gymnasium
from tests.fixtures.compare import assert_same_tree
from tests.fixtures.rollouts import palaestra_ids

pytestmark = [pytest.mark.needs_plugins, pytest.mark.extras]
sb3 = pytest.importorskip(
    "stable_baselines3", reason="Stable-Baselines3 (and torch) install with pip outside uv; see .ci/run"
)
from stable_baselines3.common.env_checker import check_env as sb3_check_env  # noqa: E402
from stable_baselines3.common.logger import KVWriter, Logger  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from palaestra_gymnasium.sb3 import SB3VecEnv, make_sb3_vec_env  # noqa: E402


def sb3_verdict(env):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SB3's advice (e.g. "normalize the action space") is not an error
        try:
            sb3_check_env(env, warn=True, skip_render_check=True)
        except AssertionError as e:
            return str(e)
        finally:
            env.close()
    return "passed"


# Gymnasium's own BipedalWalker returns np.float32 rewards, which SB3's checker refuses;
# palaestra returns the same type (so sums in user code give the same numbers).
REFUSED_AS_GYMNASIUMS = {"BipedalWalker-v3", "BipedalWalkerHardcore-v3"}


@pytest.mark.parametrize("env_id", palaestra_ids())
def test_sb3s_check_env_passes_or_gives_gymnasiums_verdict(env_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = sb3_verdict(to_gymnasium(palaestra.make(env_id)))
    if env_id not in REFUSED_AS_GYMNASIUMS:
        assert ours == "passed"
    else:
        assert ours == "The reward returned by `step()` must be a float"
        assert sb3_verdict(gymnasium.make(env_id)) == ours


class Recorder(KVWriter):
    """Keeps every value SB3 logs, except wall-clock ones."""

    def __init__(self):
        self.rows = []

    def write(self, key_values, key_excluded, step=0):
        self.rows.append({k: v for k, v in key_values.items() if not k.startswith("time/")})

    def close(self):
        pass


def train_ppo(env):
    from stable_baselines3 import PPO

    recorder = Recorder()
    model = PPO("MlpPolicy", env, n_steps=512, batch_size=64, n_epochs=4, seed=0, device="cpu")
    model.set_logger(Logger(None, [recorder]))
    model.learn(2048)
    returns = [(info["r"], info["l"]) for info in model.ep_info_buffer]
    weights = {k: v.numpy() for k, v in model.policy.state_dict().items()}
    return returns, recorder.rows, weights


def test_ppo_on_palaestra_cartpole_is_the_same_run_as_on_gymnasiums():
    ours = train_ppo(to_gymnasium(palaestra.make("CartPole-v1")))
    reference = train_ppo(gymnasium.make("CartPole-v1"))
    assert len(ours[0]) > 20  # several episodes finished
    assert ours[0] == reference[0]  # every episode's return and length
    assert ours[1] == reference[1]  # every logged loss, KL, clip fraction, ...
    assert_same_tree(ours[2], reference[2], "policy weights")


def steps_of(venv, seed, actions):
    venv.seed(seed)
    seen = [venv.reset()]
    for action in actions:
        obs, rewards, dones, infos = venv.step(action)
        seen.append((obs, rewards, dones, tuple(infos)))
    return seen


def same_steps(a, b):
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        if isinstance(x, tuple):
            x, y = (*x[:3], tuple(dict(i) for i in x[3])), (*y[:3], tuple(dict(i) for i in y[3]))
        assert_same_tree(x, y, f"step {k}")


@pytest.mark.parametrize(
    ("env_id", "mode"),
    [
        ("CartPole-v1", "sync"),
        ("CartPole-v1", "async"),
        ("CartPole-v1", None),  # sync: its batched env shares one generator (Gymnasium's does too)
        ("MountainCar-v0", None),
        ("Acrobot-v1", None),
    ],
)
def test_the_vec_env_adapter_steps_as_sb3s_own_dummy_vec_env(env_id, mode):
    ours = make_sb3_vec_env(env_id, 3, vectorization_mode=mode, monitor=False)
    reference = DummyVecEnv([lambda: gymnasium.make(env_id)] * 3)
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, int(reference.action_space.n), 3) for _ in range(520)]
    seen, expected = steps_of(ours, 5, actions), steps_of(reference, 5, actions)
    assert any(step[2].any() for step in seen[1:]), "no episode ended: terminal observations untested"
    same_steps(seen, expected)
    assert [dict(i) for i in ours.reset_infos] == [dict(i) for i in reference.reset_infos]
    ours.close()


def test_episode_statistics_are_recorded_as_make_vec_env_records_them():
    """Episode returns and lengths, as make_vec_env's Monitor-wrapped envs record them.

    By default the adapter is in SB3's VecMonitor: each finished episode's info holds its
    return and length, and PPO collects them.
    """
    from stable_baselines3.common.env_util import make_vec_env

    ours = make_sb3_vec_env("CartPole-v1", 3, vectorization_mode="sync")
    reference = make_vec_env("CartPole-v1", n_envs=3)
    episodes: dict[str, list] = {"ours": [], "reference": []}
    for venv, key in ((ours, "ours"), (reference, "reference")):
        venv.seed(5)
        venv.reset()
        rng = np.random.default_rng(0)
        for _ in range(200):
            _, _, _, infos = venv.step(rng.integers(0, 2, 3))
            episodes[key] += [
                (i, info["episode"]["r"], info["episode"]["l"])
                for i, info in enumerate(infos)
                if "episode" in info
            ]
        venv.close()
    assert len(episodes["ours"]) > 10
    assert episodes["ours"] == episodes["reference"]


def test_the_default_is_the_batched_env_unless_its_sub_envs_share_a_generator():
    kinds = {
        env_id: type(make_sb3_vec_env(env_id, 2).vector_env.unwrapped).__name__
        for env_id in ("MountainCar-v0", "Acrobot-v1", "CartPole-v1")
    }
    assert kinds == {
        "MountainCar-v0": "MountainCarVectorEnv",
        "Acrobot-v1": "AcrobotVectorEnv",
        "CartPole-v1": "SyncVectorEnv",
    }
    chosen = make_sb3_vec_env("CartPole-v1", 2, vectorization_mode="vector_entry_point")
    assert type(chosen.vector_env.unwrapped).__name__ == "CartPoleVectorEnv"  # asked for: given


def test_a_vector_env_with_autoreset_disabled_works_too():
    envs = palaestra.make_vec(
        "CartPole-v1", 3, vectorization_mode="sync", vector_kwargs={"autoreset_mode": AutoresetMode.DISABLED}
    )
    ours, reference = SB3VecEnv(envs), DummyVecEnv([lambda: gymnasium.make("CartPole-v1")] * 3)
    actions = [np.array([i % 2, 1, 0]) for i in range(120)]
    same_steps(steps_of(ours, 2, actions), steps_of(reference, 2, actions))


def test_next_step_autoreset_is_refused_with_the_fix():
    with pytest.raises(
        ValueError, match=r"autoreset_mode=AutoresetMode.NEXT_STEP.*SAME_STEP \(make_sb3_vec_env does\)"
    ):
        SB3VecEnv(palaestra.make_vec("CartPole-v1", 2, vectorization_mode="sync"))
    with pytest.raises(TypeError, match="SB3VecEnv takes a palaestra.vector.VectorEnv"):
        SB3VecEnv(gymnasium.make("CartPole-v1"))


def test_attribute_access_and_methods_of_sub_envs():
    venv = make_sb3_vec_env("CartPole-v1", 3, vectorization_mode="sync")
    assert venv.get_attr("gravity") == [9.8, 9.8, 9.8]
    venv.set_attr("gravity", 1.0, indices=[1])
    assert venv.get_attr("gravity", indices=[0, 1]) == [9.8, 1.0]
    assert venv.env_method("get_wrapper_attr", "length", indices=2) == [0.5]
    assert venv.env_is_wrapped(gymnasium.Wrapper) == [False, False, False]
    native = make_sb3_vec_env("MountainCar-v0", 2)
    assert native.get_attr("render_mode") == [None, None]


def test_ppo_trains_on_a_native_batched_env():
    from stable_baselines3 import PPO

    venv = make_sb3_vec_env("MountainCar-v0", 4)
    assert type(venv.vector_env).__name__ == "MountainCarVectorEnv"
    model = PPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(512)
    assert model.num_timesteps == 512
    assert len(model.ep_info_buffer) == 0 or all(
        set(info) >= {"r", "l", "t"} for info in model.ep_info_buffer
    )
    bare = make_sb3_vec_env("MountainCar-v0", 2, monitor=False)
    assert type(bare).__name__ == "SB3VecEnv" and type(venv).__name__ == "VecMonitor"


def test_without_sb3_the_module_names_the_install_command():
    code = (
        "import sys\n"
        "sys.modules['stable_baselines3'] = None\n"
        "try:\n"
        "    import palaestra_gymnasium.sb3\n"
        "except ImportError as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=os.environ.copy()
    )
    assert out.stdout.startswith("DependencyNotInstalled") and "pip install stable-baselines3" in out.stdout
