"""Atari 2600 games for palaestra, on the Arcade Learning Environment (ale-py).

``make("ALE/Pong-v5")`` (and every id ale-py registers with Gymnasium: ``PongNoFrameskip-v4``,
``Pong-v0``, ...) builds an :class:`AtariEnv`; ``make_vec("ALE/Pong-v5", 16)`` the natively
batched :class:`AtariVectorEnv` on ALE's C++ vector interface, with the standard
preprocessing. ``import palaestra_atari`` imports neither ale-py nor numpy.
"""

from palaestra.plugin import lazy_exports

__all__ = ["AtariEnv", "AtariVectorEnv"]

__getattr__ = lazy_exports(globals(), {"AtariEnv": "env", "AtariVectorEnv": "vector"})
