"""JAX functional environments for palaestra: ``phys2d/...`` and ``tabular/...``.

Each env is a :class:`~palaestra.experimental.functional.FuncEnv` (pure functions of an
explicit state, ready for ``jax.jit``, ``jax.vmap`` and ``jax.lax.scan``) run by the
adapters :class:`FunctionalJaxEnv` and :class:`FunctionalJaxVectorEnv`. Importing this
package is cheap: jax is imported when an env is made or a name below is used.
"""

from palaestra.plugin import lazy_exports

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

# Env modules import jax: loaded on first access.
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


__getattr__ = lazy_exports(globals(), _WHERE)
