"""Start-up as a user feels it: one process from import to the first step, palaestra vs Gymnasium.

Each sample is a fresh interpreter running ``import``, ``make``, ``reset`` and one ``step``,
in a venv that also holds N filler distributions (dist-info folders with METADATA and an
entry_points.txt of another group, made here in a temporary folder on ``sys.path``), the
way a research venv holds hundreds of packages. Bytecode is compiled first (this machine
sets PYTHONDONTWRITEBYTECODE; the samples run without it), and both libraries get a warm-up
run, so what is timed is start-up, not the compiler.

Both libraries must pay the interpreter and numpy (and, for MuJoCo ids, ``import mujoco``):
that is the *floor*, timed the same way (a process importing just those). What each library
adds is its time above the floor, taken round by round (floor, Gymnasium, palaestra in turn,
each compared with the floor of its own round, medians over the rounds; ``BENCH_ROUNDS``,
default 31), so a stretch of slowness on a shared machine cancels instead of landing on
one side.

Each sample also records the child's CPU time (user + system, from the OS's accounting):
wall time is what the goal is judged on, and CPU time, which a busy machine disturbs far
less, is printed beside it as a steadier view of the same cost.

Goals: with 300 and with 1,000 fillers, palaestra's time above the floor <= 0.35x
Gymnasium's, for CartPole-v1 and HalfCheetah-v5; palaestra's time at 1,000 fillers within
10% of its time at 0; AsyncVectorEnv(8 x CartPole, spawn) construction + first reset <= 0.5x
Gymnasium's.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from _common import compile_bytecode

FIRST_STEP = """
import {lib}
env = {lib}.make({env_id!r})
env.reset(seed=0)
env.step(env.action_space.sample())
"""
ASYNC = """
import time
start = time.perf_counter()
import {lib}
envs = {lib}.vector.AsyncVectorEnv([lambda: {lib}.make("CartPole-v1")] * 8, context="spawn")
envs.reset(seed=0)
print(time.perf_counter() - start)
envs.close()
"""


def make_fillers(folder: Path, count: int) -> None:
    """``count`` installed-looking distributions that have nothing to do with either library."""
    for i in range(count):
        info = folder / f"filler_pkg_{i}-1.0.{i}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: filler-pkg-{i}\nVersion: 1.0.{i}\nSummary: filler {i}\n"
            "Requires-Dist: numpy\nClassifier: Programming Language :: Python :: 3\n\n"
            + "A long description.\n"
            * 40
        )
        (info / "entry_points.txt").write_text(f"[console_scripts]\nfiller-{i} = filler_pkg_{i}.cli:main\n")


def environment(fillers: Path | None) -> dict[str, str]:
    """The samples' environment: bytecode allowed, fillers on the path, no plugin switches."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PALAESTRA_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(fillers) if fillers else "", env.get("PYTHONPATH", "")) if p
    )
    env.setdefault("MUJOCO_GL", "egl")
    return env


def wall(code: str, env: dict[str, str]) -> tuple[float, float]:
    """Seconds one interpreter takes to run ``code``: wall clock, and its CPU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


# What both libraries must import before their first step, by env id.
FLOOR = {"CartPole-v1": "import numpy, numpy.random", "HalfCheetah-v5": "import numpy, numpy.random, mujoco"}


class FirstStep(NamedTuple):
    """Seconds to the first step: medians of each side, and of each round's cost above its floor."""

    floor: float
    gym: float
    ours: float
    gym_above: float  # median over rounds of (gymnasium - floor) within the round
    ours_above: float
    gym_cpu_above: float  # the same for CPU time
    ours_cpu_above: float


def first_step_times(env_id: str, env: dict[str, str], rounds: int) -> FirstStep:
    """Time gymnasium, palaestra and the floor in turn, ``rounds`` times.

    The cost above the floor is taken round by round (each side minus the floor timed just
    before it), so a machine that slows down for a while moves all three together and
    cancels out; the medians of those differences are what the goal is judged on.
    """
    codes = [FIRST_STEP.format(lib=lib, env_id=env_id) for lib in ("gymnasium", "palaestra")]
    codes.insert(0, FLOOR[env_id])
    for code in codes:
        wall(code, env)  # warm-up: bytecode, caches, the OS's file cache
    floor, gym, ours = [], [], []
    for _ in range(rounds):
        for side, code in zip((floor, gym, ours), codes, strict=True):
            side.append(wall(code, env))

    def above(side: list[tuple[float, float]], part: int) -> float:
        return statistics.median(s[part] - f[part] for s, f in zip(side, floor, strict=True))

    return FirstStep(
        statistics.median(w for w, _ in floor),
        statistics.median(w for w, _ in gym),
        statistics.median(w for w, _ in ours),
        above(gym, 0),
        above(ours, 0),
        above(gym, 1),
        above(ours, 1),
    )


def async_times(env: dict[str, str], rounds: int) -> tuple[float, float]:
    """Median seconds for AsyncVectorEnv(8 x CartPole, spawn) construction + first reset."""
    samples: list[list[float]] = [[], []]
    for _ in range(rounds + 1):
        for side, lib in enumerate(("gymnasium", "palaestra")):
            out = subprocess.run(
                [sys.executable, "-c", ASYNC.format(lib=lib)],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            samples[side].append(float(out.stdout.split()[-1]))
    return statistics.median(samples[0][1:]), statistics.median(samples[1][1:])


def line(label: str, gym: float, ours: float, goal: float | None) -> None:
    """One result row: both times and palaestra's share of Gymnasium's."""
    share = ours / gym
    verdict = "" if goal is None else ("  ok" if share <= goal else f"  ABOVE GOAL {goal:g}x")
    print(
        f"{label:46s} gymnasium {gym * 1e3:7.1f} ms  palaestra {ours * 1e3:7.1f} ms  {share:5.2f}x{verdict}"
    )


def above_floor(label: str, times: FirstStep, goal: float) -> None:
    """One result row: median wall times, each library's cost above the floor, palaestra's share."""
    share = times.ours_above / times.gym_above
    cpu_share = times.ours_cpu_above / times.gym_cpu_above
    verdict = "  ok" if share <= goal else f"  ABOVE GOAL {goal:g}x"
    print(
        f"{label:46s} floor {times.floor * 1e3:6.1f} ms  gymnasium {times.gym * 1e3:6.1f} "
        f"(+{times.gym_above * 1e3:5.1f}) ms  palaestra {times.ours * 1e3:6.1f} (+{times.ours_above * 1e3:5.1f}) ms"
        f"  above floor {share:5.2f}x{verdict}  (CPU time: {cpu_share:.2f}x)"
    )


def main() -> None:
    """Compile, make the filler venvs, and time."""
    compile_bytecode()
    rounds = int(os.environ.get("BENCH_ROUNDS", "31"))
    with tempfile.TemporaryDirectory() as tmp:
        results = {}
        for count in (0, 300, 1000):
            folder = Path(tmp) / f"fillers_{count}"
            folder.mkdir()
            make_fillers(folder, count)
            results[count] = environment(folder)
        flat = {}
        for env_id in FLOOR:
            for count in (300, 1000):
                times = first_step_times(env_id, results[count], rounds)
                above_floor(f"first step {env_id}, {count} fillers", times, 0.35)
                if env_id == "CartPole-v1":
                    flat[count] = times.ours
        flat[0] = first_step_times("CartPole-v1", results[0], rounds).ours
        growth = flat[1000] / flat[0]
        verdict = "ok" if growth <= 1.10 else "ABOVE GOAL 1.10x"
        print(
            f"{'palaestra CartPole-v1 at 0 / 300 / 1000 fillers':46s} "
            + " / ".join(f"{flat[c] * 1e3:.1f} ms" for c in (0, 300, 1000))
            + f"  1000 vs 0: {growth:.2f}x  {verdict}"
        )
        gym, ours = async_times(results[300], max(3, rounds // 3))
        line("AsyncVectorEnv 8 x CartPole spawn, 300 fillers", gym, ours, 0.5)


if __name__ == "__main__":
    main()
