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

from palaestra._base._ids import namespace_of, split_env_id
from palaestra._discovery import (
    GROUP,
    IDS_GROUP,
    NAMES_GROUP,
    VECTORIZERS_GROUP,
    Declarations,
    PluginRecord,
    info_folders,
)

__all__ = ["scan"]


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
    # start-up: regexes compiled only when scanning (0.75 ms)
    from palaestra._discovery._compat import incompatibility

    for specifier in specifiers:
        reason = incompatibility(specifier, found.core_version)
        if reason is not None:
            found.incompatible[specifier] = reason


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
        if namespace_of(env_id) is None:
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
    """``Name`` of ``Name-vN`` (an un-namespaced id; a malformed one is its own name)."""
    parts = split_env_id(env_id)
    return env_id if parts is None else parts[1]


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
                # start-up: regexes compiled only when scanning (0.75 ms)
                from palaestra._discovery._compat import palaestra_requirement

                requires = palaestra_requirement(value) or ""
        break
    return name or _normalized(os.path.basename(folder)), version, requires
