"""Import MuJoCo with an OpenGL backend that works where the process runs.

MuJoCo reads ``MUJOCO_GL`` once, when it is first imported, and offscreen rendering then
needs that backend's system library. Without a display the GLFW default cannot open a
context, so before the first import we pick EGL, then OSMesa, by which of their libraries
the system has. An explicit ``MUJOCO_GL`` always wins.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from typing import Any

from palaestra.error import DependencyNotInstalled

__all__ = ["GL_INSTALL_HINT", "INSTALL_HINT", "has_display", "headless_backend", "import_mujoco"]

INSTALL_HINT = 'pip install "palaestra[mujoco]"  (or: pip install mujoco)'
GL_INSTALL_HINT = (
    "install an offscreen OpenGL library: `apt-get install libegl1 libgl1-mesa-dri` (EGL) or "
    "`apt-get install libosmesa6` (OSMesa), or set MUJOCO_GL to a backend that works here "
    "before MuJoCo is imported"
)

# backend name -> the shared library it loads
_HEADLESS = (("egl", "EGL"), ("osmesa", "OSMesa"))


def has_display() -> bool:
    """Whether a window can be opened (always assumed off Linux)."""
    if sys.platform != "linux":
        return True  # macOS and Windows render through their native window systems
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def headless_backend() -> str | None:
    """The backend to use without a display: the first of EGL and OSMesa whose library exists."""
    for backend, library in _HEADLESS:
        if ctypes.util.find_library(library):
            return backend
    return None


def _choose_backend() -> None:
    if "mujoco" in sys.modules or os.environ.get("MUJOCO_GL") or has_display():
        return
    backend = headless_backend()
    if backend is not None:
        os.environ["MUJOCO_GL"] = backend
        # PyOpenGL must agree with MuJoCo's context or its calls go to the wrong library.
        os.environ.setdefault("PYOPENGL_PLATFORM", backend)


def import_mujoco() -> Any:
    """The ``mujoco`` module, imported after choosing a headless backend if there is no display."""
    module = sys.modules.get("mujoco")
    if module is not None:
        return module
    _choose_backend()
    try:
        import mujoco
    except ImportError as exc:
        raise DependencyNotInstalled(
            f"The MuJoCo environments need the `mujoco` package ({exc}); install it with: {INSTALL_HINT}"
        ) from exc
    return mujoco
