"""A discovery cache that knows when it is stale.

Scanning the path costs a file read per installed distribution; in a venv of hundreds of
packages that is most of the time to a first ``make``, paid again by every spawned worker
and CLI call. The cache stores the scan's result with the modification time of every path
folder (installing or removing a distribution adds or removes a folder in one of them) and
of every ``entry_points.txt`` it used (a plugin upgraded in place). A process whose stamps
all match takes the stored result. A path folder whose time moved is listed again, and if
it holds the same distributions (a script's folder, first on ``sys.path``, that gained a
log file or a checkpoint) the result stands and the new time is written back. Any other
difference, or any trouble reading, means a fresh scan, written back for the next process
(atomically; a read-only cache folder is fine).
The file is written with :mod:`marshal` (built into the interpreter: nothing to import and
fast to read); its format belongs to one Python version, which the file's name and stamps
include, and an unreadable file only means a scan.

``PALAESTRA_CACHE_DIR`` chooses the folder (default ``$XDG_CACHE_HOME/palaestra`` or
``~/.cache/palaestra``); ``PALAESTRA_DISCOVERY_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from collections.abc import Sequence
from typing import Any

from palaestra._discovery import Declarations, PluginRecord, info_folders

__all__ = ["CACHE_DIR_ENV", "CACHE_ENV", "cache_file", "cache_folder", "cached_scan"]

CACHE_ENV = "PALAESTRA_DISCOVERY_CACHE"
CACHE_DIR_ENV = "PALAESTRA_CACHE_DIR"
_FORMAT = 7


def cache_folder() -> str:
    """Palaestra's cache folder: ``PALAESTRA_CACHE_DIR``, else ``$XDG_CACHE_HOME/palaestra``.

    (``~/.cache/palaestra`` without ``XDG_CACHE_HOME``.) It may not exist yet; a plugin that
    keeps files there makes its own subfolder and treats a failed write as no cache.
    """
    return os.environ.get(CACHE_DIR_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "palaestra"
    )


def cache_file(entries: Sequence[str]) -> str | None:
    """Where the scan of ``entries`` is cached, or None when caching is off."""
    if os.environ.get(CACHE_ENV, "").strip().lower() in ("0", "false", "no", "off"):
        return None
    folder = cache_folder()
    # One file per interpreter and path; the file itself records both, so a clash only rescans.
    key = zlib.crc32("\0".join([sys.executable, *entries]).encode())
    return os.path.join(folder, f"discovery-{key:08x}.marshal")


def _mtime(path: str) -> int | None:
    try:
        return os.stat(path or ".").st_mtime_ns
    except OSError:
        return None


def _stamps(paths: Sequence[str]) -> list[list[Any]]:
    return [[path, _mtime(path)] for path in paths]


def cached_scan(entries: Sequence[str]) -> Declarations:
    """:func:`scan` of ``entries``, from the cache when nothing changed since it was written."""
    path = cache_file(entries)
    if path is None:
        return _scan(entries)
    stamps = [sys.executable, _stamps(entries)]
    data = _read(path)
    if data is not None and _fresh(data, stamps):
        try:
            found = _declarations(data)
        except (ValueError, KeyError, TypeError, IndexError):
            pass
        else:
            if data["stamps"] != stamps:  # only folder times moved: remember the new ones
                _store(path, stamps, found, data["listings"])
            return found
    found = _scan(entries)
    _store(path, stamps, found)
    return found


def _scan(entries: Sequence[str]) -> Declarations:
    from palaestra._discovery._scan import scan  # a cache miss: the scanner loads only then

    return scan(entries)


def _listing_key(entry: str) -> list[int]:
    """A short fingerprint of the distributions in path folder ``entry``.

    Their metadata folders' names and times: reinstalling a distribution (a plugin author's
    ``pip install -e .`` at an unchanged version) makes its folder anew, with a new time.
    """
    names = info_folders(entry)
    text = "\n".join(f"{name}:{_mtime(os.path.join(entry or '.', name))}" for name in names)
    return [len(names), zlib.crc32(text.encode())]


def _read(path: str) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as f:
            data = marshal.loads(f.read())  # marshal.load(f) reads object by object: 8x slower
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return data if isinstance(data, dict) and data.get("format") == _FORMAT else None


def _fresh(data: dict[str, Any], stamps: list[Any]) -> bool:
    """Whether the stored scan still describes what is installed.

    Every ``entry_points.txt`` it read must be unchanged. A path folder whose time moved
    (a script's folder gets new files all the time; installing into site-packages adds a
    folder) is listed again: the scan still holds if the same distributions are there.
    """
    try:
        if data["files"] != _stamps([file for file, _ in data["files"]]):
            return False
        if data["stamps"] == stamps:
            return True
        executable, entries = data["stamps"]
        if executable != stamps[0] or [e for e, _ in entries] != [e for e, _ in stamps[1]]:
            return False
        listings = data["listings"]
        return all(
            _listing_key(entry) == listings.get(entry)
            for (entry, then), (_, now) in zip(entries, stamps[1], strict=True)
            if then != now
        )
    except (KeyError, TypeError, ValueError):
        return False


def _declarations(data: dict[str, Any]) -> Declarations:
    # Each plugin's record is stored once; the tables refer to it by its index.
    record = [PluginRecord(*fields) for fields in data["records"]]
    return Declarations(
        plugins={ns: [record[i] for i in refs] for ns, refs in data["plugins"].items()},
        names={name: [record[i] for i in refs] for name, refs in data["names"].items()},
        # One string per plugin: a large id list costs one string to decode, not thousands.
        ids=[(record[i], tuple(ids.split("\n"))) for i, ids in data["ids"]],
        files=[file for file, _ in data["files"]],
        core_version=data["core_version"],
        retired=set(data["retired"]),
        vectorizers={name: record[i] for name, i in data["vectorizers"].items()},
        incompatible=data["incompatible"],
    )


def _store(
    path: str, stamps: list[Any], found: Declarations, listings: dict[str, list[int]] | None = None
) -> None:
    """Write ``found`` with its stamps; ``listings`` (the path folders' fingerprints) if known."""
    index: dict[PluginRecord, int] = {}

    def ref(record: PluginRecord) -> int:
        return index.setdefault(record, len(index))

    data = {
        "format": _FORMAT,
        "stamps": stamps,
        "files": _stamps(found.files),
        "plugins": {ns: [ref(r) for r in records] for ns, records in found.plugins.items()},
        "names": {name: [ref(r) for r in records] for name, records in found.names.items()},
        "ids": [[ref(r), "\n".join(ids)] for r, ids in found.ids],
        "core_version": found.core_version,
        "retired": sorted(found.retired),
        "vectorizers": {name: ref(r) for name, r in found.vectorizers.items()},
        "incompatible": found.incompatible,
        "listings": listings
        if listings is not None
        else {entry: _listing_key(entry) for entry, _ in stamps[1]},
    }
    data["records"] = [list(record) for record in index]  # in index order
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "wb") as f:
            marshal.dump(data, f)
        os.replace(temporary, path)
    except OSError:
        pass  # an unwritable cache folder only costs the next process a scan
