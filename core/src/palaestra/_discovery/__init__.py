"""Layer 2, what is installed: the declarations discovery reads, and the records it returns.

Entry points and declared ids read from installed metadata (with a cache), compatibility,
provenance and ownership. Imports no plugin. The records live here, in the package itself,
because every process that makes an env reads them (from the cache); the scanner that
fills them (:mod:`._scan`) runs only when the cache is missing or stale.
"""

from __future__ import annotations

import os

from palaestra._base._plain import Record

__all__ = [
    "GROUP",
    "IDS_GROUP",
    "NAMES_GROUP",
    "VECTORIZERS_GROUP",
    "Declarations",
    "PluginRecord",
    "info_folders",
    "wildcard_prefix",
]

#: Entry-point group of plugins: ``namespace = hook.module``.
GROUP = "palaestra.plugins"
#: Entry-point group of default-namespace env names: ``EnvName = namespace``.
NAMES_GROUP = "palaestra.default_names"
#: Entry-point group of env ids: ``"ns/Env-v0" = namespace`` (``"ns/*"``: ids resolved on demand).
IDS_GROUP = "palaestra.env_ids"
#: Entry-point group of vectorizers: ``"ns/name" = namespace`` (listings show them unloaded).
VECTORIZERS_GROUP = "palaestra.vectorizers"
_INFO_SUFFIXES = (".dist-info", ".egg-info")


# Plain classes, not dataclasses or NamedTuples (each costs a fraction of a millisecond to
# create), as this module is imported by every process that makes an env.
class PluginRecord(Record):
    """One declared plugin, a named tuple: its namespace, module and declaring distribution.

    Attributes:
        namespace: The plugin's namespace (its entry point's name).
        module: Its hook module.
        distribution: The distribution declaring it.
        version: That distribution's version.
        requires: Its ``palaestra`` version specifier, if it states one.
    """

    __slots__ = ()
    _fields = ("namespace", "module", "distribution", "version", "requires")
    namespace: str
    module: str
    distribution: str
    version: str
    requires: str

    def __new__(
        cls, namespace: str, module: str, distribution: str, version: str, requires: str = ""
    ) -> PluginRecord:
        return tuple.__new__(cls, (namespace, module, distribution, version, requires))


class Declarations:
    """What installed distributions declare, read without running any plugin code.

    Attributes:
        plugins: Namespace -> the plugins declaring it (more than one is a conflict).
        names: Default-namespace env name -> the plugins declaring it (likewise); the names
            of un-namespaced declared ids are among them.
        ids: Each plugin that declares env ids, with its ids in declaration order (a
            ``"ns/*"`` entry says the plugin resolves ``ns/...`` ids on demand).
        vectorizers: Declared vectorizer names -> the plugin providing each.
        retired: Declared ids marked retired (``"Ant-v2" = "mujoco:retired"``): making them
            says what replaced them, so listings show them apart.
        files: The ``entry_points.txt`` files the declarations came from.
        core_version: The installed ``palaestra``'s version ("" if not found on the path).
        incompatible: Each version specifier plugins state that ``core_version`` falls
            outside -> why (decided when scanning, so a cached start compiles no regex).
    """

    def __init__(
        self,
        plugins: dict[str, list[PluginRecord]] | None = None,
        names: dict[str, list[PluginRecord]] | None = None,
        ids: list[tuple[PluginRecord, tuple[str, ...]]] | None = None,
        files: list[str] | None = None,
        core_version: str = "",
        retired: set[str] | None = None,
        vectorizers: dict[str, PluginRecord] | None = None,
        incompatible: dict[str, str] | None = None,
    ) -> None:
        self.plugins = {} if plugins is None else plugins
        self.names = {} if names is None else names
        self.ids = [] if ids is None else ids
        self.files = [] if files is None else files
        self.core_version = core_version
        self.retired = set() if retired is None else retired
        self.vectorizers = {} if vectorizers is None else vectorizers
        self.incompatible = {} if incompatible is None else incompatible


def wildcard_prefix(env_id: str) -> str | None:
    """``"ns/"`` for a declared ``"ns/*"`` (ids of ``ns`` resolved on demand), else None."""
    return env_id[:-1] if env_id.endswith("/*") else None


def info_folders(entry: str) -> list[str]:
    """The names of the distribution metadata folders in path folder ``entry``, sorted."""
    try:
        with os.scandir(entry or ".") as listing:
            return sorted(e.name for e in listing if e.name.endswith(_INFO_SUFFIXES) and e.is_dir())
    except OSError:  # a missing folder, a zip file, no permission
        return []
