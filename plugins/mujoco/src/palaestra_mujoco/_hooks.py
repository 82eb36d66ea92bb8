"""Registration hooks (import-cheap: no mujoco, no numpy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_mujoco"

# id -> (module:class, max_episode_steps, reward_threshold); Gymnasium 1.4.0's values.
_ENVS = {
    "Reacher-v5": ("reacher:ReacherEnv", 50, -3.75),
    "Pusher-v5": ("pusher:PusherEnv", 100, 0.0),
    "InvertedPendulum-v5": ("inverted_pendulum:InvertedPendulumEnv", 1000, 950.0),
    "InvertedDoublePendulum-v5": ("inverted_double_pendulum:InvertedDoublePendulumEnv", 1000, 9100.0),
    "HalfCheetah-v5": ("half_cheetah:HalfCheetahEnv", 1000, 4800.0),
    "Hopper-v5": ("hopper:HopperEnv", 1000, 3800.0),
    "Swimmer-v5": ("swimmer:SwimmerEnv", 1000, 360.0),
    "Walker2d-v5": ("walker2d:Walker2dEnv", 1000, None),
    "Ant-v5": ("ant:AntEnv", 1000, 6000.0),
    "Humanoid-v5": ("humanoid:HumanoidEnv", 1000, None),
    "HumanoidStandup-v5": ("humanoid:HumanoidStandupEnv", 1000, None),
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the MuJoCo suite in the default namespace, as Gymnasium does.

    Each id's ``vector_entry_point`` is its batched env in :mod:`palaestra_mujoco.vector`.
    """
    for env_id, (entry_point, max_steps, threshold) in _ENVS.items():
        batched = entry_point.split(":")[1].removesuffix("Env") + "VectorEnv"
        registrar.register(
            env_id,
            f"{_PKG}.{entry_point}",
            vector_entry_point=f"{_PKG}.vector:{batched}",
            default_namespace=True,
            max_episode_steps=max_steps,
            reward_threshold=threshold,
        )
