"""Toy text vs Gymnasium: single-env steps and batched envs.

Goals: single-env steps through make() >= 1.5x; batched envs >= 5x Gymnasium's
SyncVectorEnv at N=1024 (N=16 reported).
"""

import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np

import palaestra

sys.path.insert(0, str(Path(__file__).parent))
from _common import per_call_pair, report

IDS = ["Blackjack-v1", "Taxi-v4", "CliffWalking-v1", "FrozenLake-v1", "FrozenLake8x8-v1"]


def stepper(lib, env_id):
    """Step a made env with pre-drawn actions, resetting at episode ends."""
    env = lib.make(env_id)
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, int(env.action_space.n), 1024).tolist()
    state = {"i": 0}

    def step():
        state["i"] = (state["i"] + 1) & 1023
        _, _, terminated, truncated, _ = env.step(actions[state["i"]])
        if terminated or truncated:
            env.reset()

    return step


def vector_stepper(env, n):
    """Step a vector env with pre-drawn batches of actions."""
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, int(env.single_action_space.n), (16, n))
    state = {"i": 0}

    def step():
        state["i"] = (state["i"] + 1) & 15
        env.step(actions[state["i"]])

    return step


def main() -> None:
    """Print single-env and batched ratios."""
    warnings.simplefilter("ignore")
    for env_id in IDS:
        report(
            f"step {env_id}",
            *per_call_pair(stepper(gymnasium, env_id), stepper(palaestra, env_id), 20000),
            goal=1.5,
        )
    for env_id in IDS:
        for n, number, goal in ((16, 300, 1.0), (1024, 10, 5.0)):
            ref = gymnasium.vector.SyncVectorEnv([lambda env_id=env_id: gymnasium.make(env_id)] * n)
            ours = palaestra.make_vec(env_id, n)
            timings = per_call_pair(vector_stepper(ref, n), vector_stepper(ours, n), number, 3)
            report(f"batched {env_id} N={n} vs Gymnasium Sync", *timings, goal=goal)


if __name__ == "__main__":
    main()
