"""Classic control vs Gymnasium: single-env steps through make(), batched CartPole.

Goals: CartPole >= 3x, every env >= 1.5x; CartPoleVectorEnv N=16 >= 2x, N=4096 >= 1x.
"""

import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np

import palaestra

sys.path.insert(0, str(Path(__file__).parent))
from _common import per_call_pair, report

GOALS = {"CartPole-v1": 3.0}
IDS = ["CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1", "Acrobot-v1"]


def stepper(lib, env_id):
    """A zero-argument function stepping a made env with pre-sampled actions."""
    env = lib.make(env_id)
    env.reset(seed=0)
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(1024)]
    state = {"i": 0}

    def step():
        i = state["i"] = (state["i"] + 1) & 1023
        _, _, terminated, truncated, _ = env.step(actions[i])
        if terminated or truncated:
            env.reset()

    return step


def vector_stepper(lib, n):
    """A zero-argument function stepping make_vec("CartPole-v1", n) with random actions."""
    env = lib.make_vec("CartPole-v1", n)
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, 2, (64, n))
    state = {"i": 0}

    def step():
        state["i"] = (state["i"] + 1) & 63
        env.step(actions[state["i"]])

    return step


def main() -> None:
    """Time one step through the full make() wrapper stack for each env, then batched CartPole."""
    warnings.simplefilter("ignore")
    for env_id in IDS:
        reference, ours = per_call_pair(stepper(gymnasium, env_id), stepper(palaestra, env_id), 20000)
        report(f"step {env_id}", reference, ours, goal=GOALS.get(env_id, 1.5))
    for n, number, goal in ((16, 5000, 2.0), (4096, 300, 1.0)):
        reference, ours = per_call_pair(vector_stepper(gymnasium, n), vector_stepper(palaestra, n), number)
        report(f"CartPoleVectorEnv N={n} (one batched step)", reference, ours, goal=goal)


if __name__ == "__main__":
    main()
