"""MuJoCo environments for palaestra (registered in the default namespace).

Also, under Gymnasium's names: :class:`MujocoEnv` for your own models, the rendering classes
of :mod:`palaestra_mujoco.rendering` and the state helpers of :mod:`palaestra_mujoco.utils`.
Importing this package is cheap: ``mujoco`` itself is imported when an env is made.
"""

from palaestra.plugin import lazy_exports

__all__ = [
    "AntEnv",
    "HalfCheetahEnv",
    "HopperEnv",
    "HumanoidEnv",
    "HumanoidStandupEnv",
    "InvertedDoublePendulumEnv",
    "InvertedPendulumEnv",
    "MujocoEnv",
    "MujocoRenderer",
    "OffScreenViewer",
    "PusherEnv",
    "ReacherEnv",
    "SwimmerEnv",
    "Walker2dEnv",
    "WindowViewer",
]

# Env modules import mujoco: loaded on first access.
_WHERE = {
    "AntEnv": "ant",
    "HalfCheetahEnv": "half_cheetah",
    "HopperEnv": "hopper",
    "HumanoidEnv": "humanoid",
    "HumanoidStandupEnv": "humanoid",
    "InvertedDoublePendulumEnv": "inverted_double_pendulum",
    "InvertedPendulumEnv": "inverted_pendulum",
    "MujocoEnv": "mujoco_env",
    "MujocoRenderer": "rendering",
    "OffScreenViewer": "rendering",
    "WindowViewer": "rendering",
    "PusherEnv": "pusher",
    "ReacherEnv": "reacher",
    "SwimmerEnv": "swimmer",
    "Walker2dEnv": "walker2d",
}


__getattr__ = lazy_exports(globals(), _WHERE)
