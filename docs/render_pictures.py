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
}


def main() -> None:
    """Step each env a little from a fixed seed and save the frame as PNG."""
    OUT.mkdir(parents=True, exist_ok=True)
    for env_id, steps in SCENES.items():
        env = palaestra.make(env_id, render_mode="rgb_array")
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
