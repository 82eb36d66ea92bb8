"""Batched MuJoCo envs vs EnvPool and Gymnasium, in one run.

For each id at N=16: palaestra's batched env (``make_vec(id, 16)``, default threads), the
same with ``num_workers=1``, palaestra's ``SyncVectorEnv``, Gymnasium's ``SyncVectorEnv``
and EnvPool 1.2.5 (``envpool.make_gymnasium(id, num_envs=16)``, its default threads; a
benchmark-only dependency: ``pip install envpool==1.2.5``, skipped when absent).

Every round resets with seed 0 and plays the same actions; rounds alternate between the
contenders and the best round of each counts. palaestra and Gymnasium simulate the same
states (same numbers). EnvPool ships its own models and MuJoCo build, so its trajectories
differ: the comparison is like for like in work per step only on average.

Goals (N=16): batched >= 1.1x EnvPool and >= 2x Gymnasium's sync; ``num_workers=1`` >=
1.3x palaestra's own sync.

Also measured, as the ceiling of any MuJoCo vector env on this machine: "physics only",
MuJoCo 4's ``mujoco.batch`` stepping 16 copies of the model with the same controls and no
env around it (no observations, rewards or resets; a fallen robot keeps lying there, so
the work per step is only like the envs' on average).

``--scaling`` also measures N in (4, 16, 64, 256) for 1 and 2 threads and writes
``docs/_static/mujoco_scaling.png`` (matplotlib) and a table for the suite's docs page.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

os.environ.setdefault("MUJOCO_GL", "egl")

import gymnasium

import palaestra

try:
    import envpool
except ImportError:  # benchmark-only dependency
    envpool = None

IDS = ["HalfCheetah-v5", "Hopper-v5", "Ant-v5", "Humanoid-v5"]
STEPS = 200
ROOT = Path(__file__).resolve().parent.parent


def play(env, actions) -> float:
    """Seconds to play ``actions`` from ``reset(seed=0)``."""
    env.reset(seed=0)
    start = time.perf_counter()
    for batch in actions:
        env.step(batch)
    return time.perf_counter() - start


def best_rates(contenders: dict[str, object], actions, rounds: int) -> dict[str, float]:
    """Env-steps per second of each contender, best of ``rounds`` alternating rounds."""
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(rounds):
        for name, env in contenders.items():
            best[name] = min(best[name], play(env, actions))
    steps = actions.shape[0] * actions.shape[1]
    return {name: steps / seconds for name, seconds in best.items()}


def actions_for(env_id: str, num_envs: int, steps: int = STEPS) -> np.ndarray:
    probe = palaestra.make(env_id)
    rng = np.random.default_rng(0)
    low, high = probe.action_space.low, probe.action_space.high
    return rng.uniform(low, high, size=(steps, num_envs, *probe.action_space.shape)).astype(np.float32)


class PhysicsOnly:
    """MuJoCo alone: ``num_envs`` simulations of the env's model in one ``mujoco.batch.Batch``."""

    def __init__(self, env_id: str, num_envs: int) -> None:
        import mujoco.batch

        env = palaestra.make(env_id).unwrapped
        self.frame_skip = env.frame_skip
        self.batch = mujoco.batch.Batch(env.model, num_envs, nthread=0, persistent=True)
        self.ctrl = self.batch.bind("ctrl")

    def reset(self, seed: int | None = None) -> None:
        """Every simulation back to the model's initial state (no noise)."""
        self.batch.reset()

    def step(self, actions: np.ndarray) -> None:
        """Set the controls and advance every simulation by ``frame_skip`` physics steps."""
        self.ctrl[:] = actions
        self.batch.step(None, self.frame_skip)

    def close(self) -> None:
        """Release the batch and its threads."""
        del self.batch


def compare(env_id: str, rounds: int) -> None:
    n = 16
    contenders = {
        "batched": palaestra.make_vec(env_id, n),
        "batched 1 thread": palaestra.make_vec(env_id, n, vector_kwargs={"num_workers": 1}),
        "palaestra sync": palaestra.make_vec(env_id, n, vectorization_mode="sync"),
        "gymnasium sync": gymnasium.make_vec(env_id, n, vectorization_mode="sync"),
    }
    if envpool is not None:
        contenders["envpool"] = envpool.make_gymnasium(env_id, num_envs=n)
    contenders["physics only"] = PhysicsOnly(env_id, n)
    rates = best_rates(contenders, actions_for(env_id, n), rounds)
    batched, single = rates["batched"], rates["batched 1 thread"]
    print(f"{env_id} (N={n}, env-steps/s): " + ", ".join(f"{k} {v:,.0f}" for k, v in rates.items()))
    checks = [("batched / gymnasium sync", batched / rates["gymnasium sync"], 2.0)]
    if envpool is not None:
        checks.append(("batched / envpool", batched / rates["envpool"], 1.1))
    checks.append(("1 thread / palaestra sync", single / rates["palaestra sync"], 1.3))
    print(
        f"    batched / physics only         x{batched / rates['physics only']:5.2f}  (how close to MuJoCo alone)"
    )
    for label, ratio, goal in checks:
        verdict = "ok" if ratio >= goal else f"BELOW GOAL {goal:g}x"
        print(f"    {label:28s} x{ratio:5.2f}  {verdict}")
    for env in contenders.values():
        env.close()


def scaling(rounds: int) -> None:
    sizes, threads = (4, 16, 64, 256), (1, 2)
    table: dict[str, dict[tuple[int, int], float]] = {}
    for env_id in IDS:
        table[env_id] = {}
        for n in sizes:
            actions = actions_for(env_id, n, steps=max(20, 3200 // n))
            envs = {t: palaestra.make_vec(env_id, n, vector_kwargs={"num_workers": t}) for t in threads}
            rates = best_rates({str(t): env for t, env in envs.items()}, actions, rounds)
            for t in threads:
                table[env_id][(n, t)] = rates[str(t)]
                envs[t].close()
    print("\n| env | " + " | ".join(f"N={n}, {t} thr" for n in sizes for t in threads) + " |")
    print("|---|" + "---:|" * (len(sizes) * len(threads)))
    for env_id, row in table.items():
        print(f"| {env_id} | " + " | ".join(f"{row[(n, t)]:,.0f}" for n in sizes for t in threads) + " |")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
        return
    fig, axes = plt.subplots(1, len(IDS), figsize=(4 * len(IDS), 3.2), sharex=True)
    for ax, (env_id, row) in zip(axes, table.items(), strict=True):
        for t in threads:
            ax.plot(sizes, [row[(n, t)] for n in sizes], marker="o", label=f"{t} thread{'s' * (t > 1)}")
        ax.set_xscale("log", base=2)
        ax.set_title(env_id)
        ax.set_xlabel("num_envs")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("env-steps / s")
    axes[0].legend()
    fig.tight_layout()
    out = ROOT / "docs" / "_static" / "mujoco_scaling.png"
    fig.savefig(out, dpi=80)
    print(f"plot written to {out}")


def main() -> None:
    warnings.simplefilter("ignore")
    rounds = int(os.environ.get("BENCH_ROUNDS", "5"))
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if envpool is None:
        print("envpool is not installed (pip install envpool==1.2.5): measuring without it")
    for env_id in args or IDS:
        compare(env_id, rounds)
    if "--scaling" in sys.argv:
        scaling(max(2, rounds // 2))


if __name__ == "__main__":
    main()
