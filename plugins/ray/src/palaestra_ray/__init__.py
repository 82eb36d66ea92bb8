"""A distributed vectorizer: palaestra sub-environments in Ray actors.

``make_vec(id, num_envs, vectorization_mode="ray/actors")`` or
``RayVectorEnv(env_fns)`` directly. Importing this package does not import Ray.
"""

from palaestra.plugin import lazy_exports

__all__ = ["ActorsNotPlacedError", "RayVectorEnv"]


# Ray takes a second to import: load it with the class, not with the package.
__getattr__ = lazy_exports(globals(), {"RayVectorEnv": "_vector", "ActorsNotPlacedError": "_placement"})
