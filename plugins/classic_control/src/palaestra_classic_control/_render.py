"""The core's pygame canvas, with this suite's install hint."""

from __future__ import annotations

from palaestra.utils.canvas import Canvas as _Canvas
from palaestra.utils.canvas import circle, polygon, rotated_box

__all__ = ["INSTALL_HINT", "Canvas", "circle", "polygon", "rotated_box"]

INSTALL_HINT = 'pip install "palaestra-classic-control[render]"  (or: pip install pygame-ce)'


class Canvas(_Canvas):
    """A :class:`palaestra.utils.canvas.Canvas` that names this suite's render extra."""

    def __init__(self, width: int, height: int, render_mode: str, fps: float, caption: str) -> None:
        super().__init__(width, height, render_mode, fps, caption, install_hint=INSTALL_HINT)
