"""BipedalWalker's lidar, behind one seam: Box2D's ray casts (the rule) or the compiled kernel.

The rule is :meth:`Lidar.cast`: ten Box2D ray casts from the hull, each keeping the nearest
ground hit through :class:`Ray`'s callback, as Gymnasium 1.4.0's walker does. Its cost is
mostly the callbacks into Python (two or three per ray). The optional compiled kernel
(``_compiled.walker_lidar``) computes the same fractions from the ground's shapes, read back
from Box2D once per terrain, with Box2D's single-precision arithmetic; ``benchmarks/
bench_box2d_ceiling.py`` shows what it buys and ``tests/plugins/box2d/test_lidar.py`` holds it
to the rule bit for bit (fractions and hit points).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra_box2d._engine import Box2D
from palaestra_box2d._walker_scene import SCALE

__all__ = ["DIRECTIONS", "RAYS", "Lidar", "Ray", "compiled"]

RAYS = 10
LIDAR_RANGE = 160 / SCALE
# The rays fan out from straight down to 1.35 rad forward: (dx, dy) with the end at (x + dx, y - dy).
DIRECTIONS = tuple(
    (math.sin(1.5 * i / 10.0) * LIDAR_RANGE, math.cos(1.5 * i / 10.0) * LIDAR_RANGE) for i in range(RAYS)
)
_POLYGON_VERTICES = 8  # Box2D's b2_maxPolygonVertices

compiled: Any
try:
    from palaestra_box2d import _compiled as compiled
except ImportError:  # built without a C compiler: Box2D casts the rays, with the same numbers
    compiled = None


class Ray(Box2D.b2RayCastCallback):  # type: ignore[misc]  # Box2D has no types
    """One ray: keeps the nearest ground hit (as a fraction of its length) and where it stops."""

    def __init__(self) -> None:
        super().__init__()
        self.fraction = 1.0
        self.p1: Any = (0.0, 0.0)
        self.p2: Any = (0.0, 0.0)

    def ReportFixture(self, fixture: Any, point: Any, normal: Any, fraction: float) -> float:
        if fixture.filterData.categoryBits & 1 == 0:
            return -1  # not ground: ignore and continue
        self.p2 = point
        self.fraction = fraction
        return fraction  # clip the ray here; nearer hits may follow


class Lidar:
    """The walker's ten rays: their fractions each step, and their lines for renders (``rays``)."""

    def __init__(self) -> None:
        self.rays = [Ray() for _ in range(RAYS)]
        self._ground: tuple[np.ndarray, ...] | None = None  # edges, reach, polygons, counts, spans
        self._directions = np.array(DIRECTIONS, dtype=np.float64)
        self._out = np.empty((RAYS, 3), dtype=np.float64)

    @property
    def ground(self) -> tuple[np.ndarray, ...] | None:
        """The ground the kernel casts against (edges, reach, polygons, counts, spans), or None."""
        return self._ground

    def set_ground(self, edges: list[tuple[float, float, float, float]], blocks: list[Any]) -> None:
        """The ground the kernel casts against, once per terrain.

        Args:
            edges: Each ground segment's two points, as given to Box2D (which keeps them as
                float32, as here).
            blocks: The obstacle bodies, whose convex shapes (vertices in Box2D's order, and
                the normals it computed) are read back from the engine.
        """
        if compiled is None:
            return
        polygons = np.zeros((len(blocks), _POLYGON_VERTICES, 4), dtype=np.float32)
        counts = np.zeros(len(blocks), dtype=np.intc)
        for i, body in enumerate(blocks):
            shape = body.fixtures[0].shape
            count = counts[i] = len(shape.vertices)
            polygons[i, :count, :2] = shape.vertices
            polygons[i, :count, 2:] = shape.normals
        spans = np.zeros((len(blocks), 2), dtype=np.float32)
        for i, count in enumerate(counts.tolist()):
            spans[i] = polygons[i, :count, 0].min(), polygons[i, :count, 0].max()
        # The kernel finds the edges a ray's span can meet by bisection: edges ordered by their
        # left ends, with the running maximum of their right ends.
        segments = np.array(edges, dtype=np.float32).reshape(-1, 4)
        order = np.argsort(np.minimum(segments[:, 0], segments[:, 2]), kind="stable")
        segments = np.ascontiguousarray(segments[order])
        reach = np.maximum.accumulate(np.maximum(segments[:, 0], segments[:, 2]))
        self._ground = (segments, np.ascontiguousarray(reach, dtype=np.float32), polygons, counts, spans)

    def scan(self, world: Any, position: Any, drawn: bool) -> list[float]:
        """Each ray's fraction from ``position`` (the hull's); ``drawn``: keep the rays' lines."""
        if compiled is None or self._ground is None:
            return self.cast(world, position)
        x, y = position[0], position[1]
        compiled.walker_lidar(x, y, self._directions, *self._ground, self._out)
        rows = self._out.tolist()
        if drawn:
            for ray, (fraction, px, py) in zip(self.rays, rows, strict=True):
                ray.fraction, ray.p1, ray.p2 = fraction, position, (px, py)
        return [row[0] for row in rows]

    def cast(self, world: Any, position: Any) -> list[float]:
        """The rule: Box2D casts each ray, its callback keeping the nearest ground hit."""
        x, y = position[0], position[1]
        for ray, (dx, dy) in zip(self.rays, DIRECTIONS, strict=True):
            ray.fraction = 1.0
            ray.p1 = position
            ray.p2 = (x + dx, y - dy)
            world.RayCast(ray, ray.p1, ray.p2)
        return [ray.fraction for ray in self.rays]
