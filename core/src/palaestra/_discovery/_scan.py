"""Reading palaestra's entry points straight from installed metadata folders.

``importlib.metadata`` parses every distribution's METADATA to learn its name (and costs
tens of milliseconds to import); discovery needs only the ``entry_points.txt`` files that
mention a ``palaestra.`` group. This scanner lists each path entry's ``*.dist-info`` and
``*.egg-info`` folders, reads their ``entry_points.txt`` (most have none), and reads the
METADATA header only of the few distributions that declare palaestra entry points. As in
``importlib.metadata``, the first folder of a distribution on the path wins.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from palaestra._base._plain import Record

__all__ = [
    "GROUP",
    "IDS_GROUP",
    "NAMES_GROUP",
    "VECTORIZERS_GROUP",
    "Declarations",
    "PluginRecord",
    "info_folders",
    "scan",
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

    def __new__(
        cls, namespace: str, module: str, distribution: str, version: str, requires: str = ""
    ) -> PluginRecord:
        return tuple.__new__(cls, (namespace, module, distribution, version, requires))

    @property
    def namespace(self) -> str:
        return self[0]  # type: ignore[no-any-return]

    @property
    def module(self) -> str:
        return self[1]  # type: ignore[no-any-return]

    @property
    def distribution(self) -> str:
        return self[2]  # type: ignore[no-any-return]

    @property
    def version(self) -> str:
        return self[3]  # type: ignore[no-any-return]

    @property
    def requires(self) -> str:
        return self[4]  # type: ignore[no-any-return]


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


def scan(entries: Iterable[str]) -> Declarations:
    """Read the palaestra declarations of every distribution found in ``entries`` (path folders)."""
    found = Declarations()
    seen: set[str] = set()
    for entry in entries:
        for folder in info_folders(entry):
            key = _normalized(folder)
            if key in seen:  # the same distribution further down the path is shadowed
                continue
            seen.add(key)
            if key == "palaestra" and folder.endswith(".dist-info"):
                found.core_version = folder[: -len(".dist-info")].partition("-")[2]
            path = os.path.join(entry or ".", folder, "entry_points.txt")
            text = _read(path)
            if text is not None and "[palaestra." in text:
                _add(found, os.path.join(entry or ".", folder), _groups(text))
                found.files.append(path)
    _judge_requirements(found)
    return found


def _judge_requirements(found: Declarations) -> None:
    """Fill ``found.incompatible``: the stated core versions the installed core falls outside."""
    specifiers = {r.requires for rs in found.plugins.values() for r in rs if r.requires}
    if not (specifiers and found.core_version):
        return
    from palaestra._discovery._compat import incompatibility  # regexes: compiled only when scanning

    for specifier in specifiers:
        reason = incompatibility(specifier, found.core_version)
        if reason is not None:
            found.incompatible[specifier] = reason


def info_folders(entry: str) -> list[str]:
    """The names of the distribution metadata folders in path folder ``entry``, sorted."""
    try:
        with os.scandir(entry or ".") as listing:
            return sorted(e.name for e in listing if e.name.endswith(_INFO_SUFFIXES) and e.is_dir())
    except OSError:  # a missing folder, a zip file, no permission
        return []


def _normalized(folder: str) -> str:
    """The distribution key of a metadata folder name (``Foo_Bar-1.0.dist-info`` -> ``foo-bar``)."""
    name = folder.rpartition(".")[0].split("-")[0]
    return name.lower().replace("_", "-").replace(".", "-")


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def _groups(text: str) -> dict[str, dict[str, str]]:
    """The ``[group]`` sections of an entry_points.txt: group -> {name: value} (``[extras]`` kept)."""
    groups: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = groups.setdefault(line[1:-1].strip(), {})
        elif current is not None and "=" in line:
            name, _, value = line.partition("=")
            current[name.strip()] = value.strip()
    return groups


def _add(found: Declarations, folder: str, groups: dict[str, dict[str, str]]) -> None:
    name, version, requires = _header(folder)
    records = {
        ns: PluginRecord(ns, _bare(module), name, version, requires)
        for ns, module in groups.get(GROUP, {}).items()
    }
    for record in records.values():
        found.plugins.setdefault(record.namespace, []).append(record)

    def record_of(ns: str) -> PluginRecord:
        return records.get(ns) or PluginRecord(ns, "", name, version, requires)

    names = {env_name: _bare(ns) for env_name, ns in groups.get(NAMES_GROUP, {}).items()}
    declared: dict[str, list[str]] = {}
    for env_id, value in groups.get(IDS_GROUP, {}).items():
        ns, _, mark = _bare(value).partition(":")
        if mark == "retired":
            found.retired.add(env_id)
        declared.setdefault(ns, []).append(env_id)
        if "/" not in env_id:
            names.setdefault(_name_of(env_id), ns)
    for env_name, ns in names.items():
        found.names.setdefault(env_name, []).append(record_of(ns))
    for ns, ids in declared.items():
        found.ids.append((record_of(ns), tuple(ids)))
    for vectorizer, ns in groups.get(VECTORIZERS_GROUP, {}).items():
        found.vectorizers.setdefault(vectorizer, record_of(_bare(ns)))


def _bare(value: str) -> str:
    """An entry-point value without its ``[extras]``."""
    return value.split("[")[0].strip()


def _name_of(env_id: str) -> str:
    """``Name`` of ``Name-vN`` (an un-namespaced id)."""
    head, sep, version = env_id.rpartition("-v")
    return head if sep and version.isdigit() else env_id


def wildcard_prefix(env_id: str) -> str | None:
    """``"ns/"`` for a declared ``"ns/*"`` (ids of ``ns`` resolved on demand), else None."""
    return env_id[:-1] if env_id.endswith("/*") else None


def _header(folder: str) -> tuple[str, str, str]:
    """The distribution's name, version and palaestra specifier, from its METADATA header."""
    name, version, requires = "", "", ""
    for filename in ("METADATA", "PKG-INFO"):
        text = _read(os.path.join(folder, filename))
        if text is None:
            continue
        for line in text.splitlines():
            if not line.strip():
                break  # end of the header
            key, _, value = line.partition(":")
            if key == "Name" and not name:
                name = value.strip()
            elif key == "Version" and not version:
                version = value.strip()
            elif key == "Requires-Dist" and not requires:
                # Imported here: its regexes compile only in processes that scan (cache misses).
                from palaestra._discovery._compat import palaestra_requirement

                requires = palaestra_requirement(value) or ""
        break
    return name or _normalized(os.path.basename(folder)), version, requires
