"""Registration hooks (import-cheap: no mujoco, no numpy)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.plugin import hookimpl

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
# The v4 ids: the same registration fields, the envs of palaestra_mujoco.v4.
_V4 = {env_id.replace("-v5", "-v4"): fields for env_id, fields in _ENVS.items()}
# The v2/v3 ids (mujoco-py): registered so that making one explains what to use instead.
_RETIRED = (
    "Reacher-v2",
    "Pusher-v2",
    "InvertedPendulum-v2",
    "InvertedDoublePendulum-v2",
    "HalfCheetah-v2",
    "HalfCheetah-v3",
    "Hopper-v2",
    "Hopper-v3",
    "Swimmer-v2",
    "Swimmer-v3",
    "Walker2d-v2",
    "Walker2d-v3",
    "Ant-v2",
    "Ant-v3",
    "Humanoid-v2",
    "Humanoid-v3",
    "HumanoidStandup-v2",
)


def _table() -> dict[str, dict[str, Any]]:
    """Every id's registration fields, entry points within the package."""
    table: dict[str, dict[str, Any]] = {}
    for version, ids in (("", _ENVS), ("V4", _V4)):
        for env_id, (entry_point, max_steps, threshold) in ids.items():
            module, name = entry_point.split(":")
            table[env_id] = {
                "entry_point": f"{'v4' if version else module}:{name}",
                "vector_entry_point": f"vector:{name.removesuffix('Env')}{version}VectorEnv",
                "max_episode_steps": max_steps,
                "reward_threshold": threshold,
            }
    for env_id in _RETIRED:
        table[env_id] = {"entry_point": "v4:retired", "kwargs": {"retired_id": env_id}}
    return table


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the MuJoCo suite in the default namespace, as Gymnasium does.

    Each v5 and v4 id's ``vector_entry_point`` is its batched env in
    :mod:`palaestra_mujoco.vector`; the v2/v3 ids raise an error naming their successors.
    """
    registrar.register_table(_PKG, _table(), default_namespace=True)
