"""Which entry points a spec from an untrusted source may name.

``make`` imports a spec's entry-point modules and calls what they name, so a spec is code.
For specs read from data the user does not control (``EnvSpec.from_json(...,
allow_import=False)``), only entry points inside installed palaestra plugins are accepted
(and, for wrappers, palaestra's own ``palaestra.wrappers``). The check reads installed
metadata through discovery and imports nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from palaestra._base._wrapper_spec import WrapperSpec
from palaestra._discovery._discovery import discover

__all__ = ["refuse_untrusted_entry_points"]

_CORE_WRAPPERS = "palaestra.wrappers"


def _plugin_packages() -> set[str]:
    """Top-level packages of installed plugins' entry-point modules (never palaestra's core)."""
    records = (r for records in discover().plugins.values() for r in records)
    return {r.module.partition(".")[0] for r in records if r.module} - {"palaestra"}


def _inside(entry_point: str, packages: set[str], extra: tuple[str, ...] = ()) -> bool:
    module = entry_point.partition(":")[0]
    return module.partition(".")[0] in packages or any(
        module == prefix or module.startswith(prefix + ".") for prefix in extra
    )


def refuse_untrusted_entry_points(
    env_id: str, entry_point: Any, vector_entry_point: Any, wrappers: Iterable[WrapperSpec]
) -> None:
    """Raise unless every entry point of spec ``env_id`` lies inside an installed plugin.

    Args:
        env_id: The spec's id (for the message).
        entry_point: Its ``entry_point``.
        vector_entry_point: Its ``vector_entry_point``.
        wrappers: Its ``additional_wrappers``.

    Raises:
        ValueError: An entry point (named in the message) is outside installed plugins.
    """
    packages = _plugin_packages()
    named: list[tuple[str, Any, tuple[str, ...]]] = [
        ("entry_point", entry_point, ()),
        ("vector_entry_point", vector_entry_point, ()),
    ]
    named += [(f"wrapper {w.name!r}", w.entry_point, (_CORE_WRAPPERS,)) for w in wrappers]
    for field, value, extra in named:
        if value is None:
            continue
        if not isinstance(value, str) or not _inside(value, packages, extra):
            raise ValueError(
                f"{env_id}: the {field} {value!r} is outside the installed palaestra plugins, and "
                "from_json was called with allow_import=False. A spec names code that make() imports "
                "and runs: load specs from untrusted sources only with allow_import=False, and "
                "allow_import=True only for specs you trust."
            )
