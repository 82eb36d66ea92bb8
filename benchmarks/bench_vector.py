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


def play_round(env, steps, actions):
    """Seconds for ``steps`` steps from ``reset(seed=0)`` (the same states every round)."""
    env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps):
        env.step(actions)
    return time.perf_counter() - start


def paired_rates(reference, ours, steps=400, rounds=8, actions=None):
    """Env-steps per second of two vector envs, best round each, rounds alternating.

    Every round resets with seed 0 and plays the same ``steps``, so both libraries (same
    numbers) simulate the same states: physics whose cost depends on the state (contacts)
    is compared like for like. Alternating the rounds exposes both to the same spells of
    a noisy machine.
    """
    if actions is None:
        actions = np.array([i % 2 for i in range(reference.num_envs)])
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for k, env in enumerate((reference, ours)):
            best[k] = min(best[k], play_round(env, steps, actions))
    reference.close()
    ours.close()
    return tuple(steps * reference.num_envs / seconds for seconds in best)


def line(label, rates, goal):
    reference, ours = rates
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
        paired_rates(gymnasium.vector.AsyncVectorEnv(gym_cart), AsyncVectorEnv(pal_cart)),
        5.0,
    )
    line(
        "Async x8 ~50us CPU-heavy env (vs Gymnasium SyncVectorEnv)",
        paired_rates(
            gymnasium.vector.SyncVectorEnv([GymBurnEnv] * N),
            AsyncVectorEnv([functools.partial(BurnEnv, 50)] * N),
        ),
        1.5,
    )
    gym_cheetah = [lambda: gymnasium.make("HalfCheetah-v5")] * N
    pal_cheetah = [lambda: palaestra.make("HalfCheetah-v5")] * N
    torques = np.full((N, 6), 0.3, dtype=np.float32)
    line(
        "Async x8 HalfCheetah-v5 (vs Gymnasium SyncVectorEnv)",
        paired_rates(
            gymnasium.vector.SyncVectorEnv(gym_cheetah), AsyncVectorEnv(pal_cheetah), actions=torques
        ),
        1.5,
    )
    line(
        "Sync x8 CartPole-v1 (vs Gymnasium SyncVectorEnv)",
        paired_rates(gymnasium.vector.SyncVectorEnv(gym_cart), SyncVectorEnv(pal_cart)),
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
