"""An offscreen pygame canvas for env renderers; pygame is imported only when one is made.

Environment suites draw their frames with pygame primitives on a :class:`Canvas`, which
shows them in a window (``human``) or returns them as ``uint8`` arrays (``rgb_array``).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from palaestra.error import DependencyNotInstalled

__all__ = ["Canvas", "circle", "import_pygame", "polygon", "rotated_box"]

INSTALL_HINT = "pip install pygame-ce"


def import_pygame(install_hint: str = INSTALL_HINT) -> Any:
    """Import pygame, or raise :class:`DependencyNotInstalled` with ``install_hint``."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
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
    """

    def __init__(
        self,
        width: int,
        height: int,
        render_mode: str,
        fps: float,
        caption: str,
        install_hint: str = INSTALL_HINT,
    ) -> None:
        self.pygame = import_pygame(install_hint)
        self.width, self.height = width, height
        self.render_mode = render_mode
        self.fps = fps
        self.surface = self.pygame.Surface((width, height))
        self.window: Any = None
        self.clock: Any = None
        if render_mode == "human":
            self.pygame.display.init()
            self.pygame.display.set_caption(caption)
            self.window = self.pygame.display.set_mode((width, height))
            self.clock = self.pygame.time.Clock()

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Flip y so that world-up is screen-up."""
        return x, self.height - y

    def present(self) -> np.ndarray[Any, Any] | None:
        """Show the frame (human) or return it as a uint8 HxWx3 array."""
        if self.render_mode == "human":
            # Pump events every frame so the window stays responsive.
            self.pygame.event.pump()
            self.window.blit(self.surface, (0, 0))
            self.pygame.display.flip()
            self.clock.tick(self.fps)
            return None
        pixels = self.pygame.surfarray.pixels3d(self.surface)
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
