"""The core's pygame canvas, with this suite's install hint."""

from __future__ import annotations

from palaestra.utils.canvas import Canvas as _Canvas

__all__ = ["INSTALL_HINT", "Canvas"]

INSTALL_HINT = 'pip install "palaestra[box2d]"  (or: pip install pygame-ce)'


class Canvas(_Canvas):
    """A :class:`palaestra.utils.canvas.Canvas` that names this suite's install command."""

    def __init__(self, width: int, height: int, render_mode: str, fps: float, caption: str) -> None:
        super().__init__(width, height, render_mode, fps, caption, install_hint=INSTALL_HINT)
