"""Pictures of the Box2D envs, drawn with pygame primitives (y up in world coordinates)."""

from __future__ import annotations

from typing import Any

from palaestra_box2d import _lander_scene as lander
from palaestra_box2d import _walker_scene as walker

__all__ = ["INSTALL_HINT", "draw_bipedal_walker", "draw_lunar_lander"]

#: How to get pygame for this suite's pictures.
INSTALL_HINT = 'pip install "palaestra[box2d]"  (or: pip install pygame-ce)'


SKY = (12, 14, 40)
GROUND = (205, 205, 215)
GROUND_EDGE = (150, 150, 165)
HULL = (160, 120, 235)
HULL_EDGE = (70, 55, 130)
POLE = (235, 235, 235)
FLAG = (240, 200, 40)


def _world_polygon(
    canvas: Any, points: Any, scale: float, fill: tuple[int, int, int], edge: tuple[int, int, int]
) -> None:
    pygame = canvas.pygame
    screen = [canvas.to_screen(x * scale, y * scale) for x, y in points]
    pygame.draw.polygon(canvas.surface, fill, screen)
    pygame.draw.aalines(canvas.surface, edge, True, screen)


def _body_outline(body: Any) -> list[tuple[float, float]]:
    """World coordinates of a body's (first) polygon fixture."""
    transform = body.transform
    return [tuple(transform * v) for v in body.fixtures[0].shape.vertices]


def draw_lunar_lander(canvas: Any, env: Any) -> None:
    """Draw one LunarLander frame: sky, moon surface, pad flags, exhaust, lander."""
    pygame = canvas.pygame
    canvas.surface.fill(SKY)
    ground = [(0.0, 0.0), *env.terrain, (lander.W, 0.0)]
    _world_polygon(canvas, ground, lander.SCALE, GROUND, GROUND_EDGE)
    for x in (env.helipad_x1, env.helipad_x2):
        base = canvas.to_screen(x * lander.SCALE, env.helipad_y * lander.SCALE)
        top = (base[0], base[1] - 50)
        pygame.draw.line(canvas.surface, POLE, base, top, 2)
        pygame.draw.polygon(canvas.surface, FLAG, [top, (top[0], top[1] + 10), (top[0] + 24, top[1] + 5)])
    for x, y, _, _, ttl in env.particles:  # the exhaust, hotter while fresh
        heat = max(0.2, min(1.0, ttl))
        color = (255, int(80 + 150 * heat), int(40 * heat))
        pygame.draw.circle(
            canvas.surface, color, canvas.to_screen(x * lander.SCALE, y * lander.SCALE), max(1.0, 3.0 * heat)
        )
    if env.lander is not None:
        for body in (*env.legs, env.lander):
            _world_polygon(canvas, _body_outline(body), lander.SCALE, HULL, HULL_EDGE)


TERRAIN_FILL = (90, 140, 70)
TERRAIN_EDGE = (60, 200, 60)
# Gymnasium's obstacle colours: code tells hardcore obstacles by a terrain body's color1/color2.
OBSTACLE = (255, 255, 255)
OBSTACLE_EDGE = (153, 153, 153)
WALKER_SKY = (210, 225, 255)
CLOUD = (250, 250, 250)
LIDAR = (255, 60, 60)
LEG_NEAR = (150, 60, 120)
LEG_FAR = (100, 40, 80)


def draw_bipedal_walker(canvas: Any, env: Any) -> None:
    """Draw one BipedalWalker frame, scrolled to follow the walker."""
    pygame = canvas.pygame
    offset = env.scroll * walker.SCALE
    left, right = env.scroll, env.scroll + walker.VIEWPORT_W / walker.SCALE

    def shifted(points: Any) -> list[tuple[float, float]]:
        return [(x - env.scroll, y) for x, y in points]

    canvas.surface.fill(WALKER_SKY)
    for poly, x1, x2 in env.cloud_poly:  # clouds drift at half the scroll speed
        if x2 < left / 2 or x1 > right / 2 + 2 * walker.VIEWPORT_W / walker.SCALE:
            continue
        cloud = [(x - env.scroll / 2, y) for x, y in poly]
        _world_polygon(canvas, cloud, walker.SCALE, CLOUD, CLOUD)
    for poly in env.terrain_poly:
        if poly[1][0] < left or poly[0][0] > right:
            continue
        _world_polygon(canvas, shifted(poly), walker.SCALE, TERRAIN_FILL, TERRAIN_EDGE)
    for body in env.terrain:  # stumps, stairs and pits are polygon bodies
        shape = body.fixtures[0].shape
        if isinstance(shape, type(env._block.shape)):
            vertices = [tuple(body.transform * v) for v in shape.vertices]
            if max(v[0] for v in vertices) >= left and min(v[0] for v in vertices) <= right:
                _world_polygon(canvas, shifted(vertices), walker.SCALE, body.color1, body.color2)
    flag_x = walker.TERRAIN_STEP * 3 * walker.SCALE - offset
    base = canvas.to_screen(flag_x, walker.TERRAIN_HEIGHT * walker.SCALE)
    pygame.draw.line(canvas.surface, (20, 20, 20), base, (base[0], base[1] - 50), 2)
    pygame.draw.polygon(
        canvas.surface, FLAG, [(base[0], base[1] - 50), (base[0], base[1] - 40), (base[0] + 25, base[1] - 45)]
    )
    if env.hull is not None:
        for lidar in env.lidar:
            start = canvas.to_screen((lidar.p1[0] - env.scroll) * walker.SCALE, lidar.p1[1] * walker.SCALE)
            end = canvas.to_screen((lidar.p2[0] - env.scroll) * walker.SCALE, lidar.p2[1] * walker.SCALE)
            pygame.draw.line(canvas.surface, LIDAR, start, end, 1)
        for i, body in enumerate(env.legs):
            color = LEG_FAR if i < 2 else LEG_NEAR
            _world_polygon(canvas, shifted(_body_outline(body)), walker.SCALE, color, HULL_EDGE)
        _world_polygon(canvas, shifted(_body_outline(env.hull)), walker.SCALE, HULL, HULL_EDGE)
