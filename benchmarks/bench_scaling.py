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
- ``measured X + own Y``: the serial share measured instead of fitted. ``X = T_out / T_1``:
  the calling thread's time per step outside the parts that run in parallel, over the
  1-worker step time; ``Y = T_own / T_1``: its own work inside them, which the workers
  overlap but more workers would not shorten (a Box2D block's resets), both from the
  1-worker run. The rates they imply on 16 and 64 cores take a step as ``T_out + max(T_own /
  blocks, T_par / cores)``, ``T_par`` the rest of the 1-worker step and ``blocks`` the
  processes that share the own work (Box2D: a block per ``THREADS_PER_BLOCK`` cores). The
  parallel parts are timed where each vector env runs them (:func:`parallel_parts`): the
  MuJoCo batch's physics call (``mujoco.batch``, or the sub-envs' own steps on threads;
  their episode starts are outside it), the step of the parent's block (a Box2D block's
  threads, or the worker processes more workers would add) or, with worker processes, the
  parent's wait for all blocks. An env with none (the array-batched classic-control and
  toy-text envs) is all serial: ``1.00``. This does not move with one worker's rate from run
  to run as the fit does.
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
from collections.abc import Callable
from typing import Any

import numpy as np

import palaestra
from bench_envpool import ENVPOOL_ID, actions_for, envpool
from palaestra.plugin import THREADS_PER_BLOCK, usable_cores

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


class ParallelClock:
    """Wall seconds the calling thread spends inside the parallel parts of steps.

    :meth:`watch` wraps a callable of an object (an instance attribute shadows the method);
    a call inside another watched call counts once. :meth:`own` wraps one whose calls
    inside a watched call are the calling thread's own work (a reset that the workers'
    steps overlap but that more workers would not shorten): their time is :attr:`own_seconds`.
    """

    def __init__(self) -> None:
        self.seconds = 0.0
        self.own_seconds = 0.0
        self._depth = 0
        self._watched: set[tuple[int, str]] = set()

    def watch(self, owner: Any, name: str) -> None:
        """Time every call of ``owner.name`` from now on (once, however often asked)."""

        def timed(inner: Callable[..., Any]) -> Callable[..., Any]:
            def timed_call(*args: Any, **kwargs: Any) -> Any:
                if self._depth:
                    return inner(*args, **kwargs)
                self._depth += 1
                start = time.perf_counter()
                try:
                    return inner(*args, **kwargs)
                finally:
                    self.seconds += time.perf_counter() - start
                    self._depth -= 1

            return timed_call

        self._wrap(owner, name, timed)

    def own(self, owner: Any, name: str) -> None:
        """Add the time of ``owner.name``'s calls inside watched calls to :attr:`own_seconds`."""

        def timed(inner: Callable[..., Any]) -> Callable[..., Any]:
            def serial_call(*args: Any, **kwargs: Any) -> Any:
                start = time.perf_counter()
                try:
                    return inner(*args, **kwargs)
                finally:
                    if self._depth:
                        self.own_seconds += time.perf_counter() - start

            return serial_call

        self._wrap(owner, name, timed)

    def _wrap(
        self, owner: Any, name: str, wrapper: Callable[[Callable[..., Any]], Callable[..., Any]]
    ) -> None:
        """Replace ``owner.name`` by ``wrapper`` of it, the first time it is asked for."""
        if (id(owner), name) not in self._watched:
            self._watched.add((id(owner), name))
            setattr(owner, name, wrapper(getattr(owner, name)))


def parallel_parts(env: Any) -> tuple[list[tuple[Any, str]], list[tuple[Any, str]]]:
    """Where ``env`` (a palaestra vector env) runs its workers: ``(windows, own work inside them)``.

    The windows are the callables inside which its workers run; the others, called inside
    them, are the calling thread's alone.

    MuJoCo: the batch's physics call (and its forward of started rows), or, for sub-envs
    stepped on their own, the threaded ``mj_step`` calls; its starts run outside them. Box2D
    and other block vector envs: with worker processes, the wait for every block's step (the
    parent's own block runs meanwhile); with the parent's block alone (one worker), that
    block's step, which more workers would share out (to threads in a compiled block, to
    processes otherwise); either way less the parent block's resets in a compiled step
    (its own thread's, even where the threads' steps overlap them). Anything else has none:
    all its work is in the calling thread.
    """
    sim = getattr(env, "_sim", None)
    if sim is not None:
        return [(sim, name) for name in ("step", "forward", "start") if hasattr(sim, name)], []
    if hasattr(env, "steps_arrays"):  # a MuJoCo vector env whose sub-envs step on their own
        import palaestra_mujoco.vector

        return [(palaestra_mujoco.vector, "run_physics")], []
    local = getattr(env, "_local", None)
    own = [(local.block, "_restart")] if local is not None and hasattr(local.block, "_restart") else []
    if getattr(env, "_workers", None):
        return [(env, "_gather")], own
    if local is not None:
        return [(local.block, "step")], own
    return [], []


def timed(
    env: Any, actions: list[np.ndarray], steps: int, clock: ParallelClock | None = None
) -> tuple[float, ...]:
    """Seconds of ``steps`` steps after a warm-up.

    Wall time, the calling thread's CPU time, and (with a ``clock``) its time inside the
    parallel parts and its own work inside them.
    """
    for k in range(WARMUP):
        env.step(actions[k % len(actions)])
    inside, own = (clock.seconds, clock.own_seconds) if clock is not None else (0.0, 0.0)
    wall, cpu = time.perf_counter(), time.thread_time()
    for k in range(steps):
        env.step(actions[k % len(actions)])
    wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
    if clock is None:
        return wall, cpu, 0.0, 0.0
    return wall, cpu, clock.seconds - inside, clock.own_seconds - own


Results = dict[tuple[str, int], tuple[float, float, float, float]]


def measure(env_id: str, n: int, workers: list[int], rounds: int) -> tuple[Results, int | None]:
    """Medians of rounds alternating, per (contender, k).

    Each is ``(env-steps/s, parent busy, T_out, T_own)``: the calling thread's seconds per
    step outside the parallel parts and its own work inside them (palaestra only; NaN for
    EnvPool). Also the most threads a block takes where the env's own work is its blocks'
    (each block's process does its own), else None.
    """
    actions = actions_for(env_id, n, 64)
    as_envpool = [a.astype(np.int32) if a.dtype.kind in "iu" else a for a in actions]
    envs: dict[tuple[str, int], Any] = {}
    clock = ParallelClock()
    per_block = None
    for k in workers:
        envs["palaestra", k] = palaestra.make_vec(env_id, n, vector_kwargs={"num_workers": k})
        if envpool is not None:
            envs["envpool", k] = envpool.make_gymnasium(
                ENVPOOL_ID.get(env_id, env_id), num_envs=n, num_threads=k
            )
    results: dict[tuple[str, int], list[tuple[float, float, float, float]]] = {key: [] for key in envs}
    try:
        steps = {}
        for key, env in envs.items():
            env.reset(seed=0) if key[0] == "palaestra" else env.reset()
            if key[0] == "palaestra":
                windows, own = parallel_parts(env)
                for owner, name in windows:
                    clock.watch(owner, name)
                for owner, name in own:
                    clock.own(owner, name)
                    per_block = THREADS_PER_BLOCK
            batches = as_envpool if key[0] == "envpool" else actions
            wall, *_ = timed(env, batches, 10)
            steps[key] = max(10, int(ROUND_SECONDS / max(wall / 10, 1e-7)))
        for _ in range(rounds):
            for key, env in envs.items():
                batches = as_envpool if key[0] == "envpool" else actions
                wall, cpu, inside, own = timed(env, batches, steps[key], clock)
                ours = key[0] == "palaestra"
                outside = (wall - inside) / steps[key] if ours else float("nan")
                results[key].append((steps[key] * n / wall, cpu / wall, outside, own / steps[key]))
    finally:
        for env in envs.values():
            env.close()
    medians = {
        key: tuple(statistics.median(column) for column in zip(*values, strict=True))
        for key, values in results.items()
    }
    return medians, per_block  # type: ignore[return-value]


def measured_share(
    n: int, workers: list[int], results: Results, per_block: int | None
) -> tuple[float, float, dict[int, float]] | None:
    """``T_out / T_1``, ``T_own / T_1`` and the rates they imply on 16 and 64 cores.

    All three times come from the 1-worker run (one run: no noise between runs in the
    ratios). On ``c`` cores a step is taken to last ``T_out + max(T_own / b, T_par / c)``,
    with ``T_par = T_1 - T_out - T_own``: the workers share the parallel work while each
    block's process does its own, ``b`` blocks of up to ``per_block`` threads sharing
    ``T_own`` (one block where ``per_block`` is None). None without a 1-worker run.
    """
    if 1 not in workers:
        return None
    step_1 = n / results["palaestra", 1][0]
    outside, own = results["palaestra", 1][2:]
    outside = min(outside, step_1)
    own = min(own, step_1 - outside)
    parallel = step_1 - outside - own
    implied = {}
    for cores in (16, 64):
        blocks = 1 if per_block is None else min(n, -(-cores // per_block))
        implied[cores] = n / (outside + max(own / blocks, parallel / cores))
    return outside / step_1, own / step_1, implied


def amdahl(rate_1: float, rate_2: float) -> float:
    """The serial share fitted from the 1- and 2-worker rates, in [0, 1]."""
    speedup = rate_2 / rate_1
    return min(1.0, max(0.0, 2.0 / speedup - 1.0))


def report(env_id: str, n: int, workers: list[int], results: Results, per_block: int | None) -> None:
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
    measured = measured_share(n, workers, results, per_block)
    if measured is not None:
        share, own, implied = measured
        line += f"  measured {share:.2f} + own {own:.2f} (16c {implied[16]:.0f}/s, 64c {implied[64]:.0f}/s)"
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
            results, per_block = measure(env_id, n, workers, args.rounds)
            report(env_id, n, workers, results, per_block)


if __name__ == "__main__":
    main()
