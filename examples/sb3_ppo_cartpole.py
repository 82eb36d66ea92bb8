"""Stable-Baselines3 PPO on palaestra's CartPole-v1, side by side with Gymnasium's.

Trains PPO (RL Zoo's CartPole settings) on 8 palaestra envs through the SB3 adapter, then
the same on Gymnasium's CartPole with SB3's own ``make_vec_env``, and prints wall time,
steps per second and the mean return of 20 evaluation episodes for both. Exits non-zero if
palaestra's agent does not reach a mean return of 475.

    uvx nox -s example -- sb3_ppo_cartpole.py [--timesteps 100000] [--only palaestra]

Each library trains for about 20 minutes on a 2-core machine; a line every tenth of each
run shows steps, speed and time left, and ``--only palaestra`` skips the Gymnasium run.
The nox session installs torch (the CPU build: see the README, "CPU torch") and
Stable-Baselines3 into a venv of its own; in an environment that has them,
``python examples/sb3_ppo_cartpole.py`` is the same.
"""

import argparse
import sys
import time

import gymnasium
from _progress import Progress
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.evaluation import evaluate_policy

import palaestra
from palaestra_gymnasium import to_gymnasium
from palaestra_gymnasium.sb3 import make_sb3_vec_env

GOAL = 475.0


def linear(start: float):
    """A learning-rate schedule falling linearly from ``start`` to 0 over training."""
    return lambda progress_remaining: progress_remaining * start


def train(library: str, venv, eval_env, timesteps: int, seed: int) -> tuple[float, float, float]:
    """Train PPO; return (seconds, env steps per second, mean evaluation return)."""
    model = PPO(
        "MlpPolicy",
        venv,
        n_steps=32,
        batch_size=256,
        gae_lambda=0.8,
        gamma=0.98,
        n_epochs=20,
        ent_coef=0.0,
        learning_rate=linear(0.001),
        clip_range=linear(0.2),
        seed=seed,
        device="cpu",
    )
    start = time.perf_counter()
    model.learn(timesteps, callback=Progress(f"{library} CartPole-v1", timesteps))
    seconds = time.perf_counter() - start
    print(f"[{library} CartPole-v1] evaluating 20 episodes ...", flush=True)
    mean_return, _ = evaluate_policy(model, eval_env, n_eval_episodes=20, deterministic=True)
    return seconds, timesteps / seconds, float(mean_return)


def main() -> int:
    """Train on both libraries and compare."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=["palaestra"], help="skip the Gymnasium run")
    args = parser.parse_args()
    results = {
        "palaestra": train(
            "palaestra",
            make_sb3_vec_env("CartPole-v1", 8, vectorization_mode="sync"),
            to_gymnasium(palaestra.make("CartPole-v1")),
            args.timesteps,
            args.seed,
        )
    }
    if args.only is None:
        results["gymnasium"] = train(
            "gymnasium",
            make_vec_env("CartPole-v1", n_envs=8, seed=args.seed),
            gymnasium.make("CartPole-v1"),
            args.timesteps,
            args.seed,
        )
    for library, (seconds, _, mean_return) in results.items():
        print(f"{library:10s} mean return {mean_return:6.1f}  ({seconds:.1f} s)")
    # One run each, back to back: on a machine whose load changes, the times do not compare.
    print("(times: one run each; for speed see benchmarks/, which alternates rounds of both)")
    reached = results["palaestra"][2] >= GOAL
    print(f"palaestra's agent {'reached' if reached else 'did NOT reach'} a mean return of {GOAL:g}")
    return 0 if reached else 1


if __name__ == "__main__":
    sys.exit(main())
