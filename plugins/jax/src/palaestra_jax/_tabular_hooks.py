"""Registration of the ``tabular`` namespace (import-cheap: no jax, no numpy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_jax"

# id -> module:class; Gymnasium 1.4.0 registers them without a time limit or vector version.
_ENVS = {
    "tabular/Blackjack-v0": "blackjack:BlackJackJaxEnv",
    "tabular/CliffWalking-v0": "cliffwalking:CliffWalkingJaxEnv",
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the JAX table-game envs under ``tabular/``, as Gymnasium does."""
    for env_id, entry_point in _ENVS.items():
        registrar.register(env_id, f"{_PKG}.{entry_point}", disable_env_checker=True)
