"""JAX functional environments for palaestra: ``phys2d/...`` and ``tabular/...``.

Each env is a :class:`~palaestra.experimental.functional.FuncEnv` (pure functions of an
explicit state, ready for ``jax.jit``, ``jax.vmap`` and ``jax.lax.scan``) run by the
adapters :class:`FunctionalJaxEnv` and :class:`FunctionalJaxVectorEnv`. Importing this
package is cheap: jax is imported when an env is made or a name below is used.
"""

from typing import Any

__all__ = [
    "BlackJackJaxEnv",
    "BlackjackFunctional",
    "CartPoleFunctional",
    "CartPoleJaxEnv",
    "CartPoleJaxVectorEnv",
    "CliffWalkingFunctional",
    "CliffWalkingJaxEnv",
    "FunctionalJaxEnv",
    "FunctionalJaxVectorEnv",
    "PendulumFunctional",
    "PendulumJaxEnv",
    "PendulumJaxVectorEnv",
]

_WHERE = {
    "BlackJackJaxEnv": "blackjack",
    "BlackjackFunctional": "blackjack",
    "CartPoleFunctional": "cartpole",
    "CartPoleJaxEnv": "cartpole",
    "CartPoleJaxVectorEnv": "cartpole",
    "CliffWalkingFunctional": "cliffwalking",
    "CliffWalkingJaxEnv": "cliffwalking",
    "FunctionalJaxEnv": "functional_jax_env",
    "FunctionalJaxVectorEnv": "functional_jax_env",
    "PendulumFunctional": "pendulum",
    "PendulumJaxEnv": "pendulum",
    "PendulumJaxVectorEnv": "pendulum",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
