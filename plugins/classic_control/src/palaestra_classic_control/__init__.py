"""Classic control environments for palaestra (registered in the default namespace)."""

from palaestra.plugin import lazy_exports

__all__ = ["AcrobotEnv", "CartPoleEnv", "Continuous_MountainCarEnv", "MountainCarEnv", "PendulumEnv"]

# Env modules load on first access, so `import palaestra_classic_control` stays cheap.
_WHERE = {
    "AcrobotEnv": "acrobot",
    "CartPoleEnv": "cartpole",
    "Continuous_MountainCarEnv": "continuous_mountain_car",
    "MountainCarEnv": "mountain_car",
    "PendulumEnv": "pendulum",
}


__getattr__ = lazy_exports(globals(), _WHERE)
