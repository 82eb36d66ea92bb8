"""The batched LunarLander's block: ``_stepping.LanderKernel`` steps plain landers together.

See :mod:`palaestra_box2d._kernel_block`. The kernel takes landers without wind or a render
mode, discrete or continuous (a block is one or the other); it draws the engines'
dispersion from each lander's own generator and keeps the last step's shaping, the contact
flags and the time limit's count, which :meth:`LanderBlock.write_back` puts back.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from palaestra.plugin import TimeLimit
from palaestra_box2d._kernel_block import KernelBlock, Probe, address, episode, restore_episode, world_hold
from palaestra_box2d._lander_scene import FPS, SCALE
from palaestra_box2d.lunar_lander import (
    DISCRETE_THROTTLES,
    HALF_H,
    HALF_W,
    LEG_DOWN,
    MAIN_ENGINE_POWER,
    MAIN_ENGINE_Y_LOCATION,
    POSITION_ITERATIONS,
    SIDE_ENGINE_AWAY,
    SIDE_ENGINE_HEIGHT,
    SIDE_ENGINE_POWER,
    SIDE_ENGINE_X,
    VELOCITY_ITERATIONS,
    LunarLander,
)

__all__ = ["LanderBlock"]

# The env's constants in the order _lander_kernel.c takes them.
KERNEL_RULES = tuple(
    float(value)
    for value in (
        SCALE,
        FPS,
        MAIN_ENGINE_POWER,
        SIDE_ENGINE_POWER,
        MAIN_ENGINE_Y_LOCATION,
        SIDE_ENGINE_AWAY,
        SIDE_ENGINE_HEIGHT,
        SIDE_ENGINE_X,
        LEG_DOWN,
        HALF_W,
        HALF_H,
        VELOCITY_ITERATIONS,
        POSITION_ITERATIONS,
    )
)
KERNEL_THROTTLES = tuple(value for throttle in DISCRETE_THROTTLES for value in throttle)


class LanderBlock(KernelBlock):
    """LunarLanders stepped in one compiled call per block."""

    kernel_name = "LanderKernel"

    @classmethod
    def probes(cls) -> list[Probe]:
        """Discrete landers (one drifting down to land or crash, one firing at random) and continuous ones.

        A time limit of 60 steps ends the episodes the probe does not, so resets come in.
        """

        def discrete(rng: np.random.Generator, t: int) -> np.ndarray:
            return np.array([0 if t < 70 else 2, rng.integers(0, 4)], dtype=np.int64)

        def continuous(rng: np.random.Generator, t: int) -> np.ndarray:
            return rng.uniform(-1.2, 1.2, (2, 2)).astype(np.float32)

        return [
            (functools.partial(_lander, False), discrete),
            (functools.partial(_lander, True), continuous),
        ]

    @classmethod
    def takes(cls, env: Any) -> bool:
        return type(env) is LunarLander and env.render_mode is None and not env.enable_wind

    def fits(self) -> bool:
        """Landers the kernel takes, all with discrete actions or all continuous."""
        return super().fits() and len({env.continuous for env, _ in self._parts}) == 1

    def make_kernel(self, module: Any, n: int) -> Any:
        return module.LanderKernel(n, KERNEL_RULES, KERNEL_THROTTLES, self._parts[0][0].continuous)

    def handover(self, env: LunarLander, limit: TimeLimit | None) -> tuple[Any, ...] | None:
        world, hull = env.world, env.lander
        if world is None or hull is None or len(env.legs) != 2:
            return None
        left, right = env.legs
        return (
            world_hold(world),
            (address(hull), address(left), address(right)),
            env.np_random.bit_generator.capsule,
            env.helipad_y,
            episode(env, (left, right), limit),
        )

    def write_back(self, env: LunarLander, limit: TimeLimit | None, state: tuple[Any, ...]) -> None:
        restore_episode(env, (env.legs[0], env.legs[1]), limit, state)


def _lander(continuous: bool) -> TimeLimit:
    return TimeLimit(LunarLander(continuous=continuous), 60)
