"""Render one picture per environment into docs/_static/envs (run: uv run python docs/render_pictures.py)."""

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np
import pygame

import palaestra

OUT = Path(__file__).parent / "_static" / "envs"
SCENES = {
    "CartPole-v1": 8,
    "MountainCar-v0": 40,
    "MountainCarContinuous-v0": 40,
    "Pendulum-v1": 12,
    "Acrobot-v1": 10,
    "Blackjack-v1": 0,
    "Taxi-v4": 6,
    "CliffWalking-v1": 5,
    "FrozenLake-v1": 4,
    "FrozenLake8x8-v1": 6,
    "LunarLander-v3": 60,
    "BipedalWalker-v3": 40,
    "BipedalWalkerHardcore-v3": 120,
    "CarRacing-v3": 80,
    "Ant-v5": 30,
    "HalfCheetah-v5": 40,
    "Hopper-v5": 20,
    "Humanoid-v5": 10,
    "HumanoidStandup-v5": 20,
    "InvertedPendulum-v5": 3,
    "InvertedDoublePendulum-v5": 3,
    "Pusher-v5": 30,
    "Reacher-v5": 20,
    "Swimmer-v5": 60,
    "Walker2d-v5": 20,
}
# MuJoCo frames are rendered at this size (their default is 480x480).
SIZES = {env_id: {"width": 320, "height": 240} for env_id in SCENES if env_id.endswith("-v5")}


def main() -> None:
    """Step each env a little from a fixed seed and save the frame as PNG."""
    OUT.mkdir(parents=True, exist_ok=True)
    for env_id, steps in SCENES.items():
        env = palaestra.make(env_id, render_mode="rgb_array", **SIZES.get(env_id, {}))
        env.reset(seed=1)
        env.action_space.seed(1)
        for _ in range(steps):
            env.step(env.action_space.sample())
        frame = env.render()
        surface = pygame.surfarray.make_surface(np.transpose(frame, (1, 0, 2)))
        pygame.image.save(surface, str(OUT / f"{env_id.split('-')[0]}.png"))
        env.close()


if __name__ == "__main__":
    main()
