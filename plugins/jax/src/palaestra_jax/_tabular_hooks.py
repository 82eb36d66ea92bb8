"""Registration of the ``tabular`` namespace (import-cheap: no jax, no numpy)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra.plugin import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_jax"

# id -> registration fields; Gymnasium 1.4.0 registers them without a time limit or vector version.
_ENVS: dict[str, dict[str, Any]] = {
    "tabular/Blackjack-v0": {"entry_point": "blackjack:BlackJackJaxEnv", "disable_env_checker": True},
    "tabular/CliffWalking-v0": {
        "entry_point": "cliffwalking:CliffWalkingJaxEnv",
        "disable_env_checker": True,
    },
}


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """Register the JAX table-game envs under ``tabular/``, as Gymnasium does."""
    registrar.register_table(_PKG, _ENVS)
