"""MuJoCo environments for palaestra (registered in the default namespace).

Importing this package is cheap: ``mujoco`` itself is imported when an env is made.
"""

from typing import Any

__all__ = [
    "AntEnv",
    "HalfCheetahEnv",
    "HopperEnv",
    "HumanoidEnv",
    "HumanoidStandupEnv",
    "InvertedDoublePendulumEnv",
    "InvertedPendulumEnv",
    "MujocoEnv",
    "PusherEnv",
    "ReacherEnv",
    "SwimmerEnv",
    "Walker2dEnv",
]

_WHERE = {
    "AntEnv": "ant",
    "HalfCheetahEnv": "half_cheetah",
    "HopperEnv": "hopper",
    "HumanoidEnv": "humanoid",
    "HumanoidStandupEnv": "humanoid",
    "InvertedDoublePendulumEnv": "inverted_double_pendulum",
    "InvertedPendulumEnv": "inverted_pendulum",
    "MujocoEnv": "mujoco_env",
    "PusherEnv": "pusher",
    "ReacherEnv": "reacher",
    "SwimmerEnv": "swimmer",
    "Walker2dEnv": "walker2d",
}


def __getattr__(name: str) -> Any:
    # Env modules import mujoco; load them only when asked for.
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
