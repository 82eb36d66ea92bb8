"""The Box2D binding's ceiling: the engine's own work per env-step, against the batched envs.

For each Box2D id, one env plays random steps under cProfile. The time spent inside the
Box2D library itself is the engine's share of a step: ``b2World_Step``'s own time (the
contact callbacks into Python are subtracted, as cProfile counts them apart) and, for
BipedalWalker, the ten lidar ray casts asked of the binding (``b2World_RayCast``'s own time,
callbacks excluded; measured in a second pass with the lidar forced onto Box2D's casts,
since the walker normally casts them in palaestra's compiled kernel). No env on this
binding can step faster than ``cores / engine time``: that is the ceiling, with and
without the binding's ray casts. Each batched env (``make_vec(id, 16)``, a block of
sub-envs per core) is shown as a share of it.

Usage: ``python benchmarks/bench_box2d_ceiling.py [--steps 2000]``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import palaestra

sys.path.insert(0, str(Path(__file__).parent))
from bench_box2d import IDS

ENGINE_CALLS = ("b2World_Step", "b2World_RayCast")


def engine_seconds(env_id: str, steps: int, box2d_casts: bool = False) -> dict[str, float]:
    """Seconds per env-step inside each engine call (own time), over ``steps`` random steps."""
    env = palaestra.make(env_id)
    if box2d_casts:
        lidar = env.unwrapped._lidar
        lidar.scan = lambda world, position, drawn: lidar.cast(world, position)
    env.reset(seed=0)
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(256)]
    profile = cProfile.Profile()
    profile.enable()
    for k in range(steps):
        if any(env.step(actions[k % 256])[2:4]):
            env.reset()
    profile.disable()
    env.close()
    stats: Any = pstats.Stats(profile).stats
    found = {name: 0.0 for name in ENGINE_CALLS}
    for (_, _, function), (_, _, own, _, _) in stats.items():
        for name in ENGINE_CALLS:
            if name in function:
                found[name] += own / steps
    return found


def batched_rate(env_id: str, n: int = 16, seconds: float = 3.0) -> float:
    """Env-steps/s of ``make_vec(env_id, n)`` with random actions (after a warm-up)."""
    envs = palaestra.make_vec(env_id, n)
    envs.reset(seed=0)
    envs.action_space.seed(0)
    actions = [envs.action_space.sample() for _ in range(64)]
    for k in range(60):
        envs.step(actions[k % 64])
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        envs.step(actions[count % 64])
        count += 1
    rate = count * n / (time.perf_counter() - start)
    envs.close()
    return rate


def main() -> None:
    """Print each id's engine time, ceilings and the batched env's share."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    print(f"{cores} cores; engine time per env-step (own time of the Box2D calls), ceiling = cores / time")
    for env_id in IDS:
        steps = args.steps // 10 if env_id == "CarRacing-v3" else args.steps
        step = engine_seconds(env_id, steps)["b2World_Step"]
        casts = (
            engine_seconds(env_id, steps, box2d_casts=True)["b2World_RayCast"] if "Walker" in env_id else 0.0
        )
        rate = batched_rate(env_id)
        ceiling = cores / step
        line = f"{env_id:26s} b2World_Step {step * 1e6:6.1f} us  ceiling {ceiling:8.0f}/s"
        if casts:
            with_casts = cores / (step + casts)
            line += f"  + 10 binding ray casts {casts * 1e6:5.1f} us: ceiling {with_casts:7.0f}/s"
        line += f"  |  batched N=16 {rate:7.0f}/s = {rate / ceiling:4.0%} of the step-only ceiling"
        if casts:
            line += f", {rate / with_casts:4.0%} of the binding's"
        print(line, flush=True)


if __name__ == "__main__":
    main()
