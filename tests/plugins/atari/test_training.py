"""A few thousand steps of training on Atari: CleanRL-style PPO on the batched env, and SB3's PPO.

Needs torch and Stable-Baselines3 (``.ci/run``'s extras session installs them with pip).
"""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ale_py", reason='ale-py is not installed: pip install "palaestra[atari]"')
torch = pytest.importorskip("torch", reason="torch is installed with pip outside uv (see .ci/run)")

pytestmark = [pytest.mark.extras, pytest.mark.slow, pytest.mark.needs_plugins]
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_cleanrl_style_ppo_trains_on_the_batched_atari_env():
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "cleanrl_style_ppo.py"), "--env-id", "ALE/Breakout-v5", "--num-envs", "4",
         "--num-steps", "128", "--total-timesteps", "2048", "--goal", "-1000"],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    # Random Breakout loses its five balls within a few hundred steps: episodes were finished and counted.
    found = re.search(
        r"ALE/Breakout-v5: 2048 steps in .* mean return of the last 20 episodes (\S+)", run.stdout
    )
    assert found, run.stdout
    assert 0.0 <= float(found.group(1)) < 100.0


def test_sb3_ppo_trains_on_the_batched_pong_env():
    pytest.importorskip("stable_baselines3", reason="Stable-Baselines3 is installed with pip (see .ci/run)")
    from stable_baselines3 import PPO

    from palaestra_gymnasium.sb3 import make_sb3_vec_env

    venv = make_sb3_vec_env("ALE/Pong-v5", 8)
    assert type(venv.vector_env.unwrapped).__name__ == "AtariVectorEnv"
    assert venv.observation_space.shape == (4, 84, 84)  # channels first: SB3 adds no transpose
    model = PPO("CnnPolicy", venv, n_steps=128, batch_size=256, n_epochs=1, seed=0, device="cpu")
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(2048)
    assert model.num_timesteps == 2048
    assert any(not torch.equal(a, b) for a, b in zip(before, model.policy.parameters(), strict=True))
    rewards = model.rollout_buffer.rewards
    assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}  # clipped
    assert rewards.min() == -1.0  # the opponent scored: the games really ran
    venv.close()


def test_sb3_atari_example_runs():
    pytest.importorskip("stable_baselines3", reason="Stable-Baselines3 is installed with pip (see .ci/run)")
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "sb3_ppo_atari.py"), "--env-id", "ALE/Breakout-v5", "--num-envs", "4",
         "--timesteps", "2048"],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    found = re.search(
        r"ALE/Breakout-v5: \d+ steps in .* mean return of the last (\d+) episodes (\S+)", run.stdout
    )
    assert found, run.stdout
    assert int(found.group(1)) > 0
