"""Pictures of the lander and the walker: Gymnasium's, from the same facts.

Both are drawn y-up (the canvas flips them when shown) with the primitives, colours and
drawing order Gymnasium 1.4.0 uses, from the same numbers: a body's corners are Box2D's own
``transform * vertex * SCALE`` (float32, as the engine computes them), so every edge falls
on the same pixel and every frame is identical byte for byte.

Two of Gymnasium's habits are part of the picture and kept: the lander's pad flags are drawn
again after every body (each anti-aliased rim blends once more), and the walker shows one
lidar ray per frame, sweeping the fan over 20 frames of every 100.
"""

from __future__ import annotations

import math
from typing import Any

from palaestra_box2d import _lander_scene as lander
from palaestra_box2d import _walker_scene as walker

__all__ = [
    "GRASS_EDGES",
    "INSTALL_HINT",
    "OBSTACLE",
    "OBSTACLE_EDGE",
    "WALKER_HULL",
    "draw_bipedal_walker",
    "draw_lunar_lander",
    "lidar_ray_shown",
    "puff_color",
    "walker_leg_colors",
]

#: How to get pygame for this suite's pictures.
INSTALL_HINT = 'pip install "palaestra[box2d]"  (or: pip install pygame-ce)'

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
PAD_FLAG = (204, 204, 0)
WALKER_SKY = (215, 215, 255)
TERRAIN_FILL = (102, 153, 76)
LIDAR = (255, 0, 0)
FINISH_FLAG = (230, 51, 0)
# The walker's bodies carry their colours (color1 fill, color2 rim), as Gymnasium's do; code
# tells the hardcore obstacles by theirs (``body.color1 is OBSTACLE``).
OBSTACLE = (255, 255, 255)
OBSTACLE_EDGE = (153, 153, 153)
GRASS_EDGES = ((76, 255, 76), (76, 204, 76))  # the ground's stretches, alternately
WALKER_HULL = ((127, 51, 229), (76, 76, 127))


def walker_leg_colors(side: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """A leg's fill and rim: ``side`` -1 (the far leg) lighter, +1 (the near one) darker."""
    shade = side * 25
    return (153 - shade, 76 - shade, 127 - shade), (102 - shade, 51 - shade, 76 - shade)


def _fixtures(
    surface: Any,
    canvas: Any,
    body: Any,
    scale: float,
    walker_shift: int | None = None,
    first: float = -math.inf,
    last: float = math.inf,
) -> None:
    """Each fixture of ``body`` in its ``color1`` (fill) and ``color2`` (rim).

    The lander's polygons get an anti-aliased closed rim. The walker's (``walker_shift``: px
    to move every x left by) get its double rim, a closed one-pixel rim and an anti-aliased
    one over it, and its stretches of ground a line; a body whose corners all lie left of
    ``first`` or right of ``last`` (unshifted px) touches no pixel of the view and is left out.
    """
    pygame, gfxdraw = canvas.pygame, canvas.gfxdraw
    fill, rim = body.color1, body.color2
    transform = body.transform
    for fixture in body.fixtures:
        shape = fixture.shape
        if not hasattr(shape, "vertices"):  # a circle
            centre = transform * shape.pos * scale
            radius = shape.radius * scale
            pygame.draw.circle(surface, fill, centre, radius)
            pygame.draw.circle(surface, rim, centre, radius)
            continue
        path = [transform * v * scale for v in shape.vertices]
        xs = [p[0] for p in path]
        if max(xs) < first or min(xs) > last:
            continue
        if walker_shift is None:
            pygame.draw.polygon(surface, fill, path)
            gfxdraw.aapolygon(surface, path, fill)
            pygame.draw.aalines(surface, rim, True, path)
            continue
        path = [(p[0] - walker_shift, p[1]) for p in path]
        if len(path) == 2:  # a stretch of ground
            pygame.draw.aaline(surface, fill, path[0], path[1])
            continue
        pygame.draw.polygon(surface, fill, path)
        gfxdraw.aapolygon(surface, path, fill)
        path.append(path[0])
        pygame.draw.polygon(surface, rim, path, 1)
        gfxdraw.aapolygon(surface, path, rim)


def _terrain_span(body: Any, scale: float) -> tuple[float, float]:
    """The px from which to which a (static) terrain body reaches, worked out once per body."""
    span: tuple[float, float] | None = getattr(body, "drawn_span", None)
    if span is None:
        path = [body.transform * v * scale for v in body.fixtures[0].shape.vertices]
        span = body.drawn_span = (min(p[0] for p in path), max(p[0] for p in path))
    return span


def _pad_flags(canvas: Any, env: Any) -> None:
    pygame, gfxdraw, surface = canvas.pygame, canvas.gfxdraw, canvas.surface
    for pad_x in (env.helipad_x1, env.helipad_x2):
        x = pad_x * lander.SCALE
        bottom = env.helipad_y * lander.SCALE
        top = bottom + 50
        pygame.draw.line(surface, WHITE, (x, bottom), (x, top), 1)
        flag = [(x, top), (x, top - 10), (x + 25, top - 5)]
        pygame.draw.polygon(surface, PAD_FLAG, flag)
        gfxdraw.aapolygon(surface, flag, PAD_FLAG)


def draw_lunar_lander(canvas: Any, env: Any) -> None:
    """One LunarLander frame: the white moon under a black sky, the exhaust, the lander, the pad's flags."""
    pygame, gfxdraw, surface = canvas.pygame, canvas.gfxdraw, canvas.surface
    scale = lander.SCALE
    pygame.draw.rect(surface, WHITE, surface.get_rect())
    top = lander.H * scale
    for (x1, y1), (x2, y2) in zip(env.terrain, env.terrain[1:], strict=False):
        sky = [(x1 * scale, y1 * scale), (x2 * scale, y2 * scale), (x2 * scale, top), (x1 * scale, top)]
        pygame.draw.polygon(surface, BLACK, sky)
        gfxdraw.aapolygon(surface, sky, BLACK)
    if env.lander is None:
        return
    for body in (*env.particles, env.lander, *env.legs):
        _fixtures(surface, canvas, body, scale, None)
        _pad_flags(canvas, env)  # after every body: Gymnasium draws them inside its body loop


def puff_color(ttl: float) -> tuple[int, int, int]:
    """An exhaust puff's colour: white-hot when fresh, dark red as it cools."""
    warm = int(max(0.2, 0.15 + ttl) * 255)
    cool = int(max(0.2, 0.5 * ttl) * 255)
    return warm, cool, cool


def lidar_ray_shown(frame: int, rays: int) -> int | None:
    """The lidar ray frame ``frame`` (counted 1, 2, ... 99, 0 from a reset) shows, if any."""
    if frame >= 2 * rays:
        return None
    return frame if frame < rays else rays - frame - 1  # out along the fan, then back from its end


def draw_bipedal_walker(canvas: Any, env: Any, ray: int | None) -> None:
    """One BipedalWalker frame, following the walker; ``ray``: the lidar ray to show.

    Gymnasium draws the course from x = 0 on a surface ``600 + scroll * 30`` px wide and keeps
    its last 600 columns. Clipping at the surface's left edge changes how a crossing line is
    rasterised, so we draw on a surface that starts where Gymnasium's does, or, once the walker
    is further than one screen along, one screen before the view (no shape that reaches into
    the view is wider than that): the same pixels without a surface that grows with the course.
    """
    pygame, gfxdraw = canvas.pygame, canvas.gfxdraw
    scale, width, height = walker.SCALE, walker.VIEWPORT_W, walker.VIEWPORT_H
    scroll = env.scroll
    view = int(width + max(0.0, scroll) * scale) - width  # the first column kept
    behind = min(view, width)  # columns drawn before the view
    left = view - behind  # a whole number of pixels, so moving every x by it is exact
    surface = canvas.scratch(2 * width, height)
    surface.set_clip(None)
    surface.fill(BLACK)  # a fresh surface's colour, where the sky falls short of a column
    surface.set_clip(pygame.Rect(0, 0, behind + width, height))
    last = view + width + 2  # shapes wholly outside the view (and its anti-aliased rim) are left out
    first = view - 2
    view_x = scroll * scale
    sky = [(view_x, 0), (view_x + width, 0), (view_x + width, height), (view_x, height)]
    pygame.draw.polygon(surface, WALKER_SKY, [(x - left, y) for x, y in sky])
    for poly, x1, x2 in env.cloud_poly:  # clouds drift at half the scroll speed
        if x2 < scroll / 2 or x1 > scroll / 2 + width / scale:
            continue
        cloud = [(p[0] * scale + scroll * scale / 2 - left, p[1] * scale) for p in poly]
        pygame.draw.polygon(surface, WHITE, cloud)
        gfxdraw.aapolygon(surface, cloud, WHITE)
    for poly in env.terrain_poly:
        if poly[1][0] < scroll or poly[0][0] > scroll + width / scale:
            continue
        ground = [(x * scale - left, y * scale) for x, y in poly]
        pygame.draw.polygon(surface, TERRAIN_FILL, ground)
        gfxdraw.aapolygon(surface, ground, TERRAIN_FILL)
    if ray is not None and env.hull is not None:
        line = env.lidar[ray]
        start = (line.p1[0] * scale - left, line.p1[1] * scale)
        end = (line.p2[0] * scale - left, line.p2[1] * scale)
        pygame.draw.line(surface, LIDAR, start, end, 1)
    for body in env.terrain:
        span = _terrain_span(body, scale)
        if span[1] >= first and span[0] <= last:
            _fixtures(surface, canvas, body, scale, left)
    if env.hull is not None:
        for body in (*env.legs, env.hull):
            _fixtures(surface, canvas, body, scale, left, first, last)
    bottom = walker.TERRAIN_HEIGHT * scale
    top = bottom + 50
    x = walker.TERRAIN_STEP * 3 * scale
    pygame.draw.aaline(surface, BLACK, (x - left, bottom), (x - left, top))
    flag = [(x - left, top), (x - left, top - 10), (x + 25 - left, top - 5)]
    pygame.draw.polygon(surface, FINISH_FLAG, flag)
    pygame.draw.lines(surface, BLACK, False, [*flag, flag[0]], 1)
    canvas.surface.blit(surface, (0, 0), pygame.Rect(behind, 0, width, height))
