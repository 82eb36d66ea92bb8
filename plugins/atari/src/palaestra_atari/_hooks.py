"""Registration hooks (import-cheap: no ale-py, no numpy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.plugin import get_env_id, hookimpl, parse_env_id
from palaestra_atari._games import legacy_ids, v5_ids

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_PKG = "palaestra_atari"


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """``ALE/<Game>-v5`` in this plugin's namespace, the v0/v4 ids in the default one (as ale-py)."""
    v5 = {
        get_env_id(None, *parse_env_id(env_id)[1:]): {
            "entry_point": "env:AtariEnv",
            "vector_entry_point": "vector:AtariVectorEnv",
            "kwargs": kwargs,
        }
        for env_id, kwargs in v5_ids().items()
    }
    registrar.register_table(_PKG, v5)
    legacy = {
        env_id: {"entry_point": "env:AtariEnv", "kwargs": kwargs} for env_id, kwargs in legacy_ids().items()
    }
    registrar.register_table(_PKG, legacy, default_namespace=True)
