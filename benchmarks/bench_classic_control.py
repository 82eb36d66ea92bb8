"""Steps/s through make() vs Gymnasium (goals: CartPole >= 3x, every env >= 1.5x)."""

import sys
import warnings
from pathlib import Path

import gymnasium

import palaestra

sys.path.insert(0, str(Path(__file__).parent))
from _common import per_call, report

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


def main() -> None:
    """Time one step through the full make() wrapper stack for each env."""
    warnings.simplefilter("ignore")
    for env_id in IDS:
        reference = per_call(stepper(gymnasium, env_id), 20000)
        ours = per_call(stepper(palaestra, env_id), 20000)
        report(f"step {env_id}", reference, ours, goal=GOALS.get(env_id, 1.5))


if __name__ == "__main__":
    main()
