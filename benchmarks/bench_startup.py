"""Start-up as a user feels it: one process from import to the first step, palaestra vs Gymnasium.

Each sample is a fresh interpreter running ``import``, ``make``, ``reset`` and one ``step``,
in a venv that also holds N filler distributions (dist-info folders with METADATA and an
entry_points.txt of another group, made here in a temporary folder on ``sys.path``), the
way a research venv holds hundreds of packages. Bytecode is compiled first (this machine
sets PYTHONDONTWRITEBYTECODE; the samples run without it), and both libraries get a warm-up
run, so what is timed is start-up, not the compiler.

Goals: with 300 fillers, CartPole-v1 <= 0.6x Gymnasium and HalfCheetah-v5 <= 0.8x; palaestra's
time at 1,000 fillers within 10% of its time at 0; AsyncVectorEnv(8 x CartPole, spawn)
construction + first reset <= 0.5x Gymnasium's.
"""

from __future__ import annotations

import compileall
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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


def wall(code: str, env: dict[str, str]) -> float:
    """Seconds one interpreter takes to run ``code``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def first_step_times(env_id: str, env: dict[str, str], rounds: int) -> tuple[float, float]:
    """Median seconds to the first step, (gymnasium, palaestra), their runs alternated."""
    codes = [FIRST_STEP.format(lib=lib, env_id=env_id) for lib in ("gymnasium", "palaestra")]
    for code in codes:
        wall(code, env)  # warm-up: bytecode, caches, the OS's file cache
    samples: list[list[float]] = [[], []]
    for _ in range(rounds):
        for side, code in enumerate(codes):
            samples[side].append(wall(code, env))
    return statistics.median(samples[0]), statistics.median(samples[1])


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


def main() -> None:
    """Compile, make the filler venvs, and time."""
    for folder in {
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
        str(ROOT / "core" / "src"),
    }:
        compileall.compile_dir(folder, quiet=2)
    for plugin in (ROOT / "plugins").glob("*/src"):
        compileall.compile_dir(str(plugin), quiet=2)
    rounds = int(os.environ.get("BENCH_ROUNDS", "9"))
    with tempfile.TemporaryDirectory() as tmp:
        results = {}
        for count in (0, 300, 1000):
            folder = Path(tmp) / f"fillers_{count}"
            folder.mkdir()
            make_fillers(folder, count)
            results[count] = environment(folder)
        env300 = results[300]
        gym, ours = first_step_times("CartPole-v1", env300, rounds)
        line("first step CartPole-v1, 300 fillers", gym, ours, 0.6)
        gym, ours = first_step_times("HalfCheetah-v5", env300, rounds)
        line("first step HalfCheetah-v5, 300 fillers", gym, ours, 0.8)
        flat = {count: first_step_times("CartPole-v1", env, rounds)[1] for count, env in results.items()}
        growth = flat[1000] / flat[0]
        verdict = "ok" if growth <= 1.10 else "ABOVE GOAL 1.10x"
        print(
            f"{'palaestra CartPole-v1 at 0 / 300 / 1000 fillers':46s} "
            + " / ".join(f"{flat[c] * 1e3:.1f} ms" for c in (0, 300, 1000))
            + f"  1000 vs 0: {growth:.2f}x  {verdict}"
        )
        gym, ours = async_times(env300, max(3, rounds // 3))
        line("AsyncVectorEnv 8 x CartPole spawn, 300 fillers", gym, ours, 0.5)


if __name__ == "__main__":
    main()
