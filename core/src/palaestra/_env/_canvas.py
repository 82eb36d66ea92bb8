"""Drawing env frames with pygame: the canvas, and the rendering every drawn env shares.

An env that draws its frames with pygame primitives inherits :class:`CanvasRendering` and
implements only ``draw(canvas)``: the mixin owns the :class:`Canvas` (an offscreen surface,
shown in a window titled with the env id for ``human`` and paced at ``render_fps``, or
returned as ``uint8`` pixels for ``rgb_array``), the install hint when pygame is missing,
the warning for ``render()`` without a render mode, and ``close``. pygame is imported only
when the first frame is drawn.
"""

from __future__ import annotations

import os
import sys
from typing import Any, ClassVar

import numpy as np

from palaestra._env._suite import warn_no_render_mode
from palaestra.error import DependencyNotInstalled, UnsupportedMode

__all__ = [
    "Canvas",
    "CanvasRendering",
    "circle",
    "import_pygame",
    "polygon",
    "prepare_sdl_environment",
    "rotated_box",
]

INSTALL_HINT = "pip install pygame-ce"
# SDL drivers that draw windows nobody sees: asking for one means a "human" window is wanted unseen.
OFFSCREEN_SDL_DRIVERS = ("dummy", "offscreen")


def no_window_reason() -> str | None:
    """Why a ``human`` window could not be seen here, or None (a display, or an offscreen driver asked for)."""
    if os.environ.get("SDL_VIDEODRIVER", "") in OFFSCREEN_SDL_DRIVERS:
        return None  # asked for: the window is drawn unseen (tests, CI)
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "DISPLAY and WAYLAND_DISPLAY are unset"
    return None


def prepare_sdl_environment() -> None:
    """Give SDL a private ``XDG_RUNTIME_DIR`` where the session has none, so pygame starts quietly.

    On Linux without one (containers, CI, ssh sessions), SDL's video start prints "error:
    XDG_RUNTIME_DIR is invalid or not set in the environment." to stderr. It only looks
    there for Wayland's sockets, so an empty folder of the user's own (``0700``, as the
    XDG spec asks) is all it needs. A session that has one is left alone.
    """
    if not sys.platform.startswith("linux") or os.environ.get("XDG_RUNTIME_DIR"):
        return
    import tempfile  # start-up: shutil and the compressors, for SDL's runtime folder (3.0 ms)

    folder = os.path.join(tempfile.gettempdir(), f"palaestra-runtime-{os.getuid()}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.stat(folder)
        if info.st_uid != os.getuid() or info.st_mode & 0o077:  # not private: make one that is
            folder = tempfile.mkdtemp(prefix="palaestra-runtime-")
    except OSError:
        return  # SDL prints its line, and works all the same
    os.environ["XDG_RUNTIME_DIR"] = folder


def import_pygame(install_hint: str = INSTALL_HINT) -> Any:
    """Import pygame, or raise :class:`DependencyNotInstalled` with ``install_hint``."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    prepare_sdl_environment()
    try:
        import pygame  # optional dependency: pygame-ce (palaestra[classic-control] and the suites that draw)
    except ImportError as e:
        raise DependencyNotInstalled(f"Rendering needs pygame, which is not installed: {install_hint}") from e
    return pygame


class Canvas:
    """An offscreen surface that is shown in a window (``human``) or returned as pixels.

    Args:
        width: Frame width in pixels.
        height: Frame height in pixels.
        render_mode: ``"human"`` or ``"rgb_array"``.
        fps: Frames per second for pacing the window.
        caption: Window title.
        install_hint: The command to show when pygame is missing.
        y_up: Whether the picture is drawn with y pointing up (row 0 at the bottom), as
            Gymnasium's classic-control and Box2D envs draw theirs; it is flipped when shown.
    """

    def __init__(
        self,
        width: int,
        height: int,
        render_mode: str,
        fps: float,
        caption: str,
        install_hint: str = INSTALL_HINT,
        y_up: bool = False,
    ) -> None:
        if render_mode == "human":
            # Without a display SDL would quietly draw into a window nobody sees.
            reason = no_window_reason()
            if reason is not None:
                raise UnsupportedMode(
                    f'render_mode="human" needs a display and none is available ({reason}); render with '
                    'render_mode="rgb_array" instead, e.g. with palaestra.wrappers.RecordVideo, or set '
                    "SDL_VIDEODRIVER=dummy to draw into a window nobody sees"
                )
        self.pygame = import_pygame(install_hint)
        from pygame import gfxdraw  # optional dependency: pygame, found by import_pygame

        self.gfxdraw = gfxdraw
        self.width, self.height = width, height
        self.y_up = y_up
        self.render_mode = render_mode
        self.fps = fps
        self.surface = self.pygame.Surface((width, height))
        self._scratch: Any = None
        self.window: Any = None
        self.clock: Any = None
        if render_mode == "human":
            self.pygame.display.init()
            self.pygame.display.set_caption(caption)
            self.window = self.pygame.display.set_mode((width, height))
            self.clock = self.pygame.time.Clock()

    def scratch(self, width: int, height: int) -> Any:
        """A second offscreen surface of this size, kept for the next frame (drawn, then copied from)."""
        surface = self._scratch
        if surface is None or surface.get_size() != (width, height):
            surface = self._scratch = self.pygame.Surface((width, height))
        return surface

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Where world point ``(x, y)`` lies on the surface (y flipped unless drawn y-up)."""
        return (x, y) if self.y_up else (x, self.height - y)

    def present(self) -> np.ndarray[Any, Any] | None:
        """Show the frame (human) or return it as a uint8 HxWx3 array."""
        if self.render_mode == "human":
            # Pump events every frame so the window stays responsive.
            self.pygame.event.pump()
            shown = self.pygame.transform.flip(self.surface, False, True) if self.y_up else self.surface
            self.window.blit(shown, (0, 0))
            self.pygame.display.flip()
            self.clock.tick(self.fps)
            return None
        pixels = self.pygame.surfarray.pixels3d(self.surface)  # (x, y) order
        if self.y_up:
            pixels = pixels[:, ::-1]
        return np.transpose(pixels, (1, 0, 2)).copy()  # type: ignore[no-any-return]

    def close(self) -> None:
        """Close the window, if any."""
        if self.window is not None:
            self.pygame.display.quit()
            self.window = None


def polygon(canvas: Canvas, points: list[tuple[float, float]], color: tuple[int, int, int]) -> None:
    """Draw a filled, anti-aliased polygon given world-up coordinates."""
    pygame = canvas.pygame
    screen_points = [canvas.to_screen(x, y) for x, y in points]
    pygame.draw.polygon(canvas.surface, color, screen_points)
    pygame.draw.aalines(canvas.surface, color, True, screen_points)


def circle(canvas: Canvas, center: tuple[float, float], radius: float, color: tuple[int, int, int]) -> None:
    """Draw a filled circle given world-up coordinates."""
    canvas.pygame.draw.circle(canvas.surface, color, canvas.to_screen(*center), radius)


def rotated_box(x0: float, y0: float, length: float, width: float, angle: float) -> list[tuple[float, float]]:
    """Corners of a ``length`` x ``width`` bar starting at ``(x0, y0)`` pointing along ``angle``."""
    c, s = np.cos(angle), np.sin(angle)
    half = width / 2
    corners = [(0.0, -half), (length, -half), (length, half), (0.0, half)]
    return [(x0 + px * c - py * s, y0 + px * s + py * c) for px, py in corners]


class CanvasRendering:
    """Mixin for an env whose frames are drawn with pygame primitives.

    The env sets ``render_mode`` and ``metadata["render_fps"]``, says how large a frame is
    (``canvas_size``, a class attribute or property) and which command installs pygame for
    it (``render_install_hint``), and implements :meth:`draw`. Drawing reads the env's
    state and must never change it.
    """

    canvas_size: ClassVar[tuple[int, int]] = (600, 400)
    canvas_y_up: ClassVar[bool] = False  # True: draw() draws y-up; the frame is flipped when shown
    render_install_hint: ClassVar[str] = INSTALL_HINT
    _canvas: Canvas | None = None

    def draw(self, canvas: Canvas) -> bool:
        """Draw the current state on ``canvas``; False when there is nothing to draw yet."""
        raise NotImplementedError

    def render(self) -> Any:
        """The frame as ``uint8`` pixels (``rgb_array``), or shown in a window (``human``)."""
        env: Any = self
        if env.render_mode is None:
            warn_no_render_mode(self)
            return None
        if self._canvas is None:
            width, height = self.canvas_size
            title = env.spec.id if env.spec is not None else type(self).__name__
            fps = env.metadata.get("render_fps") or 30
            self._canvas = Canvas(
                width, height, env.render_mode, fps, title, self.render_install_hint, self.canvas_y_up
            )
        if not self.draw(self._canvas):
            return None
        return self._canvas.present()

    def close(self) -> None:
        """Close the window, if one is open, and let the canvas go."""
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None
