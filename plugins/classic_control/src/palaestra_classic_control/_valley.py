"""The mountain cars' valley (Moore 1990), shared by both cars, their batched envs and the drawing."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["GRAVITY", "height"]

# The pull of the valley's slope on the car per step, scaled by cos(3 x).
GRAVITY = 0.0025


def height(x: Any, sin: Any = math.sin) -> Any:
    """The valley floor's height at position ``x`` (``sin``: ``math.sin`` or ``np.sin``)."""
    return sin(3 * x) * 0.45 + 0.55
