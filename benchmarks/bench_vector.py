"""Vector envs vs Gymnasium in one run.

Goals: async CartPole x8 >= 5x Gymnasium's async; async CPU-heavy x8 (a ~50 us synthetic
env, and HalfCheetah-v5) >= 1.5x Gymnasium's sync; sync >= 1.3x Gymnasium's sync;
construction + first reset of 8 async envs no slower.
"""

import functools
import sys
import time
import warnings
from pathlib import Path

import gymnasium
import numpy as np

import palaestra
from palaestra.vector import AsyncVectorEnv, SyncVectorEnv

sys.path.insert(0, str(Path(__file__).parent.parent))
from tests.fixtures.burn_env import make_burn_env_class
from tests.fixtures.vector_envs import BurnEnv

N = 8


GymBurnEnv = make_burn_env_class(gymnasium)


def env_steps_per_second(env, steps=400, rounds=4, actions=None):
    """Env-steps per second of a vector env stepping constant actions, best round.

    Every round resets with seed 0 and plays the same ``steps``, so both libraries (same
    numbers) simulate the same states: physics whose cost depends on the state (contacts)
    is compared like for like.
    """
    if actions is None:
        actions = np.array([i % 2 for i in range(env.num_envs)])
    best = float("inf")
    for _ in range(rounds):
        env.reset(seed=0)
        start = time.perf_counter()
        for _ in range(steps):
            env.step(actions)
        best = min(best, time.perf_counter() - start)
    env.close()
    return steps * env.num_envs / best


def line(label, reference, ours, goal):
    ratio = ours / reference
    verdict = "ok" if ratio >= goal else f"BELOW GOAL {goal}x"
    print(f"{label:52s} gymnasium {reference:10.0f}/s  palaestra {ours:10.0f}/s  x{ratio:5.2f}  {verdict}")


def construction_seconds(build):
    """Best of 3: build 8 async envs and reset them once."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        env = build()
        env.reset(seed=0)
        best = min(best, time.perf_counter() - start)
        env.close()
    return best


def main() -> None:
    """Run every comparison and print ratios."""
    warnings.simplefilter("ignore")
    gym_cart = [lambda: gymnasium.make("CartPole-v1")] * N
    pal_cart = [lambda: palaestra.make("CartPole-v1")] * N
    palaestra.make("CartPole-v1")  # warm the plugin discovery and imports
    line(
        "Async x8 CartPole-v1 (vs Gymnasium AsyncVectorEnv)",
        env_steps_per_second(gymnasium.vector.AsyncVectorEnv(gym_cart)),
        env_steps_per_second(AsyncVectorEnv(pal_cart)),
        5.0,
    )
    line(
        "Async x8 ~50us CPU-heavy env (vs Gymnasium SyncVectorEnv)",
        env_steps_per_second(gymnasium.vector.SyncVectorEnv([GymBurnEnv] * N)),
        env_steps_per_second(AsyncVectorEnv([functools.partial(BurnEnv, 50)] * N)),
        1.5,
    )
    gym_cheetah = [lambda: gymnasium.make("HalfCheetah-v5")] * N
    pal_cheetah = [lambda: palaestra.make("HalfCheetah-v5")] * N
    torques = np.full((N, 6), 0.3, dtype=np.float32)
    line(
        "Async x8 HalfCheetah-v5 (vs Gymnasium SyncVectorEnv)",
        env_steps_per_second(gymnasium.vector.SyncVectorEnv(gym_cheetah), actions=torques),
        env_steps_per_second(AsyncVectorEnv(pal_cheetah), actions=torques),
        1.5,
    )
    line(
        "Sync x8 CartPole-v1 (vs Gymnasium SyncVectorEnv)",
        env_steps_per_second(gymnasium.vector.SyncVectorEnv(gym_cart)),
        env_steps_per_second(SyncVectorEnv(pal_cart)),
        1.3,
    )
    ref = construction_seconds(lambda: gymnasium.vector.AsyncVectorEnv(gym_cart))
    ours = construction_seconds(lambda: AsyncVectorEnv(pal_cart))
    verdict = "ok" if ours <= ref else "SLOWER THAN GYMNASIUM"
    print(
        f"{'Construct + first reset, 8 async CartPole':52s} gymnasium {ref * 1e3:8.1f} ms  "
        f"palaestra {ours * 1e3:8.1f} ms  {verdict}"
    )


if __name__ == "__main__":
    main()
