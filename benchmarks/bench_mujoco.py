"""MuJoCo envs vs Gymnasium: single-env steps through make().

Both libraries simulate the same trajectories (same models to the last bit, same seed,
same actions), so the physics work is identical and the difference is the Python around
it. Each round resets with seed 0 and plays the same 400 actions (resetting on episode
end); rounds alternate between the libraries and the best round of each counts.

Goals: HalfCheetah-v5 >= 1.3x, every other env >= 1.1x.
"""

import os
import sys
import time
import warnings
from pathlib import Path

import gymnasium
import numpy as np

import palaestra

sys.path.insert(0, str(Path(__file__).parent))
from _common import report

os.environ.setdefault("MUJOCO_GL", "egl")

IDS = [
    "HalfCheetah-v5",
    "Hopper-v5",
    "Walker2d-v5",
    "Swimmer-v5",
    "Ant-v5",
    "Humanoid-v5",
    "HumanoidStandup-v5",
    "InvertedPendulum-v5",
    "InvertedDoublePendulum-v5",
    "Pusher-v5",
    "Reacher-v5",
]
GOALS = {env_id: 1.3 if env_id == "HalfCheetah-v5" else 1.1 for env_id in IDS}
STEPS = 400


def round_runner(lib, env_id, actions):
    """A function that plays one round and returns its seconds per step."""
    env = lib.make(env_id)

    def play() -> float:
        env.reset(seed=0)
        start = time.perf_counter()
        for action in actions:
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                env.reset()
        return (time.perf_counter() - start) / len(actions)

    return play


def main() -> None:
    """Time the same rounds in both libraries, alternating, best of 15."""
    warnings.simplefilter("ignore")
    rounds = int(os.environ.get("BENCH_ROUNDS", "15"))
    only = sys.argv[1:]
    for env_id in [i for i in IDS if not only or i in only]:
        probe = palaestra.make(env_id)
        rng = np.random.default_rng(0)
        low, high = probe.action_space.low, probe.action_space.high
        actions = [rng.uniform(low, high).astype(np.float32) for _ in range(STEPS)]
        ours, reference = round_runner(palaestra, env_id, actions), round_runner(gymnasium, env_id, actions)
        best_ours = best_reference = float("inf")
        for _ in range(rounds):
            best_reference = min(best_reference, reference())
            best_ours = min(best_ours, ours())
        report(f"step {env_id}", best_reference, best_ours, goal=GOALS[env_id])


if __name__ == "__main__":
    main()
