"""Batched Atari: palaestra's AtariVectorEnv vs EnvPool 1.2.5 vs Gymnasium's AsyncVectorEnv.

Env-steps per second at N = 8, 16 and 64 for Pong and Breakout, all with the standard
preprocessing (4 frames a step max-pooled, 84x84 grayscale, 4 frames stacked, up to 30
no-ops at reset, clipped rewards, no sticky actions), rounds of the three interleaved, best
round kept. Memory is what each library's envs add to a fresh interpreter (proportional set
size of the whole process tree, workers included). Goals at N=16: >= 1.0x EnvPool and >= 4x Gymnasium async.

    python benchmarks/bench_atari.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings

import numpy as np

GAMES = {"Pong": "pong", "Breakout": "breakout"}
STEPS = 400
ROUNDS = 3


def _palaestra(game: str, n: int) -> object:
    import palaestra

    return palaestra.make_vec(f"ALE/{game}-v5", n, repeat_action_probability=0.0, noop_max=30)


def _envpool(game: str, n: int) -> object:
    import envpool

    # EnvPool's Atari defaults: the same preprocessing (sticky actions off, no fire reset).
    return envpool.make_gymnasium(f"{game}-v5", num_envs=n, repeat_action_probability=0.0)


def _gymnasium(game: str, n: int) -> object:
    import ale_py
    import gymnasium
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    gymnasium.register_envs(ale_py)

    def single() -> object:
        env = gymnasium.make(f"ALE/{game}-v5", frameskip=1, repeat_action_probability=0.0)
        env = AtariPreprocessing(env, noop_max=30, frame_skip=4, screen_size=84, grayscale_obs=True)
        env = gymnasium.wrappers.TransformReward(env, np.sign)
        return FrameStackObservation(env, 4)

    return gymnasium.vector.AsyncVectorEnv([single] * n)


MAKERS = {"palaestra": _palaestra, "envpool": _envpool, "gymnasium async": _gymnasium}


def rate(envs: object, n: int, steps: int) -> float:
    """Env-steps per second over ``steps`` batched steps of random actions."""
    envs.reset(seed=0)  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, 4, n) for _ in range(steps)]
    start = time.perf_counter()
    for action in actions:
        envs.step(action)  # type: ignore[attr-defined]
    return n * steps / (time.perf_counter() - start)


def emulator_ceiling(game: str, steps: int = 2000) -> float:
    """Env-steps/s the bare emulator allows on this machine; no library batches faster.

    One ALE stepping 4 frames per step with no preprocessing, times the number of cores.
    """
    import ale_py
    from ale_py import roms

    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)  # no banner
    ale = ale_py.ALEInterface()
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(roms.get_rom_path(GAMES[game]))
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(0)
    choices = [actions[i] for i in rng.integers(0, len(actions), steps)]
    start = time.perf_counter()
    for action in choices:
        for _ in range(4):
            ale.act(action)
        if ale.game_over():
            ale.reset_game()
    return steps / (time.perf_counter() - start) * (os.cpu_count() or 1)


def tree_pss_mib(pid: int) -> float:
    """Proportional set size (MiB) of a process and all its descendants.

    Shared pages are split among the processes sharing them, so forked workers are not counted twice.
    """
    total_kib = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/smaps_rollup") as f:
                total_kib += next(int(line.split()[1]) for line in f if line.startswith("Pss:"))
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as f:
                    stack.extend(int(child) for child in f.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue  # the process ended while being read
    return total_kib / 1024


def peak_memory(library: str, game: str, n: int) -> float:
    """Memory (MiB) ``library``'s envs add to a fresh interpreter.

    The largest of the process tree's PSS after construction and after 100 steps, minus the
    interpreter's own before.
    """
    code = (
        "import os, sys, warnings; warnings.simplefilter('ignore')\n"
        "sys.path.insert(0, 'benchmarks')\n"
        "import bench_atari\n"
        "before = bench_atari.tree_pss_mib(os.getpid())\n"
        f"envs = bench_atari.MAKERS[{library!r}]({game!r}, {n})\n"
        "built = bench_atari.tree_pss_mib(os.getpid())\n"
        f"bench_atari.rate(envs, {n}, 100)\n"
        "stepped = bench_atari.tree_pss_mib(os.getpid())\n"
        "print(max(built, stepped) - before)\n"
        "envs.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Measure and print a table of env-steps/s, ratios and memory."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="N=16 only, fewer steps")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    makers = dict(MAKERS)
    try:
        import envpool  # noqa: F401
    except ImportError:
        del makers["envpool"]
        print("envpool is not installed (pip install envpool==1.2.5): compared with Gymnasium only")
    sizes = (16,) if args.quick else (8, 16, 64)
    steps = STEPS // 4 if args.quick else STEPS
    results = []
    for game in GAMES:
        ceiling = emulator_ceiling(game)
        print(f"{game}: the bare emulator on every core allows {ceiling:.0f} env-steps/s")
        for n in sizes:
            built = {name: make(game, n) for name, make in makers.items()}
            best = dict.fromkeys(built, 0.0)
            for _ in range(ROUNDS):  # interleaved: a slow spell hits every library alike
                for name, envs in built.items():
                    best[name] = max(best[name], rate(envs, n, steps))
            for envs in built.values():
                envs.close()  # type: ignore[attr-defined]
            row = {"game": game, "n": n, "emulator ceiling": round(ceiling)}
            row.update({name: round(value) for name, value in best.items()})
            ratios = {
                f"x {name}": round(best["palaestra"] / best[name], 2) for name in best if name != "palaestra"
            }
            row.update(ratios)
            results.append(row)
            print(
                f"{game:9s} N={n:3d}  "
                + "  ".join(f"{name} {value:7.0f}" for name, value in best.items())
                + f" env-steps/s ({best['palaestra'] / ceiling:.0%} of the ceiling)   "
                + ", ".join(f"{value:.2f}{key}" for key, value in ratios.items())
            )
    memory = {name: round(peak_memory(name, "Pong", 16), 1) for name in makers}
    print("memory, Pong N=16 (MiB): " + ", ".join(f"{k} {v}" for k, v in memory.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rates": results, "memory_mib": memory}, f, indent=1)


if __name__ == "__main__":
    main()
