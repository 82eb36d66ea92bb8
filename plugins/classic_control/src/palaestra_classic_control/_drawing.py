"""Scene drawing for the classic-control envs, with pygame primitives only."""

from __future__ import annotations

import math
from collections.abc import Callable

from palaestra.plugin import Canvas, circle, polygon, rotated_box
from palaestra_classic_control._valley import height, slope_angle

__all__ = ["draw_acrobot", "draw_cartpole", "draw_mountain_car", "draw_pendulum"]

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
TRACK = (60, 60, 60)
CART = (40, 40, 40)
POLE = (204, 153, 102)
AXLE = (127, 127, 204)
HILL = (30, 30, 30)
FLAG = (230, 200, 20)
ROD = (204, 77, 77)
LINK = (0, 204, 204)
JOINT = (204, 204, 0)


def draw_cartpole(canvas: Canvas, x: float, theta: float, x_threshold: float, half_length: float) -> None:
    """A grey cart on a track with a wooden pole leaning by ``theta``."""
    surface, pygame = canvas.surface, canvas.pygame
    surface.fill(WHITE)
    scale = canvas.width / (2 * x_threshold)
    cart_x = x * scale + canvas.width / 2.0
    cart_y = 100.0
    cart_w, cart_h = 50.0, 30.0
    pygame.draw.line(surface, TRACK, canvas.to_screen(0, cart_y), canvas.to_screen(canvas.width, cart_y))
    polygon(
        canvas,
        [
            (cart_x - cart_w / 2, cart_y - cart_h / 2),
            (cart_x - cart_w / 2, cart_y + cart_h / 2),
            (cart_x + cart_w / 2, cart_y + cart_h / 2),
            (cart_x + cart_w / 2, cart_y - cart_h / 2),
        ],
        CART,
    )
    axle_y = cart_y + cart_h / 4.0
    pole_len = scale * 2 * half_length
    # The pole points up at theta = 0 and leans right for positive theta.
    polygon(canvas, rotated_box(cart_x, axle_y, pole_len, 10.0, math.pi / 2 - theta), POLE)
    circle(canvas, (cart_x, axle_y), 5.0, AXLE)


def draw_mountain_car(
    canvas: Canvas, position: float, min_position: float, max_position: float, goal_position: float
) -> None:
    """The valley curve, a car on it tilted to the slope, and the goal flag."""
    surface, pygame = canvas.surface, canvas.pygame
    surface.fill(WHITE)
    scale = canvas.width / (max_position - min_position)

    def world(px: float, py: float) -> tuple[float, float]:
        return (px - min_position) * scale, py * scale

    curve = [world(min_position + i * (max_position - min_position) / 99, 0) for i in range(100)]
    curve = [(cx, height(min_position + cx / scale) * scale) for cx, _ in curve]
    pygame.draw.aalines(surface, HILL, False, [canvas.to_screen(*p) for p in curve])
    flag_x, flag_y = world(goal_position, height(goal_position))
    pygame.draw.line(surface, BLACK, canvas.to_screen(flag_x, flag_y), canvas.to_screen(flag_x, flag_y + 50))
    polygon(canvas, [(flag_x, flag_y + 50), (flag_x, flag_y + 40), (flag_x + 25, flag_y + 45)], FLAG)
    angle = slope_angle(position)
    base_x, base_y = world(position, height(position))
    lift = 10.0
    rotate = _rotator(angle, base_x, base_y)
    body = [rotate(-20, lift), rotate(-20, lift + 20), rotate(20, lift + 20), rotate(20, lift)]
    polygon(canvas, body, BLACK)
    for wheel_x in (-12.0, 12.0):
        circle(canvas, rotate(wheel_x, lift), 6.0, (128, 128, 128))


def _rotator(angle: float, ox: float, oy: float) -> Callable[[float, float], tuple[float, float]]:
    c, s = math.cos(angle), math.sin(angle)
    return lambda px, py: (ox + px * c - py * s, oy + px * s + py * c)


def draw_pendulum(canvas: Canvas, theta: float, last_u: float | None) -> None:
    """A red rod hanging from a pivot, with an arc showing the last torque."""
    surface, pygame = canvas.surface, canvas.pygame
    surface.fill(WHITE)
    size = canvas.width
    scale = size / 4.4
    cx = cy = size / 2
    # theta = 0 is upright.
    polygon(canvas, rotated_box(cx, cy, scale, 0.2 * scale, theta + math.pi / 2), ROD)
    circle(canvas, (cx, cy), 0.1 * scale, BLACK)
    tip = (cx + scale * math.cos(theta + math.pi / 2), cy + scale * math.sin(theta + math.pi / 2))
    circle(canvas, tip, 0.1 * scale, ROD)
    if last_u is not None and last_u != 0:
        radius = 0.5 * scale * min(1.0, abs(float(last_u)) / 2.0) + 0.1 * scale
        rect = pygame.Rect(cx - radius, size - cy - radius, 2 * radius, 2 * radius)
        start, stop = (0.0, math.pi) if last_u > 0 else (math.pi, 2 * math.pi)
        pygame.draw.arc(surface, BLACK, rect, start, stop, 3)


def draw_acrobot(canvas: Canvas, theta1: float, theta2: float, link_length: float) -> None:
    """Two links hanging from a pivot and the height line the tip must cross."""
    surface, pygame = canvas.surface, canvas.pygame
    surface.fill(WHITE)
    size = canvas.width
    bound = 2 * link_length + 0.2
    scale = size / (2 * bound)
    cx = cy = size / 2
    goal_y = cy + link_length * scale
    pygame.draw.line(surface, BLACK, canvas.to_screen(0, goal_y), canvas.to_screen(size, goal_y))
    # theta1 = 0 hangs straight down.
    a1 = theta1 - math.pi / 2
    p1 = (cx + link_length * scale * math.cos(a1), cy + link_length * scale * math.sin(a1))
    a2 = a1 + theta2
    for (x0, y0), angle in (((cx, cy), a1), (p1, a2)):
        polygon(canvas, rotated_box(x0, y0, link_length * scale, 0.2 * scale, angle), LINK)
        circle(canvas, (x0, y0), 0.1 * scale, JOINT)
