"""The batched BipedalWalker's block: ``_stepping.WalkerKernel`` steps plain walkers together.

See :mod:`palaestra_box2d._kernel_block`. The kernel takes walkers (hardcore or not) without
a render mode whose lidar is the compiled one (it casts the same rays against the same
ground arrays); it keeps the last step's shaping, the contact flags, the camera's scroll
and the time limit's count, which :meth:`WalkerBlock.write_back` puts back. The motors'
torques and costs are float32, as numpy computes them for the float32 actions of the
batch; how numpy subtracts a float32 cost from a Python float (in float32 from numpy 2 on,
NEP 50) is read from numpy itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.plugin import TimeLimit
from palaestra_box2d import _lidar
from palaestra_box2d._kernel_block import KernelBlock, Probe, address, episode, restore_episode, world_hold
from palaestra_box2d._walker_scene import FPS, SCALE, VIEWPORT_H, VIEWPORT_W
from palaestra_box2d.bipedal_walker import (
    ENERGY_COST,
    FINISH_X,
    MOTORS_TORQUE,
    POSITION_ITERATIONS,
    SPEED_HIP,
    SPEED_KNEE,
    VELOCITY_ITERATIONS,
    BipedalWalker,
)

__all__ = ["WalkerBlock"]

# The env's constants in the order _walker_kernel.c takes them (the views as the step
# computes them).
KERNEL_RULES = tuple(
    float(value)
    for value in (
        SCALE,
        FPS,
        VIEWPORT_W / SCALE,
        VIEWPORT_H / SCALE,
        MOTORS_TORQUE,
        SPEED_HIP,
        SPEED_KNEE,
        ENERGY_COST,
        FINISH_X,
        VELOCITY_ITERATIONS,
        POSITION_ITERATIONS,
    )
)


class WalkerBlock(KernelBlock):
    """BipedalWalkers stepped in one compiled call per block."""

    kernel_name = "WalkerKernel"

    @classmethod
    def probes(cls) -> list[Probe]:
        """Walkers under random torques (motors, leg contacts, the lidar), a 50-step limit bringing resets."""

        def torques(rng: np.random.Generator, t: int) -> np.ndarray:
            return rng.uniform(-1.2, 1.2, (2, 4)).astype(np.float32)

        return [(_walker, torques)]

    @classmethod
    def takes(cls, env: Any) -> bool:
        return type(env) is BipedalWalker and env.render_mode is None and _lidar.compiled is not None

    def make_kernel(self, module: Any, n: int) -> Any:
        float32_reward = isinstance(1.0 - np.float32(0.5), np.float32)
        directions = np.array(_lidar.DIRECTIONS, dtype=np.float64)
        return module.WalkerKernel(n, KERNEL_RULES, directions, _lidar.compiled.cast_rays, float32_reward)

    def handover(self, env: BipedalWalker, limit: TimeLimit | None) -> tuple[Any, ...] | None:
        ground, hull = env._lidar.ground, env.hull
        if ground is None or hull is None or len(env.joints) != 4 or len(env.legs) != 4:
            return None
        feet = (env.legs[1], env.legs[3])  # the lower legs, whose contacts the observation shows
        return (
            world_hold(env.world),
            (address(hull), *map(address, env.joints), *map(address, feet)),
            ground,
            env.scroll,
            episode(env, feet, limit),
        )

    def write_back(self, env: BipedalWalker, limit: TimeLimit | None, state: tuple[Any, ...]) -> None:
        episode_state, env.scroll = state
        restore_episode(env, (env.legs[1], env.legs[3]), limit, episode_state)


def _walker() -> TimeLimit:
    return TimeLimit(BipedalWalker(), 50)
