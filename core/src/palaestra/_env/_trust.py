"""Which entry points a spec from an untrusted source may name.

``make`` imports a spec's entry-point modules and calls what they name, so a spec is code.
For specs read from data the user does not control (``EnvSpec.from_json(...,
allow_import=False)``), only entry points inside installed palaestra plugins are accepted
(and, for wrappers, palaestra's own ``palaestra.wrappers``). The check reads installed
metadata through discovery and imports nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from palaestra._discovery._discovery import discover

if TYPE_CHECKING:
    from palaestra._env._spec import EnvSpec

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


def refuse_untrusted_entry_points(spec: EnvSpec) -> None:
    """Raise unless every entry point of ``spec`` lies inside an installed plugin.

    Raises:
        ValueError: An entry point (named in the message) is outside installed plugins.
    """
    packages = _plugin_packages()
    named: list[tuple[str, Any, tuple[str, ...]]] = [
        ("entry_point", spec.entry_point, ()),
        ("vector_entry_point", spec.vector_entry_point, ()),
    ]
    named += [(f"wrapper {w.name!r}", w.entry_point, (_CORE_WRAPPERS,)) for w in spec.additional_wrappers]
    for field, value, extra in named:
        if value is None:
            continue
        if not isinstance(value, str) or not _inside(value, packages, extra):
            raise ValueError(
                f"{spec.id}: the {field} {value!r} is outside the installed palaestra plugins, and "
                "from_json was called with allow_import=False. A spec names code that make() imports "
                "and runs: load specs from untrusted sources only with allow_import=False, and "
                "allow_import=True only for specs you trust."
            )
