"""The Box2D engine, imported with an install hint when it is missing."""

from __future__ import annotations

import warnings

from palaestra.error import DependencyNotInstalled

try:
    # Box2D's SWIG module warns (DeprecationWarning) while it initialises; under `-W error`
    # that warning would become an exception inside the C initialiser and crash Python.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import Box2D
except ImportError as e:  # pragma: no cover - the plugin depends on it
    raise DependencyNotInstalled(
        'Box2D is not installed: pip install "palaestra[box2d]"  (Python >= 3.14 builds box2d-py, which needs swig)'
    ) from e

__all__ = ["Box2D", "ContactListener"]

ContactListener = Box2D.b2ContactListener
