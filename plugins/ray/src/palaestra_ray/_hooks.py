"""Registration hook (import-cheap: Ray is imported only when a RayVectorEnv is built)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.plugin import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import VectorizerRegistrar


@hookimpl
def palaestra_register_vectorizers(registrar: VectorizerRegistrar) -> None:
    """Register ``"ray/actors"``: sub-envs in Ray actors, several per actor."""
    registrar.register("actors", "palaestra_ray:RayVectorEnv")
