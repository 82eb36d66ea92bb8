"""palaestra against EnvPool 1.2.5 on every id both have, in one run, at N=16 and N=256.

For each id and N: palaestra's default (``make_vec(id, N)``), its best other mode (``async``,
or CarRacing's ``fast_pixels=True``), EnvPool's interface on palaestra
(``palaestra_envpool.make_gymnasium(id, num_envs=N)``) and EnvPool (``envpool.make_gymnasium(id,
num_envs=N)``, its default threads). Every contender plays the same pre-drawn random
actions (drawn from palaestra's batched action space, seed 0) after 30 warm-up steps;
rounds alternate between the contenders and the median of each counts (env-steps/s).
Prints the table of ``docs/envpool.md``.

EnvPool is a benchmark-only dependency (``pip install envpool==1.2.5``; the ``bench``
dependency group installs it on Linux with Python >= 3.11). Its envs are its own C++
re-implementations: the same rules, not always the same numbers (CarRacing's frames
are drawn differently, MuJoCo ships its own models), so the work per step compares like
for like only on average.

Goals (issue "Ahead of EnvPool"): every id >= 1.0x at N=16 and N=256, except
BipedalWalker (>= 0.7x, bounded by the Box2D binding: see bench_box2d_ceiling.py) and
CarRacing's pixel-identical default (>= 0.3x); CarRacing with fast pixels >= 1.0x.

Usage: ``python benchmarks/bench_envpool.py [--ids A,B] [--n 16,256] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import palaestra
import palaestra_envpool

try:
    import envpool
except ImportError:  # benchmark-only dependency
    envpool = None

CLASSIC = ["CartPole-v1", "Pendulum-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Acrobot-v1"]
TOY_TEXT = ["Taxi-v4", "CliffWalking-v1", "FrozenLake-v1", "FrozenLake8x8-v1", "Blackjack-v1"]
BOX2D = [
    "LunarLander-v3",
    "LunarLanderContinuous-v3",
    "BipedalWalker-v3",
    "BipedalWalkerHardcore-v3",
    "CarRacing-v3",
]
MUJOCO = [
    "HalfCheetah-v5",
    "Hopper-v5",
    "Walker2d-v5",
    "Ant-v5",
    "Humanoid-v5",
    "InvertedPendulum-v5",
    "Reacher-v5",
]
IDS = CLASSIC + TOY_TEXT + BOX2D + MUJOCO
# EnvPool's name where it registers the same env under another version.
ENVPOOL_ID = {"Taxi-v4": "Taxi-v3"}
GOALS = {"BipedalWalker-v3": 0.7, "BipedalWalkerHardcore-v3": 0.7, "CarRacing-v3": 0.3}
# Seconds each contender plays per round (the step count follows from a first measure).
ROUND_SECONDS = 0.4
WARMUP = 30  # steps before timing: CarRacing zooms in over its first 50 frames


def contenders(env_id: str, n: int) -> dict[str, Callable[[], Any]]:
    """The makers of each contender for ``env_id`` at ``n`` sub-envs."""
    makers: dict[str, Callable[[], Any]] = {"palaestra": lambda: palaestra.make_vec(env_id, n)}
    if env_id == "CarRacing-v3":
        makers["palaestra fast_pixels"] = lambda: palaestra.make_vec(env_id, n, fast_pixels=True)
    elif n <= 16 or env_id not in MUJOCO:
        makers["palaestra async"] = lambda: palaestra.make_vec(env_id, n, vectorization_mode="async")
    # EnvPool's interface on palaestra (plugins/envpool): what a script written for EnvPool gets.
    makers["palaestra_envpool"] = lambda: palaestra_envpool.make_gymnasium(env_id, num_envs=n)
    if envpool is not None:
        makers["envpool"] = lambda: envpool.make_gymnasium(ENVPOOL_ID.get(env_id, env_id), num_envs=n)
    return makers


def actions_for(env_id: str, n: int, count: int) -> list[np.ndarray]:
    """``count`` batches drawn from palaestra's batched action space (seed 0)."""
    probe = palaestra.make_vec(env_id, n, vectorization_mode="sync")
    probe.action_space.seed(0)
    batches = [np.asarray(probe.action_space.sample()) for _ in range(count)]
    probe.close()
    return batches


def play(env: Any, actions: list[np.ndarray], steps: int) -> float:
    """Seconds for ``steps`` steps after the warm-up (actions cycled)."""
    for k in range(WARMUP):
        env.step(actions[k % len(actions)])
    start = time.perf_counter()
    for k in range(steps):
        env.step(actions[k % len(actions)])
    return time.perf_counter() - start


def measure(env_id: str, n: int, rounds: int) -> dict[str, float]:
    """Median env-steps/s of every contender, rounds alternating between them."""
    actions = actions_for(env_id, n, 64)
    # EnvPool refuses int64 actions for its discrete spaces.
    as_envpool = [a.astype(np.int32) if a.dtype.kind in "iu" else a for a in actions]
    envs = {name: make() for name, make in contenders(env_id, n).items()}
    steps: dict[str, int] = {}
    rates: dict[str, list[float]] = {name: [] for name in envs}
    try:
        for env in envs.values():
            env.reset(seed=0)
        for name, env in envs.items():  # calibrate: about ROUND_SECONDS a round
            batches = as_envpool if name == "envpool" else actions
            seconds = play(env, batches, 10)
            steps[name] = max(10, int(ROUND_SECONDS / max(seconds / 10, 1e-7)))
        for _ in range(rounds):
            for name, env in envs.items():
                batches = as_envpool if name == "envpool" else actions
                rates[name].append(steps[name] * n / play(env, batches, steps[name]))
    finally:
        for env in envs.values():
            env.close()
    return {name: statistics.median(values) for name, values in rates.items()}


def report(env_id: str, n: int, rates: dict[str, float]) -> None:
    """One row: each contender's env-steps/s and palaestra's ratios to EnvPool."""
    reference = rates.get("envpool")
    cells = []
    for name, rate in rates.items():
        if name == "envpool":
            continue
        ratio = f" {rate / reference:5.2f}x" if reference else ""
        cells.append(f"{name} {rate:10.0f}/s{ratio}")
    goal = GOALS.get(env_id, 1.0)
    default = rates["palaestra"] / reference if reference else None
    verdict = "" if default is None else ("  ok" if default >= goal else f"  BELOW GOAL {goal:g}x")
    if reference:
        best = max((name for name in rates if name != "envpool"), key=rates.__getitem__)
        verdict += f"  best: {best} {rates[best] / reference:.2f}x"
    envpool_cell = f"envpool {reference:10.0f}/s  " if reference else ""
    print(f"{env_id:26s} N={n:<4d} {envpool_cell}{'  '.join(cells)}{verdict}", flush=True)


def main() -> None:
    """Measure and print every id at every N."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", default=",".join(IDS))
    parser.add_argument("--n", default="16,256")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if envpool is None:
        print("envpool is not installed (pip install envpool==1.2.5): palaestra's rates only")
    for env_id in args.ids.split(","):
        for n in (int(x) for x in args.n.split(",")):
            report(env_id, n, measure(env_id, n, args.rounds))


if __name__ == "__main__":
    main()
