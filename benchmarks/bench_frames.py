"""Frames per second of ``render()`` against Gymnasium 1.4.0, the same env side by side.

Each env is made with ``render_mode="rgb_array"`` on both sides, reset with the same seed
and stepped with the same random actions; a round times ``render()`` alone over a short
seeded run (stepping between frames is not timed), alternating between the two libraries;
the best round of each counts. The frames are identical (``tests/plugins/test_frames.py``,
``tests/plugins/mujoco/test_frames.py``), so this compares the same work.

Goal (issue "Gymnasium's frames, pixel for pixel"): frames/s >= Gymnasium's for every env.

Usage: ``python benchmarks/bench_frames.py [--ids A,B] [--frames 60] [--rounds 5]``
(MuJoCo needs ``MUJOCO_GL=egl`` or ``osmesa``; it is set to ``egl`` when unset).
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("MUJOCO_GL", "egl")

import gymnasium
import numpy as np

import palaestra

CASES = {
    "CartPole-v1": {},
    "MountainCar-v0": {},
    "MountainCarContinuous-v0": {},
    "Pendulum-v1": {},
    "Acrobot-v1": {},
    "LunarLander-v3": {},
    "BipedalWalker-v3": {},
    "BipedalWalker-v3 hardcore": {"hardcore": True},
    "HalfCheetah-v5": {},
    "Ant-v5": {},
    "Humanoid-v5": {},
    "InvertedPendulum-v5": {},
}


def _gymnasium_frame(env: gymnasium.Env) -> np.ndarray:
    """Gymnasium's MuJoCo viewer draws into whichever OpenGL context is current: make its own so."""
    renderer = getattr(env.unwrapped, "mujoco_renderer", None)
    viewer = None if renderer is None else renderer._viewers.get("rgb_array")
    if viewer is not None:
        viewer.make_context_current()
    return env.render()


def render_time(env: object, frame: object, actions: list, seed: int) -> float:
    """Seconds spent in ``frame(env)`` over a seeded run of ``len(actions)`` steps."""
    env.reset(seed=seed)
    spent = 0.0
    for action in actions:
        start = time.perf_counter()
        frame(env)
        spent += time.perf_counter() - start
        if env.step(action)[2]:
            env.reset()
    return spent / len(actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ids", default=",".join(CASES))
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{'env':28s} {'gymnasium fps':>14s} {'palaestra fps':>14s} {'ratio':>7s}")
    for name in args.ids.split(","):
        env_id, kwargs = name.split(" ")[0], CASES[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = gymnasium.make(env_id, render_mode="rgb_array", **kwargs)
            ours = palaestra.make(env_id, render_mode="rgb_array", **kwargs)
        theirs.action_space.seed(0)
        actions = [theirs.action_space.sample() for _ in range(args.frames)]
        best = [float("inf"), float("inf")]
        for _ in range(args.rounds):
            best[0] = min(best[0], render_time(theirs, _gymnasium_frame, actions, 0))
            best[1] = min(best[1], render_time(ours, type(ours).render, actions, 0))
        ratio = best[0] / best[1]
        print(f"{name:28s} {1 / best[0]:14.0f} {1 / best[1]:14.0f} {ratio:6.2f}x", flush=True)
        theirs.close()
        ours.close()


if __name__ == "__main__":
    main()
