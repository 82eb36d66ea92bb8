"""A distributed vectorizer: palaestra sub-environments in Ray actors.

``make_vec(id, num_envs, vectorization_mode="ray/actors")`` or
``RayVectorEnv(env_fns)`` directly. Importing this package does not import Ray.
"""

from typing import Any

__all__ = ["RayVectorEnv"]


def __getattr__(name: str) -> Any:
    # Ray takes a second to import: load it with the class, not with the package.
    if name == "RayVectorEnv":
        from palaestra_ray._vector import RayVectorEnv

        return RayVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
