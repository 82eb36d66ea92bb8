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

The file names the modules later processes import, so it is trusted only when it is a
regular file (opened without following links or blocking on a FIFO), owned by this user and
private (mode 0600), and its checksum and every field's type check out; anything else is
rescanned and rewritten, never used. Writes go through a fresh private temporary file
(``O_CREAT | O_EXCL | O_NOFOLLOW``, mode 0600) renamed into place, in a folder made 0700.

``PALAESTRA_CACHE_DIR`` chooses the folder (default ``$XDG_CACHE_HOME/palaestra`` or
``~/.cache/palaestra``); ``PALAESTRA_DISCOVERY_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import sys
import zlib
from collections.abc import Sequence
from typing import Any

from palaestra._discovery import Declarations, PluginRecord, _scan, info_folders

__all__ = ["CACHE_DIR_ENV", "CACHE_ENV", "cache_file", "cache_folder", "cached_scan", "still_declared"]

CACHE_ENV = "PALAESTRA_DISCOVERY_CACHE"
CACHE_DIR_ENV = "PALAESTRA_CACHE_DIR"
_FORMAT = 8
_MAGIC = b"palaestra discovery cache\n"
_MAX_BYTES = 64 << 20  # far above any real scan; a bigger file is not ours to read
_POSIX = os.name == "posix"
_READ_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
)
_WRITE_FLAGS = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
)


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
        return _scan.scan(entries)
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
    found = _scan.scan(entries)
    _store(path, stamps, found)
    return found


def still_declared(entries: Sequence[str], record: PluginRecord) -> tuple[bool, str | None]:
    """Whether a fresh scan of ``entries`` still declares ``record``, and the cache file it may have come from.

    Called when ``record``'s module cannot be found: a cache whose stamps match but that names
    a module no longer installed (removed without its folder's time moving, or a file written
    by hand) would fail the same way in every process. The cache file is removed either way,
    so the next process reads the installed plugins afresh.
    """
    path = cache_file(entries)
    fresh = _scan.scan(entries)
    declared = any(r == record for records in fresh.plugins.values() for r in records)
    if path is not None:
        with contextlib.suppress(OSError):
            os.remove(path)
    return declared, path


def why_missing(record: PluginRecord, search_path: Sequence[str] | None) -> str:
    """Why ``record``'s module cannot be found, checked against a fresh scan (see :func:`still_declared`)."""
    if search_path is not None:  # an explicit path is never cached
        return f"distribution {record.distribution} is declared but its module {record.module!r} is not installed"
    declared, cache = still_declared(list(sys.path), record)
    if not declared:
        return (
            f"the discovery cache ({cache}) named module {record.module!r} of distribution "
            f"{record.distribution}, which is no longer installed; the stale cache was removed, "
            "so the next process reads the installed plugins afresh"
        )
    return (
        f"distribution {record.distribution}'s metadata is installed but not its module "
        f"{record.module!r}: reinstall or uninstall {record.distribution}"
    )


def _listing_key(entry: str) -> list[int]:
    """A short fingerprint of the distributions in path folder ``entry``.

    Their metadata folders' names and times: reinstalling a distribution (a plugin author's
    ``pip install -e .`` at an unchanged version) makes its folder anew, with a new time.
    """
    names = info_folders(entry)
    text = "\n".join(f"{name}:{_mtime(os.path.join(entry or '.', name))}" for name in names)
    return [len(names), zlib.crc32(text.encode())]


def _read(path: str) -> dict[str, Any] | None:
    """The stored data at ``path``, or None unless the file is ours, private and intact."""
    try:
        fd = os.open(path, _READ_FLAGS)  # a link refuses to open; a FIFO does not block
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            if not _trusted(os.fstat(f.fileno())):
                return None
            raw = f.read(_MAX_BYTES + 1)
    except OSError:
        return None
    head = len(_MAGIC) + 4
    if len(raw) > _MAX_BYTES or raw[: len(_MAGIC)] != _MAGIC:
        return None
    payload = memoryview(raw)[head:]
    if int.from_bytes(raw[len(_MAGIC) : head], "little") != zlib.crc32(payload):
        return None  # a flipped bit or a torn write
    try:
        data = marshal.loads(payload)  # marshal.load(f) reads object by object: 8x slower
    except (ValueError, EOFError, TypeError):
        return None
    return data if _valid(data) else None


def _trusted(status: os.stat_result) -> bool:
    """Whether an open cache file is a regular file, owned by this user and private to them."""
    if not stat.S_ISREG(status.st_mode):
        return False
    if not _POSIX:
        return True
    return status.st_uid == os.geteuid() and status.st_mode & 0o077 == 0


def _is_stamps(value: object) -> bool:
    return type(value) is list and all(
        type(item) is list
        and len(item) == 2
        and type(item[0]) is str
        and (item[1] is None or type(item[1]) is int)
        for item in value
    )


def _is_refs(value: object, count: int) -> bool:
    return type(value) is list and all(type(i) is int and 0 <= i < count for i in value)


def _is_table(value: object, check: Any) -> bool:
    return type(value) is dict and all(type(key) is str and check(item) for key, item in value.items())


def _valid(data: object) -> bool:
    """The schema check: every field of the format, of the right type, each index in range."""
    if type(data) is not dict or data.keys() != _KEYS or data["format"] != _FORMAT:
        return False
    records = data["records"]
    if type(records) is not list or not all(
        type(r) is list and len(r) == len(PluginRecord._fields) and all(type(f) is str for f in r)
        for r in records
    ):
        return False
    count = len(records)
    stamps, ids = data["stamps"], data["ids"]
    return (
        type(stamps) is list
        and len(stamps) == 2
        and type(stamps[0]) is str
        and _is_stamps(stamps[1])
        and _is_stamps(data["files"])
        and _is_table(data["plugins"], lambda refs: _is_refs(refs, count))
        and _is_table(data["names"], lambda refs: _is_refs(refs, count))
        and type(ids) is list
        and all(type(i) is list and len(i) == 2 and _is_refs(i[:1], count) and type(i[1]) is str for i in ids)
        and type(data["core_version"]) is str
        and type(data["retired"]) is list
        and all(type(r) is str for r in data["retired"])
        and _is_table(data["vectorizers"], lambda i: _is_refs([i], count))
        and _is_table(data["incompatible"], lambda why: type(why) is str)
        and _is_table(
            data["listings"], lambda k: type(k) is list and len(k) == 2 and all(type(n) is int for n in k)
        )
    )


_KEYS = frozenset(
    [
        "format",
        "stamps",
        "files",
        "plugins",
        "names",
        "ids",
        "core_version",
        "retired",
        "vectorizers",
        "incompatible",
        "listings",
        "records",
    ]
)


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
    payload = marshal.dumps(data)
    _write(path, _MAGIC + zlib.crc32(payload).to_bytes(4, "little") + payload)


def _write(path: str, content: bytes) -> None:
    """Put ``content`` at ``path`` through a new private file; any trouble only skips the cache."""
    temporary = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(temporary, _WRITE_FLAGS, 0o600)  # never an existing file, never through a link
    except OSError:
        return  # an unwritable cache folder only costs the next process a scan
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(content)
        os.replace(temporary, path)  # replaces a link at ``path`` itself, never its target
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
