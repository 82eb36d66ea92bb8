"""The Box2D engine, imported with an install hint when it is missing."""

from __future__ import annotations

from palaestra.error import DependencyNotInstalled

try:
    import Box2D
except ImportError as e:  # pragma: no cover - the plugin depends on it
    raise DependencyNotInstalled(
        'Box2D is not installed: pip install "palaestra[box2d]"  (Python >= 3.14 builds box2d-py, which needs swig)'
    ) from e

__all__ = ["Box2D", "ContactListener"]

ContactListener = Box2D.b2ContactListener
