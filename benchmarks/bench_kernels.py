"""Each compiled speed trick against the plain rule it stands in for, on the env's own step.

A suite keeps an accelerated copy of a rule only where it buys at least 1.3x on the step
(docs/architecture.md, "One rule per env"); this prints each ratio (plain time / compiled
time) with that goal. The plain side is the same env with the compiled path switched off
at its seam, so both sides give the same numbers (tests/plugins/classic_control/
test_kernels.py holds them bit for bit).

Removed when measured here: the classic-control Python float32 emulation of
MountainCarContinuous (its compiled twin stays), batched CartPole's in-place array path
(1.04-1.07x at N=256-1024) and Python loop (1.01x at N=16), and MuJoCo's compiled control
cost (1.01-1.08x on HalfCheetah, Hopper, Ant, Humanoid).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

import palaestra

sys.path.insert(0, str(Path(__file__).parent))
from _common import per_call

GOAL = 1.3


def batched(env_id: str, n: int) -> Callable[[], object]:
    """A natively batched env with a discrete action space stepped with pre-drawn actions."""
    env = palaestra.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point")
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, env.single_action_space.n, (16, n))
    turn = [0]

    def step() -> None:
        turn[0] = (turn[0] + 1) & 15
        env.step(actions[turn[0]])

    return step


def mountain_car_continuous() -> Callable[[], object]:
    """One MountainCarContinuous (unwrapped) stepped with float32 forces, reset at the goal."""
    env = palaestra.make("MountainCarContinuous-v0").unwrapped
    env.reset(seed=0)
    forces = [np.array([f], np.float32) for f in np.random.default_rng(0).uniform(-1, 1, 1024)]
    turn = [0]

    def step() -> None:
        turn[0] = (turn[0] + 1) & 1023
        if env.step(forces[turn[0]])[2]:
            env.reset()

    return step


@contextmanager
def switched_off(module: object, name: str) -> Iterator[None]:
    """The compiled path at one seam replaced by None (the plain rule runs instead)."""
    kept = getattr(module, name)
    setattr(module, name, None)
    try:
        yield
    finally:
        setattr(module, name, kept)


def compare(
    label: str, make_step: Callable[[], Callable[[], object]], seam: tuple[object, str], number: int
) -> None:
    """Best-of-7 alternating runs of the compiled and the plain step; print the ratio."""
    compiled_step = make_step()
    with switched_off(*seam):
        plain_step = make_step()
    best = {"compiled": float("inf"), "plain": float("inf")}
    for _ in range(7):
        best["compiled"] = min(best["compiled"], per_call(compiled_step, number, 1))
        with switched_off(*seam):
            best["plain"] = min(best["plain"], per_call(plain_step, number, 1))
    ratio = best["plain"] / best["compiled"]
    verdict = "ok" if ratio >= GOAL else f"BELOW GOAL {GOAL}x: the compiled copy should go"
    print(
        f"{label:44s} plain {best['plain'] * 1e6:8.2f}us  compiled {best['compiled'] * 1e6:8.2f}us  "
        f"x{ratio:5.2f}  {verdict}"
    )


def main() -> None:
    """Print each kept compiled path's speed-up over its rule."""
    from palaestra_classic_control import _kernels

    if _kernels.compiled is None:
        print("palaestra_classic_control._compiled is not built (no C compiler): nothing to compare")
        return
    for n in (16, _kernels.COMPILED_BATCH):
        for env_id in ("CartPole-v1", "Acrobot-v1"):
            compare(
                f"{env_id} batched step, N={n}",
                lambda e=env_id, n=n: batched(e, n),
                (_kernels, "compiled"),
                2000,
            )
    compare("MountainCarContinuous step", mountain_car_continuous, (_kernels, "compiled_move"), 20000)


if __name__ == "__main__":
    main()
