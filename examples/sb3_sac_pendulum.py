"""Stable-Baselines3 SAC on palaestra's Pendulum-v1.

Gymnasium code that takes an env object takes palaestra's through ``to_gymnasium``; code
that takes an id string takes ``"palaestra/Pendulum-v1"`` once ``palaestra_gymnasium`` is
imported. Prints training time and the mean return of 10 evaluation episodes; exits
non-zero if it stays below -300 (a random policy scores about -1200).

    uvx nox -s example -- sb3_sac_pendulum.py [--timesteps 20000]

(the nox session installs torch (the CPU build: see the README, "CPU torch") and Stable-Baselines3 into a venv of its
own; in an environment that has them, ``python examples/sb3_sac_pendulum.py`` is the same).
A line every tenth of the run shows steps, speed and time left; the run takes about 6 minutes
on a 2-core machine (SAC's updates, not the env, set the pace).
"""

import argparse
import sys
import time

import gymnasium
from _progress import Progress
from stable_baselines3 import SAC
from stable_baselines3.common.evaluation import evaluate_policy

import palaestra
from palaestra_gymnasium import to_gymnasium

GOAL = -300.0


def main() -> int:
    """Train SAC, evaluate, and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = to_gymnasium(palaestra.make("Pendulum-v1"))
    model = SAC("MlpPolicy", env, learning_rate=1e-3, seed=args.seed, device="cpu")
    start = time.perf_counter()
    model.learn(args.timesteps, callback=Progress("SAC Pendulum-v1", args.timesteps))
    seconds = time.perf_counter() - start
    # The id form, as code that builds its own envs from a string would use it.
    eval_env = gymnasium.make("palaestra/Pendulum-v1")
    mean_return, std = evaluate_policy(model, eval_env, n_eval_episodes=10, deterministic=True)
    print(f"SAC on palaestra Pendulum-v1: {seconds:.1f} s, mean return {mean_return:.1f} +- {std:.1f}")
    return 0 if mean_return >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
