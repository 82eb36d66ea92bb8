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
import warnings
from typing import Any

from palaestra.error import DependencyNotInstalled

__all__ = [
    "GL_INSTALL_HINT",
    "INSTALL_HINT",
    "OFFSCREEN_MODES",
    "cannot_render",
    "has_display",
    "headless_backend",
    "import_mujoco",
]

INSTALL_HINT = 'pip install "palaestra[mujoco]"  (or: pip install mujoco)'
# The render modes drawn in an offscreen GL context (no window): what a headless backend serves.
OFFSCREEN_MODES = ("rgb_array", "depth_array", "rgbd_tuple")
GL_INSTALL_HINT = (
    "install an offscreen OpenGL library: `apt-get install libegl1 libgl1-mesa-dri` (EGL) or "
    "`apt-get install libosmesa6` (OSMesa), or set MUJOCO_GL to a backend that works here "
    "before MuJoCo is imported"
)

# backend name -> the shared library it loads, and that library's usual file names
_HEADLESS = (("egl", "EGL", ("libEGL.so.1",)), ("osmesa", "OSMesa", ("libOSMesa.so.8", "libOSMesa.so.6")))


def has_display() -> bool:
    """Whether a window can be opened (always assumed off Linux)."""
    if sys.platform != "linux":
        return True  # macOS and Windows render through their native window systems
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def headless_backend() -> str | None:
    """The backend to use without a display: the first of EGL and OSMesa whose library exists."""
    for backend, library, files in _HEADLESS:
        if any(_loads(name) for name in files) or ctypes.util.find_library(library):
            return backend
    return None


def _loads(file_name: str) -> bool:
    """Whether the dynamic loader finds ``file_name`` (MuJoCo loads it next anyway).

    Cheaper than ``ctypes.util.find_library``, which runs ``ldconfig -p`` in a subprocess;
    that stays the fallback for unusual file names.
    """
    try:
        ctypes.CDLL(file_name)
    except OSError:
        return False
    return True


def _choose_backend() -> None:
    if "mujoco" in sys.modules or os.environ.get("MUJOCO_GL") or has_display():
        return
    backend = headless_backend()
    if backend is not None:
        os.environ["MUJOCO_GL"] = backend
        # PyOpenGL must agree with MuJoCo's context or its calls go to the wrong library.
        os.environ.setdefault("PYOPENGL_PLATFORM", backend)


# Why rendering cannot work in this process, when the chosen backend failed to load.
gl_failure: str | None = None


def _forget_partial_import() -> None:
    for name in [m for m in sys.modules if m == "mujoco" or m.startswith(("mujoco.", "OpenGL"))]:
        del sys.modules[name]


def import_mujoco() -> Any:
    """The ``mujoco`` module, imported after choosing a headless backend if there is no display.

    If the OpenGL backend named by ``MUJOCO_GL`` cannot load (say ``osmesa`` without
    libOSMesa), MuJoCo is imported without rendering: simulation works, and rendering
    raises an error that says what to install.
    """
    global gl_failure
    module = sys.modules.get("mujoco")
    if module is not None:
        return module
    _choose_backend()
    try:
        import mujoco
    except ModuleNotFoundError as exc:
        if exc.name != "mujoco":
            raise
        raise DependencyNotInstalled(
            f"The MuJoCo environments need the `mujoco` package; install it with: {INSTALL_HINT}"
        ) from exc
    except Exception as exc:  # the GL backend's libraries, loaded while mujoco imports
        backend = os.environ.get("MUJOCO_GL", "")
        gl_failure = (
            f"MuJoCo's OpenGL backend MUJOCO_GL={backend!r} failed to load ({type(exc).__name__}: {exc})"
        )
        _forget_partial_import()
        os.environ["MUJOCO_GL"] = "disable"
        try:
            import mujoco
        finally:
            os.environ["MUJOCO_GL"] = backend
        warnings.warn(
            f"{gl_failure}; simulating without rendering. To render, {GL_INSTALL_HINT}.", stacklevel=2
        )
    return mujoco


def cannot_render(exc: Exception) -> DependencyNotInstalled:
    """The error for an offscreen OpenGL context that failed to open, saying what to install."""
    reason = gl_failure or (
        f"MuJoCo could not open an offscreen OpenGL context with MUJOCO_GL="
        f"{os.environ.get('MUJOCO_GL', '(unset: GLFW, which needs a display)')!r} ({exc})"
    )
    return DependencyNotInstalled(f"Cannot render: {reason}. To render, {GL_INSTALL_HINT}.")
