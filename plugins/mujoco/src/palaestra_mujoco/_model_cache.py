"""Compiled bundled models kept on disk, so a new process loads a model instead of compiling it.

Compiling ``half_cheetah.xml`` costs a fresh process 2.6 ms; loading the same model from
its compiled form (MJB, MuJoCo's own binary dump of an ``MjModel``) costs 1.3 ms, and every
process that makes a MuJoCo env (each worker of an ``AsyncVectorEnv`` too) pays it. The
first process to compile a bundled model saves the MJB in palaestra's cache folder
(``PALAESTRA_CACHE_DIR``; ``<folder>/mujoco``); later ones load it.

Only the models bundled with this package are cached: a model of yours may include other
files or meshes whose changes a key could miss. The key is the MJCF file's CRC-32 and size
and the MuJoCo version, so an edited model or an upgraded MuJoCo compiles afresh. Compiling
is the specification: ``tests/plugins/mujoco/test_model_cache.py`` compares each cached
model's binary dump with a fresh compile's, byte for byte. A missing, unreadable or
unwritable cache only means compiling; ``PALAESTRA_MUJOCO_MODEL_CACHE=0`` always compiles.
"""

from __future__ import annotations

import contextlib
import os
import zlib
from typing import Any

from palaestra.plugin import cache_folder

__all__ = ["CACHE_ENV", "cached_file", "compile_model"]

CACHE_ENV = "PALAESTRA_MUJOCO_MODEL_CACHE"


def cached_file(mujoco: Any, path: str, models_dir: str) -> str | None:
    """Where the compiled form of ``path`` is (or would be) kept; None if it is not cached."""
    if os.environ.get(CACHE_ENV, "").strip().lower() in ("0", "false", "no", "off"):
        return None
    if os.path.dirname(os.path.abspath(path)) != os.path.abspath(models_dir):
        return None  # not a bundled model
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError:
        return None
    name = os.path.splitext(os.path.basename(path))[0]
    key = f"{zlib.crc32(text):08x}-{len(text)}-{mujoco.__version__}"
    return os.path.join(cache_folder(), "mujoco", f"{name}-{key}.mjb")


def compile_model(mujoco: Any, path: str, models_dir: str) -> Any:
    """``mujoco.MjModel.from_xml_path(path)``, loaded from its compiled form when it is cached."""
    cached = cached_file(mujoco, path, models_dir)
    if cached is not None and os.path.exists(cached):
        try:
            return mujoco.MjModel.from_binary_path(cached)
        except ValueError:
            pass  # unreadable (MuJoCo has said why on stderr): compile, and write it again
    model = mujoco.MjModel.from_xml_path(path)
    if cached is not None:
        _save(mujoco, model, cached)
    return model


def _save(mujoco: Any, model: Any, cached: str) -> None:
    """Write ``model``'s MJB to ``cached`` atomically (a reader sees all of it or nothing)."""
    temporary = f"{cached}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        mujoco.mj_saveModel(model, temporary, None)
        os.replace(temporary, cached)
    except (OSError, ValueError):  # an unwritable cache folder only costs the next process a compile
        with contextlib.suppress(OSError):
            os.remove(temporary)
