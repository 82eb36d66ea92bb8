"""The discovery cache is used only when it is this user's own private file, intact and well formed.

It names the modules every later process imports; anything else is rebuilt, never trusted.
"""

import marshal
import os
import stat
import subprocess
import sys
import threading
import zlib

import pytest

from palaestra._discovery import _cache
from tests.fixtures.fake_dists import GOOD_ENV, hooks_source, make_dist

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
posix_only = pytest.mark.skipif(os.name != "posix", reason="file owners and modes are POSIX")


@pytest.fixture
def site(tmp_path, monkeypatch):
    folder = tmp_path / "site"
    folder.mkdir()
    make_dist(
        folder,
        "alpha-suite",
        {"alpha": "alpha_suite._hooks"},
        {
            "alpha_suite._hooks": hooks_source(
                'registrar.register("Alpha-v0", entry_point="alpha_suite.env:CounterEnv", default_namespace=True)'
            ),
            "alpha_suite.env": GOOD_ENV,
        },
        ids={"Alpha-v0": "alpha"},
    )
    monkeypatch.setenv("PALAESTRA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PALAESTRA_DISCOVERY_CACHE", raising=False)
    return folder


@pytest.fixture
def scans(monkeypatch):
    """Counts real scans (a cache that is used costs none)."""
    from palaestra._discovery import _scan

    count = []
    real = _scan.scan
    monkeypatch.setattr(_scan, "scan", lambda entries: count.append(1) or real(entries))
    return count


def cached(site):
    return _cache.cached_scan([str(site)])


def cache_path(site):
    return _cache.cache_file([str(site)])


def alpha_module(found):
    return found.names["Alpha"][0].module


def rewrite(path, change):
    """Store ``change(data)`` at ``path`` as a well-formed, correctly summed cache file of ours."""
    data = _cache._read(path)
    assert data is not None
    payload = marshal.dumps(change(data))
    _cache._write(path, _cache._MAGIC + zlib.crc32(payload).to_bytes(4, "little") + payload)


def test_a_sound_cache_is_used_and_written_private_in_a_private_folder(site, scans):
    old = os.umask(0)  # the user's umask cannot widen the file or folder
    try:
        first = cached(site)
    finally:
        os.umask(old)
    path = cache_path(site)
    if os.name == "posix":
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    assert vars(cached(site)) == vars(first)
    assert len(scans) == 1
    assert [name for name in os.listdir(os.path.dirname(path)) if name.endswith(".tmp")] == []


@posix_only
@pytest.mark.skipif(not ROOT, reason="handing a file to another user needs root")
def test_a_cache_file_owned_by_another_user_is_never_used(site, scans, tmp_path):
    cached(site)
    path = cache_path(site)
    rewrite(path, lambda d: {**d, "records": [[*r[:1], "evil_module", *r[2:]] for r in d["records"]]})
    assert alpha_module(_cache.cached_scan([str(site)])) == "evil_module"  # the planted file, were it ours
    os.chown(path, 65534, 65534)  # now it is another user's, as in a shared folder
    found = cached(site)
    assert alpha_module(found) == "alpha_suite._hooks"
    assert len(scans) == 2


@posix_only
def test_a_cache_file_others_may_read_or_write_is_rebuilt_private(site, scans):
    cached(site)
    path = cache_path(site)
    os.chmod(path, 0o666)
    assert alpha_module(cached(site)) == "alpha_suite._hooks"
    assert len(scans) == 2
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


@posix_only
def test_a_symlink_at_the_cache_path_is_not_followed(site, scans, tmp_path):
    cached(site)
    path = cache_path(site)
    planted = tmp_path / "planted.marshal"
    os.rename(path, planted)  # a well-formed file of ours, but reached through a link
    rewrite(str(planted), lambda d: {**d, "records": [[*r[:1], "evil_module", *r[2:]] for r in d["records"]]})
    os.symlink(planted, path)
    assert alpha_module(cached(site)) == "alpha_suite._hooks"
    assert len(scans) == 2
    assert not os.path.islink(path)  # the link itself was replaced, its target left alone
    assert alpha_module(_cache._declarations(_cache._read(str(planted)))) == "evil_module"


@posix_only
def test_a_fifo_at_the_cache_path_does_not_hang(site, scans):
    os.makedirs(os.path.dirname(cache_path(site)), exist_ok=True)
    os.mkfifo(cache_path(site))
    result = []
    worker = threading.Thread(target=lambda: result.append(cached(site)), daemon=True)
    worker.start()
    worker.join(60)
    assert result, "reading a FIFO at the cache path hung"
    assert alpha_module(result[0]) == "alpha_suite._hooks"


@posix_only
def test_a_link_at_the_temporary_name_is_not_written_through(site, tmp_path, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    path = cache_path(site)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    monkeypatch.setattr(os, "urandom", lambda n: b"\0" * n)  # make the temporary name predictable
    os.symlink(victim, f"{path}.{os.getpid()}.{'00' * 4}.tmp")
    cached(site)
    assert victim.read_text() == "precious"


WRONG_FIELDS = {
    "records of numbers": lambda d: {**d, "records": [[1, 2, 3, 4, 5] for _ in d["records"]]},
    "a record too short": lambda d: {**d, "records": [r[:2] for r in d["records"]]},
    "an index out of range": lambda d: {**d, "names": {n: [99] for n in d["names"]}},
    "ids as a dict": lambda d: {**d, "ids": {}},
    "stamps of strings": lambda d: {**d, "files": [["x", "y"]]},
    "a missing field": lambda d: {k: v for k, v in d.items() if k != "retired"},
    "an extra field": lambda d: {**d, "extra": 1},
    "not a dict": lambda d: [d],
    "listings of strings": lambda d: {**d, "listings": {"x": ["a", "b"]}},
}


@pytest.mark.parametrize("change", WRONG_FIELDS.values(), ids=WRONG_FIELDS)
def test_a_well_formed_cache_with_wrong_field_types_is_rebuilt(site, scans, change):
    cached(site)
    path = cache_path(site)
    rewrite(path, change)
    assert alpha_module(cached(site)) == "alpha_suite._hooks"
    assert len(scans) == 2
    assert _cache._read(path) is not None  # rewritten sound: the next process uses it
    cached(site)
    assert len(scans) == 2


@pytest.mark.parametrize("damage", ["flip", "truncate", "old format", "empty"])
def test_a_damaged_cache_file_is_rebuilt(site, scans, damage):
    cached(site)
    path = cache_path(site)
    with open(path, "rb") as f:
        raw = bytearray(f.read())
    if damage == "flip":
        at = raw.index(b"Alpha")
        raw[at] ^= 0x01  # "Alpha" -> "@lpha": marshal reads it fine; the checksum does not
    elif damage == "truncate":
        raw = raw[: len(raw) // 2]
    elif damage == "old format":
        raw = bytearray(marshal.dumps({"format": 7}))
    else:
        raw = bytearray()
    with open(path, "wb") as f:
        f.write(raw)
    found = cached(site)
    assert "Alpha" in found.names and alpha_module(found) == "alpha_suite._hooks"
    assert len(scans) == 2


def test_bit_flips_in_a_real_cache_do_not_break_make_for_good(tmp_path):
    """The issue's reproducer: flip bits in every ``CartPole`` of a real cache, in a new process."""
    env = {**os.environ, "PALAESTRA_CACHE_DIR": str(tmp_path)}
    env.pop("PALAESTRA_DISCOVERY_CACHE", None)
    script = "import palaestra; print(type(palaestra.make('CartPole-v1').unwrapped).__name__)"
    first = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert first.stdout.strip() == "CartPoleEnv", first.stderr
    (path,) = tmp_path.glob("discovery-*.marshal")
    raw = path.read_bytes().replace(b"CartPole", b"CartPold")
    path.write_bytes(raw)
    again = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert again.stdout.strip() == "CartPoleEnv", again.stderr


MAKE_ALPHA = (
    "import palaestra\n"
    "try:\n"
    "    palaestra.make('Alpha-v0')\n"
    "    print('made')\n"
    "except Exception as e:\n"
    "    print(type(e).__name__, e)\n"
)


def run_in(site, tmp_path, code=MAKE_ALPHA):
    env = {**os.environ, "PALAESTRA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(site)}
    env.pop("PALAESTRA_DISCOVERY_CACHE", None)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@posix_only
def test_a_stale_cache_naming_a_module_no_longer_installed_is_named_and_removed(site, tmp_path):
    """Sound, ours and fresh by its stamps, yet naming a module that is gone: said once, then mended."""
    assert run_in(site, tmp_path) == "made"
    (cache,) = (tmp_path / "cache").glob("discovery-*.marshal")
    rewrite(
        str(cache),
        lambda d: {
            **d,
            "records": [
                [("gone_suite._hooks" if field == "alpha_suite._hooks" else field) for field in record]
                for record in d["records"]
            ],
        },
    )
    said = run_in(site, tmp_path)
    assert said.startswith(
        "PluginLoadError Plugin 'alpha' from distribution alpha-suite 1.0.0: the discovery cache ("
    )
    assert (
        "named module 'gone_suite._hooks' of distribution alpha-suite, which is no longer installed" in said
    )
    assert "the stale cache was removed, so the next process reads the installed plugins afresh" in said
    assert not cache.exists()
    assert run_in(site, tmp_path) == "made"  # the next process: a fresh scan


@posix_only
def test_a_plugin_whose_module_was_deleted_under_its_metadata_is_named_with_the_fix(site, tmp_path):
    import shutil

    assert run_in(site, tmp_path) == "made"
    times = os.stat(site)
    shutil.rmtree(site / "alpha_suite")
    os.utime(site, ns=(times.st_atime_ns, times.st_mtime_ns))  # the folder looks untouched
    said = run_in(site, tmp_path)
    assert "alpha-suite's metadata is installed but not its module 'alpha_suite._hooks'" in said
    assert "reinstall or uninstall alpha-suite" in said
