"""How palaestra and EnvPool 1.2.5 scale with workers: env-steps/s by id, N and parallelism.

For each id, N and worker count k: palaestra's default vector env with the one knob,
``make_vec(id, N, vector_kwargs={"num_workers": k})``, and EnvPool with the same
parallelism, ``envpool.make_gymnasium(id, num_envs=N, num_threads=k)``; the same pre-drawn
random actions (``bench_envpool.actions_for``), rounds alternating, the median of each.

For palaestra it also prints:

- ``2w/1w`` and ``8w/2w``: the speed-ups from 1 to 2 workers and from 2 to 8 (8 workers on
  2 cores are oversubscribed: a ratio near 1 says the coordination does not grow with the
  workers). The goals of issue 52 on a 2-core machine, N=64: ``2w/1w >= 1.5`` and
  ``8w/2w >= 0.8`` for LunarLander, BipedalWalker, Ant, Humanoid, InvertedPendulum, Taxi and
  Blackjack.
- ``serial``: the serial share ``s`` of a step, fitted to Amdahl's law from the 1- and
  2-worker rates (``S2 = 1 / (s + (1 - s) / 2)``), and the rates it implies on 16 and 64
  cores (``rate_1w / (s + (1 - s) / n)``). Only meaningful where the machine has at least
  2 free cores; an env that does not parallelise (the array-batched classic-control and
  toy-text envs step in one thread) shows ``s`` near 1.
- ``parent busy``: the calling thread's CPU time over the wall time of the steps with the
  most workers (1.0: the caller never waits, e.g. it steps a block of its own).

EnvPool is a benchmark-only dependency (``uv sync --all-packages --group bench``).

Usage: ``python benchmarks/bench_scaling.py [--ids A,B] [--n 16,64,256] [--workers 1,2,8]
[--rounds 3]``; the default workers are 1, 2, 4, ... up to the cores this process may use,
and 8.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from typing import Any

import numpy as np

import palaestra
from bench_envpool import ENVPOOL_ID, actions_for, envpool
from palaestra.plugin import usable_cores

IDS = [
    "CartPole-v1",
    "Acrobot-v1",
    "Taxi-v4",
    "Blackjack-v1",
    "LunarLander-v3",
    "LunarLanderContinuous-v3",
    "BipedalWalker-v3",
    "HalfCheetah-v5",
    "Hopper-v5",
    "Ant-v5",
    "Humanoid-v5",
    "InvertedPendulum-v5",
]
ROUND_SECONDS = 0.4
WARMUP = 20


def default_workers() -> list[int]:
    """1, 2, 4, ... up to the usable cores, and 8 (oversubscribed on small machines)."""
    cores = usable_cores()
    counts = {1, 2, 8, cores}
    k = 4
    while k < cores:
        counts.add(k)
        k *= 2
    return sorted(counts)


def timed(env: Any, actions: list[np.ndarray], steps: int) -> tuple[float, float]:
    """``(wall seconds, calling thread's CPU seconds)`` of ``steps`` steps after a warm-up."""
    for k in range(WARMUP):
        env.step(actions[k % len(actions)])
    wall, cpu = time.perf_counter(), time.thread_time()
    for k in range(steps):
        env.step(actions[k % len(actions)])
    return time.perf_counter() - wall, time.thread_time() - cpu


def measure(
    env_id: str, n: int, workers: list[int], rounds: int
) -> dict[tuple[str, int], tuple[float, float]]:
    """Median env-steps/s and parent-busy share per (contender, k), rounds alternating."""
    actions = actions_for(env_id, n, 64)
    as_envpool = [a.astype(np.int32) if a.dtype.kind in "iu" else a for a in actions]
    envs: dict[tuple[str, int], Any] = {}
    for k in workers:
        envs["palaestra", k] = palaestra.make_vec(env_id, n, vector_kwargs={"num_workers": k})
        if envpool is not None:
            envs["envpool", k] = envpool.make_gymnasium(
                ENVPOOL_ID.get(env_id, env_id), num_envs=n, num_threads=k
            )
    results: dict[tuple[str, int], list[tuple[float, float]]] = {key: [] for key in envs}
    try:
        steps = {}
        for key, env in envs.items():
            env.reset(seed=0) if key[0] == "palaestra" else env.reset()
            batches = as_envpool if key[0] == "envpool" else actions
            wall, _ = timed(env, batches, 10)
            steps[key] = max(10, int(ROUND_SECONDS / max(wall / 10, 1e-7)))
        for _ in range(rounds):
            for key, env in envs.items():
                batches = as_envpool if key[0] == "envpool" else actions
                wall, cpu = timed(env, batches, steps[key])
                results[key].append((steps[key] * n / wall, cpu / wall))
    finally:
        for env in envs.values():
            env.close()
    return {
        key: (statistics.median(r for r, _ in values), statistics.median(b for _, b in values))
        for key, values in results.items()
    }


def amdahl(rate_1: float, rate_2: float) -> float:
    """The serial share fitted from the 1- and 2-worker rates, in [0, 1]."""
    speedup = rate_2 / rate_1
    return min(1.0, max(0.0, 2.0 / speedup - 1.0))


def report(
    env_id: str, n: int, workers: list[int], results: dict[tuple[str, int], tuple[float, float]]
) -> None:
    """One line per id and N: rates by k, ratios to EnvPool, the proxies and the serial share."""
    cells = []
    for k in workers:
        ours = results["palaestra", k][0]
        theirs = results.get(("envpool", k), (None, None))[0]
        ratio = f" ({ours / theirs:.2f}x)" if theirs else ""
        cells.append(f"{k}w {ours:9.0f}{ratio}")
    line = f"{env_id:26s} N={n:<4d} " + "  ".join(cells)
    rates = {k: results["palaestra", k][0] for k in workers}
    if 1 in rates and 2 in rates:
        s = amdahl(rates[1], rates[2])
        implied = {c: rates[1] / (s + (1 - s) / c) for c in (16, 64)}
        line += f"  2w/1w {rates[2] / rates[1]:.2f}"
        if 8 in rates:
            line += f"  8w/2w {rates[8] / rates[2]:.2f}"
        line += f"  serial {s:.2f} (16c {implied[16]:.0f}/s, 64c {implied[64]:.0f}/s)"
    line += f"  parent busy {results['palaestra', max(workers)][1]:.2f}"
    print(line, flush=True)


def main() -> None:
    """Measure and print every id at every N."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", default=",".join(IDS))
    parser.add_argument("--n", default="16,64,256")
    parser.add_argument("--workers", default=",".join(map(str, default_workers())))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # the array-batched envs say num_workers has no effect
    workers = sorted({int(k) for k in args.workers.split(",")})
    print(
        f"{usable_cores()} usable cores; workers {workers}" + ("" if envpool else "; EnvPool not installed")
    )
    for env_id in args.ids.split(","):
        for n in (int(x) for x in args.n.split(",")):
            report(env_id, n, workers, measure(env_id, n, workers, args.rounds))


if __name__ == "__main__":
    main()
