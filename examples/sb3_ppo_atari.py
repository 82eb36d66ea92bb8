"""Stable-Baselines3 PPO on Atari, on palaestra's natively batched ALE env.

``make_sb3_vec_env("ALE/Pong-v5", 8)`` is one ``AtariVectorEnv`` (ALE's C++ vector
interface, every game stepped on native threads) behind SB3's ``VecEnv`` interface. Its
observations are already preprocessed (4 stacked 84x84 grayscale frames, clipped rewards,
no-op starts), so the policy is ``CnnPolicy`` as it is, without SB3's ``AtariWrapper`` or
``VecFrameStack``; it records the (clipped) episode returns itself (SB3's ``VecMonitor``).
The settings are RL Zoo's for Atari PPO.

    uvx nox -s example -- sb3_ppo_atari.py [--env-id ALE/Pong-v5] [--timesteps 10000000] [--goal 18]

Prints the steps per second and the mean return of the last 100 episodes; exits non-zero
unless that mean reaches ``--goal`` (default: no goal, since Pong needs about 10 million steps).
The nox session installs torch (the CPU build: see the README, "CPU torch") and Stable-Baselines3 into a venv of its own
(``python examples/sb3_ppo_atari.py`` where they are installed, with ``palaestra[atari,gymnasium]``).
A line every tenth of the run shows steps, speed, time left and the recent mean return. It
trains at about 300 env-steps/s on a 2-core machine (CPU torch): Pong's 10 million steps take
about 9 hours, a first check with ``--timesteps 100000`` about 6 minutes.
"""

import argparse
import sys
import time

import numpy as np
from _progress import Progress
from stable_baselines3 import PPO

from palaestra_gymnasium.sb3 import make_sb3_vec_env


def linear(start: float):
    """A schedule falling linearly from ``start`` to 0 over training."""
    return lambda progress_remaining: progress_remaining * start


def main() -> int:
    """Train and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="ALE/Pong-v5")
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--timesteps", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--goal", type=float, default=-np.inf, help="mean return to reach")
    args = parser.parse_args()

    venv = make_sb3_vec_env(args.env_id, args.num_envs)  # records episode returns (VecMonitor)
    model = PPO(
        "CnnPolicy",
        venv,
        n_steps=128,
        n_epochs=4,
        batch_size=256,
        learning_rate=linear(2.5e-4),
        clip_range=linear(0.1),
        vf_coef=0.5,
        ent_coef=0.01,
        seed=args.seed,
        device="cpu",
    )
    start = time.perf_counter()
    model.learn(args.timesteps, callback=Progress(f"PPO {args.env_id}", args.timesteps))
    seconds = time.perf_counter() - start
    returns = [episode["r"] for episode in model.ep_info_buffer]
    mean_return = float(np.mean(returns)) if returns else float("nan")
    print(
        f"{args.env_id}: {model.num_timesteps} steps in {seconds:.1f} s ({model.num_timesteps / seconds:.0f}/s), "
        f"mean return of the last {len(returns)} episodes {mean_return:.1f}"
    )
    venv.close()
    return 0 if returns and mean_return >= args.goal else 1


if __name__ == "__main__":
    sys.exit(main())
