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

__all__ = ["NO_SNAPSHOTS", "Box2D", "ContactListener", "create_body", "create_fixture"]

ContactListener = Box2D.b2ContactListener

# The engine's own CreateBody and CreateFixture, under the binding's Python methods of those
# names, which first check the definition's type and unpack keyword forms (and a body
# definition's fixtures): for a body definition without fixtures or shapes and a fixture
# definition, the same engine calls. A binding without them gets its public methods.
create_body = getattr(Box2D.b2World, "_b2World__CreateBody", Box2D.b2World.CreateBody)
create_fixture = getattr(Box2D.b2Body, "_b2Body__CreateFixture", Box2D.b2Body.CreateFixture)

# Why the Box2D envs cannot take snapshots (Env.snapshot_unsupported_reason).
NO_SNAPSHOTS = (
    "a Box2D world cannot be copied or restored: the engine keeps contacts and solver "
    "warm-starting state that its Python bindings cannot write back, so a world rebuilt from "
    "body positions and velocities would not continue the same trajectory"
)
