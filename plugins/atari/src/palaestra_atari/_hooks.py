"""Registration hooks (import-cheap: no ale-py, no numpy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra import hookimpl
from palaestra_atari._games import legacy_ids, v5_ids

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar

_ENV = "palaestra_atari.env:AtariEnv"
_VECTOR = "palaestra_atari.vector:AtariVectorEnv"


@hookimpl
def palaestra_register_envs(registrar: EnvRegistrar) -> None:
    """``ALE/<Game>-v5`` in this plugin's namespace, the v0/v4 ids in the default one (as ale-py)."""
    for env_id, kwargs in v5_ids().items():
        registrar.register(env_id.removeprefix("ALE/"), _ENV, vector_entry_point=_VECTOR, kwargs=kwargs)
    for env_id, kwargs in legacy_ids().items():
        registrar.register(env_id, _ENV, kwargs=kwargs, default_namespace=True)
