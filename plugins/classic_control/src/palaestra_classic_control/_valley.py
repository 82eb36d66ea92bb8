"""The mountain cars' valley (Moore 1990), shared by both cars, their batched envs and the drawing."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["GRAVITY", "height", "slope_angle"]

# The pull of the valley's slope on the car per step, scaled by cos(3 x).
GRAVITY = 0.0025


def height(x: Any, sin: Any = math.sin) -> Any:
    """The valley floor's height at position ``x`` (``sin``: ``math.sin`` or ``np.sin``)."""
    return sin(3 * x) * 0.45 + 0.55


def slope_angle(x: float) -> float:
    """The angle of the valley floor at ``x``, in radians (what the car leans by)."""
    return math.atan(math.cos(3 * x) * 3 * 0.45)
