"""Scene drawing for the classic-control envs: Gymnasium's pictures, from the same facts.

Each picture is drawn y-up (the canvas flips it when shown) with the primitives, coordinates,
colours and drawing order Gymnasium 1.4.0 uses, and with the same float arithmetic: numpy's
sin and cos on the state's own scalars (float32 where the env keeps float32), pygame's own
vector rotation, integer pixel positions truncated where Gymnasium truncates them. So every
frame is identical byte for byte, except Pendulum's torque arrow: Gymnasium blits an image
file there, and ours is drawn (an arc and a head in the same box).

Every function takes the env's state scalars as the env holds them: the dtype decides the
rounding of the coordinates, and with it which pixel an edge falls on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra.plugin import Canvas
from palaestra_classic_control._valley import height

__all__ = ["draw_acrobot", "draw_cartpole", "draw_mountain_car", "draw_pendulum"]

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
POLE = (202, 152, 101)
AXLE = (129, 132, 203)
WHEEL = (128, 128, 128)
FLAG = (204, 204, 0)
ROD = (204, 77, 77)
LINK = (0, 204, 204)
JOINT = (204, 204, 0)


def _turned(canvas: Canvas, corners: Sequence[tuple[float, float]], angle: Any) -> list[Any]:
    """``corners`` rotated by ``angle`` radians about the origin, by pygame's own rotation."""
    vector = canvas.pygame.math.Vector2
    return [vector(corner).rotate_rad(angle) for corner in corners]


def _shape(canvas: Canvas, points: list[Any], color: tuple[int, int, int]) -> None:
    """A filled polygon with an anti-aliased rim (the rim first, as Gymnasium draws it)."""
    gfxdraw = canvas.gfxdraw
    gfxdraw.aapolygon(canvas.surface, points, color)
    gfxdraw.filled_polygon(canvas.surface, points, color)


def _disc(canvas: Canvas, x: int, y: int, radius: int, color: tuple[int, int, int]) -> None:
    """A filled circle with an anti-aliased rim, at whole pixels."""
    gfxdraw = canvas.gfxdraw
    gfxdraw.aacircle(canvas.surface, x, y, radius, color)
    gfxdraw.filled_circle(canvas.surface, x, y, radius, color)


def draw_cartpole(canvas: Canvas, x: Any, theta: Any, x_threshold: float, half_length: float) -> None:
    """A black cart whose top is 100 px up, a wooden pole leaning by ``theta``, the track."""
    canvas.surface.fill(WHITE)
    scale = canvas.width / (x_threshold * 2)
    pole_width, cart_width, cart_height = 10.0, 50.0, 30.0
    pole_length = scale * (2 * half_length)
    cart_x = x * scale + canvas.width / 2.0
    cart_top = 100
    axle_rise = cart_height / 4.0
    half_w, half_h = cart_width / 2, cart_height / 2
    cart = [(-half_w, -half_h), (-half_w, half_h), (half_w, half_h), (half_w, -half_h)]
    _shape(canvas, [(cx + cart_x, cy + cart_top) for cx, cy in cart], BLACK)
    half_pole = pole_width / 2
    pole = [(-half_pole, -half_pole), (-half_pole, pole_length - half_pole)]
    pole += [(half_pole, pole_length - half_pole), (half_pole, -half_pole)]
    # The pole leans right (clockwise) for positive theta; (py + top) + rise, in that order.
    _shape(
        canvas, [(p[0] + cart_x, p[1] + cart_top + axle_rise) for p in _turned(canvas, pole, -theta)], POLE
    )
    _disc(canvas, int(cart_x), int(cart_top + axle_rise), int(pole_width / 2), AXLE)
    canvas.gfxdraw.hline(canvas.surface, 0, canvas.width, cart_top, BLACK)


def draw_mountain_car(
    canvas: Canvas, position: Any, min_position: float, max_position: float, goal_position: float
) -> None:
    """The valley, the car lifted 10 px off it (tilted by cos(3x) radians), the goal flag."""
    surface, gfxdraw = canvas.surface, canvas.gfxdraw
    surface.fill(WHITE)
    scale = canvas.width / (max_position - min_position)
    xs = np.linspace(min_position, max_position, 100)
    valley = list(zip((xs - min_position) * scale, height(xs, np.sin) * scale, strict=True))
    canvas.pygame.draw.aalines(surface, BLACK, False, valley)
    # Gymnasium tilts the car by cos(3x) radians itself (not the slope's angle): a fact of the picture.
    tilt = math.cos(3 * position)
    along = (position - min_position) * scale
    ground = height(position, np.sin) * scale
    clearance = 10
    car_width, car_height = 40, 20
    body = [
        (-car_width / 2, 0),
        (-car_width / 2, car_height),
        (car_width / 2, car_height),
        (car_width / 2, 0),
    ]
    _shape(canvas, [(p[0] + along, p[1] + clearance + ground) for p in _turned(canvas, body, tilt)], BLACK)
    for wheel in _turned(canvas, [(car_width / 4, 0), (-car_width / 4, 0)], tilt):
        _disc(canvas, int(wheel[0] + along), int(wheel[1] + clearance + ground), int(car_height / 2.5), WHEEL)
    flag_x = int((goal_position - min_position) * scale)
    flag_bottom = int(height(goal_position, np.sin) * scale)
    flag_top = flag_bottom + 50
    gfxdraw.vline(surface, flag_x, flag_bottom, flag_top, BLACK)
    _shape(canvas, [(flag_x, flag_top), (flag_x, flag_top - 10), (flag_x + 25, flag_top - 5)], FLAG)


def draw_pendulum(canvas: Canvas, theta: Any, last_u: Any) -> None:
    """A red rod from the centre (upright at theta = 0), the last torque's arrow, the axle."""
    canvas.surface.fill(WHITE)
    size = canvas.width
    scale = size / (2.2 * 2)
    centre = size // 2
    rod_length, rod_width = 1 * scale, 0.2 * scale
    angle = theta + np.pi / 2
    rod = [(0, -rod_width / 2), (0, rod_width / 2), (rod_length, rod_width / 2), (rod_length, -rod_width / 2)]
    _shape(canvas, [(p[0] + centre, p[1] + centre) for p in _turned(canvas, rod, angle)], ROD)
    _disc(canvas, centre, centre, int(rod_width / 2), ROD)
    (tip,) = _turned(canvas, [(rod_length, 0)], angle)
    _disc(canvas, int(tip[0] + centre), int(tip[1] + centre), int(rod_width / 2), ROD)
    if last_u is not None:
        _torque_arrow(canvas, centre, float(scale * np.abs(last_u) / 2), bool(last_u > 0))
    _disc(canvas, centre, centre, int(0.05 * scale), BLACK)


def _torque_arrow(canvas: Canvas, centre: int, side: float, counter_clockwise: bool) -> None:
    """Our own arrow for the last torque, inside the ``side`` px box Gymnasium's image fills.

    Three quarters of a circle and a head at the end it turns towards (y up: positive
    angles run counter-clockwise, as on the screen once the frame is flipped).
    """
    if side < 8:  # too small to draw
        return
    pygame = canvas.pygame
    radius = 0.35 * side
    head = 0.2 * side
    ring = pygame.Rect(0, 0, round(2 * radius), round(2 * radius))
    ring.center = (centre, centre)
    start, stop = math.pi / 2, 2 * math.pi
    pygame.draw.arc(canvas.surface, BLACK, ring, start, stop, max(1, int(side) // 14))
    end = stop if counter_clockwise else start
    tip_x, tip_y = centre + radius * math.cos(end), centre + radius * math.sin(end)
    ahead = 1.0 if counter_clockwise else -1.0  # the way round the arrow points
    along = (-math.sin(end) * ahead, math.cos(end) * ahead)
    points = [
        (tip_x + along[0] * head, tip_y + along[1] * head),
        (tip_x - along[1] * head * 0.6, tip_y + along[0] * head * 0.6),
        (tip_x + along[1] * head * 0.6, tip_y - along[0] * head * 0.6),
    ]
    pygame.draw.polygon(canvas.surface, BLACK, points)


def draw_acrobot(canvas: Canvas, theta1: Any, theta2: Any, link_length: float) -> None:
    """Two links hanging from the centre (theta1 = 0 straight down) and the line the tip must cross."""
    canvas.surface.fill(WHITE)
    size = canvas.width
    scale = size / ((2 * link_length + 0.2) * 2)
    centre = size / 2
    # numpy's cos and sin on the state's own scalars: a fresh start is float32, and so is its elbow.
    elbow = (-link_length * np.cos(theta1) * scale, link_length * np.sin(theta1) * scale)
    joints = np.array([[0, 0], elbow])[:, ::-1]
    angles = (theta1 - np.pi / 2, theta1 + theta2 - np.pi / 2)
    goal_height = 1 * scale + centre
    canvas.pygame.draw.line(
        canvas.surface, BLACK, (-2.2 * scale + centre, goal_height), (2.2 * scale + centre, goal_height)
    )
    length = link_length * scale
    link = [(0, -0.1 * scale), (0, 0.1 * scale), (length, 0.1 * scale), (length, -0.1 * scale)]
    for (jx, jy), angle in zip(joints, angles, strict=True):
        x, y = jx + centre, jy + centre
        _shape(canvas, [(p[0] + x, p[1] + y) for p in _turned(canvas, link, angle)], LINK)
        _disc(canvas, int(x), int(y), int(0.1 * scale), JOINT)
