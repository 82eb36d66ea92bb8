"""A top-down car for CarRacing: a hull on four wheels with a simple tyre-friction model.

Each wheel keeps its own spin (``omega``); the engine drives the rear wheels, brakes
stop all four, the front wheels steer through joint motors, and the difference between
the wheel's spin and the ground speed becomes a friction force limited by the surface.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from palaestra_box2d._engine import Box2D

__all__ = ["Car", "SkidMark"]

SIZE = 0.02
ENGINE_POWER = 100000000 * SIZE * SIZE
WHEEL_MOMENT_OF_INERTIA = 4000 * SIZE * SIZE
FRICTION_LIMIT = 1000000 * SIZE * SIZE  # on road; grass gives 60 %
TYRE_STIFFNESS = 205000 * SIZE * SIZE
BRAKE_FORCE = 15
WHEEL_R = 27
WHEEL_W = 14
WHEELPOS = ((-55, +80), (+55, +80), (-55, -82), (+55, -82))  # front left, front right, rear left, rear right
HULL_POLYS = (
    ((-60, +130), (+60, +130), (+60, +110), (-60, +110)),
    ((-15, +120), (+15, +120), (+20, +20), (-20, 20)),
    ((+25, +20), (+50, -10), (+50, -40), (+20, -90), (-20, -90), (-50, -40), (-50, -10), (-25, +20)),
    ((-50, -120), (+50, -120), (+50, -90), (-50, -90)),
)
HULL_COLOR = (0.8, 0.0, 0.0)  # as fractions of 255
WHEEL_COLOR = (0, 0, 0)
WHEEL_WHITE = (77, 77, 77)  # the stripe that shows a wheel turning
MUD_COLOR = (102, 102, 0)
MAX_SKID_MARKS = 30
_HALF_WIDTH, _HALF_LENGTH = WHEEL_W * SIZE, WHEEL_R * SIZE
WHEEL_SHAPE = [
    (-_HALF_WIDTH, _HALF_LENGTH),
    (_HALF_WIDTH, _HALF_LENGTH),
    (_HALF_WIDTH, -_HALF_LENGTH),
    (-_HALF_WIDTH, -_HALF_LENGTH),
]
# Wheels only touch the road sensors, never each other or the hull.
WHEEL_MATERIAL = {"density": 0.1, "categoryBits": 0x0020, "maskBits": 0x001, "restitution": 0.0}


@dataclass(slots=True)
class SkidMark:
    """A trace a sliding wheel leaves (only drawn; never felt by the physics)."""

    color: tuple[int, int, int]
    poly: list[tuple[float, float]]
    grass: bool


class Car:
    """The car's bodies in ``world`` and its wheel state.

    Args:
        world: The Box2D world.
        init_angle: Heading (radians).
        init_x: Position x.
        init_y: Position y.
    """

    def __init__(self, world: Any, init_angle: float, init_x: float, init_y: float) -> None:
        self.world = world
        self.hull = world.CreateDynamicBody(
            position=(init_x, init_y),
            angle=init_angle,
            fixtures=[
                Box2D.b2FixtureDef(
                    shape=Box2D.b2PolygonShape(vertices=[(x * SIZE, y * SIZE) for x, y in poly]), density=1.0
                )
                for poly in HULL_POLYS
            ],
        )
        self.hull.color = HULL_COLOR
        self.fuel_spent = 0.0
        self.skid_marks: deque[SkidMark] = deque(maxlen=MAX_SKID_MARKS)
        self.wheels: list[Any] = []
        for wx, wy in WHEELPOS:
            wheel = world.CreateDynamicBody(
                position=(init_x + wx * SIZE, init_y + wy * SIZE),
                angle=init_angle,
                fixtures=Box2D.b2FixtureDef(
                    shape=Box2D.b2PolygonShape(vertices=WHEEL_SHAPE), **WHEEL_MATERIAL
                ),
            )
            wheel.wheel_rad = WHEEL_R * SIZE
            wheel.gas = wheel.brake = wheel.steer = wheel.phase = wheel.omega = 0.0
            wheel.color = WHEEL_COLOR
            wheel.skid_start = wheel.skid_mark = None
            axle = Box2D.b2RevoluteJointDef(bodyA=self.hull, bodyB=wheel)
            axle.localAnchorA, axle.localAnchorB = (wx * SIZE, wy * SIZE), (0, 0)
            axle.enableMotor = axle.enableLimit = True  # the motor steers; the limit is full lock
            axle.maxMotorTorque, axle.motorSpeed = 180 * 900 * SIZE * SIZE, 0
            axle.lowerAngle, axle.upperAngle = -0.4, +0.4
            wheel.joint = world.CreateJoint(axle)
            wheel.tiles = set()  # road tiles under the wheel (filled by the contact listener)
            wheel.userData = wheel
            self.wheels.append(wheel)

    def gas(self, gas: Any) -> None:
        """Open the throttle of the rear wheels towards ``gas`` (in [0, 1]) by at most 0.1 per step."""
        gas = min(max(gas, 0), 1)
        for wheel in self.wheels[2:4]:
            wheel.gas += min(gas - wheel.gas, 0.1)

    def brake(self, brake: Any) -> None:
        """Brake all wheels (``>= 0.9`` locks them)."""
        for wheel in self.wheels:
            wheel.brake = brake

    def steer(self, steer: Any) -> None:
        """Aim the front wheels (``-1`` full left ... ``+1`` full right, in joint angle units)."""
        self.wheels[0].steer = steer
        self.wheels[1].steer = steer

    def step(self, dt: float) -> None:
        """Update wheel spins and apply tyre forces for one time step."""
        for wheel in self.wheels:
            joint = wheel.joint
            error = wheel.steer - joint.angle
            joint.motorSpeed = float(np.sign(error) * min(50.0 * abs(error), 3.0))
            friction_limit = FRICTION_LIMIT * 0.6
            for tile in wheel.tiles:
                friction_limit = max(friction_limit, FRICTION_LIMIT * tile.road_friction)
            on_grass = not wheel.tiles
            forw = wheel.GetWorldVector((0, 1))
            side = wheel.GetWorldVector((1, 0))
            v = wheel.linearVelocity
            vf = forw[0] * v[0] + forw[1] * v[1]  # forward speed
            vs = side[0] * v[0] + side[1] * v[1]  # sideways speed
            omega = wheel.omega
            omega += dt * ENGINE_POWER * wheel.gas / WHEEL_MOMENT_OF_INERTIA / (abs(omega) + 5.0)
            self.fuel_spent += dt * ENGINE_POWER * wheel.gas
            if wheel.brake >= 0.9:
                omega = 0
            elif wheel.brake > 0:
                direction = -np.sign(omega)
                val = BRAKE_FORCE * wheel.brake
                if abs(val) > abs(omega):
                    val = abs(omega)
                omega += direction * val
            wheel.phase += omega * dt
            f_force = (-vf + omega * wheel.wheel_rad) * TYRE_STIFFNESS
            p_force = -vs * TYRE_STIFFNESS
            force = math.sqrt(f_force * f_force + p_force * p_force)
            self._trace_skid(wheel, abs(force) > 2.0 * friction_limit, on_grass)
            if abs(force) > friction_limit:  # sliding: the force is capped by the surface
                f_force = f_force / force * friction_limit
                p_force = p_force / force * friction_limit
            omega -= dt * f_force * wheel.wheel_rad / WHEEL_MOMENT_OF_INERTIA
            wheel.omega = omega
            wheel.ApplyForceToCenter(
                (p_force * side[0] + f_force * forw[0], p_force * side[1] + f_force * forw[1]), True
            )

    def _trace_skid(self, wheel: Any, skidding: bool, on_grass: bool) -> None:
        """Extend or start the wheel's skid mark while it slides hard (twice the grip)."""
        if not skidding:
            wheel.skid_start = wheel.skid_mark = None
            return
        mark = wheel.skid_mark
        if mark is not None and mark.grass == on_grass and len(mark.poly) < 30:
            mark.poly.append((wheel.position[0], wheel.position[1]))
        elif wheel.skid_start is None:
            wheel.skid_start = wheel.position
        else:
            start, now = wheel.skid_start, wheel.position
            wheel.skid_mark = SkidMark(
                MUD_COLOR if on_grass else WHEEL_COLOR, [(start[0], start[1]), (now[0], now[1])], on_grass
            )
            self.skid_marks.append(wheel.skid_mark)
            wheel.skid_start = None

    def destroy(self) -> None:
        """Remove the car's bodies from the world."""
        self.world.DestroyBody(self.hull)
        self.hull = None
        for wheel in self.wheels:
            self.world.DestroyBody(wheel)
        self.wheels = []
