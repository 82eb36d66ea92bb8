"""palaestra's plugin hooks for the Gymnasium bridge (import-cheap: no Gymnasium).

A module of its own, outside the ``palaestra_gymnasium`` package: importing that package
imports Gymnasium and registers palaestra's ids there, which palaestra must not pay for
when it only discovers what this plugin offers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from palaestra.plugin import hookimpl

if TYPE_CHECKING:
    from palaestra.plugin import EnvRegistrar
from palaestra.error import DependencyNotInstalled


@hookimpl
def palaestra_resolve_env(env_id: str, registrar: EnvRegistrar) -> None:
    """Register ``gymnasium/<Gymnasium id>`` from Gymnasium's registry when it is asked for."""
    try:
        from palaestra_gymnasium._registries import resolve
    except ImportError as e:
        if not (e.name or "").startswith("gymnasium"):
            raise
        raise DependencyNotInstalled(
            f"{env_id!r} comes from Gymnasium's registry, and Gymnasium is not installed. "
            'Install the bridge with its dependencies: pip install "palaestra[gymnasium]"'
        ) from e
    resolve(env_id, registrar)
