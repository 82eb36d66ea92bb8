"""BipedalWalker: drive the hip and knee motors of a two-legged walker across rough terrain.

Physics by the Box2D engine. The world, its terrain and the walker are built in the
reference's order with Gymnasium 1.4.0's draws from the env's generator, so trajectories
match Gymnasium's step for step.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.plugin import CanvasRendering, EzPickle, invalid_action
from palaestra_box2d._drawing import (
    GRASS_EDGES,
    INSTALL_HINT,
    OBSTACLE,
    OBSTACLE_EDGE,
    WALKER_HULL,
    draw_bipedal_walker,
    lidar_ray_shown,
    walker_leg_colors,
)
from palaestra_box2d._engine import NO_SNAPSHOTS, Box2D, ContactListener, create_body, create_fixture
from palaestra_box2d._lidar import Lidar
from palaestra_box2d._mode_names import mode_is_a_keyword
from palaestra_box2d._walker_scene import FPS, SCALE, TERRAIN_HEIGHT, TERRAIN_STEP, VIEWPORT_H, VIEWPORT_W

__all__ = ["BipedalWalker", "BipedalWalkerHardcore"]

MOTORS_TORQUE = 80
SPEED_HIP = 4
SPEED_KNEE = 6
INITIAL_RANDOM = 5
HULL_POLY = ((-30, 9), (6, 9), (34, 1), (34, -8), (-30, -8))
LEG_DOWN = -8 / SCALE
LEG_W, LEG_H = 8 / SCALE, 34 / SCALE
TERRAIN_LENGTH = 200  # points
TERRAIN_GRASS = 10  # how long grass spells last, at most
TERRAIN_STARTPAD = 20  # flat points at the start
CLOUDS = TERRAIN_LENGTH // 20
FRICTION = 2.5
FINISH_X = (TERRAIN_LENGTH - TERRAIN_GRASS) * TERRAIN_STEP
VELOCITY_ITERATIONS, POSITION_ITERATIONS = 6 * 30, 2 * 30
ENERGY_COST = 0.00035 * MOTORS_TORQUE  # reward per unit of torque fraction and motor

GRASS, STUMP, STAIRS, PIT = range(4)
NUM_STATES = 4


def _fixture(shape: Any, **kwargs: Any) -> Any:
    return Box2D.b2FixtureDef(shape=shape, restitution=0.0, categoryBits=0x0020, maskBits=0x001, **kwargs)


# Tags on the fixtures the contact listener asks about (others carry None): reading a
# fixture's tag costs a fraction of comparing bodies through the binding.
HULL_TAG, FAR_SHIN_TAG, NEAR_SHIN_TAG = 1, 2, 3


class _Contacts(ContactListener):  # type: ignore[misc]  # Box2D has no types
    """Game over when the hull touches the ground; lower legs report ground contact."""

    def __init__(self, env: BipedalWalker) -> None:
        super().__init__()
        self.env = env

    def BeginContact(self, contact: Any) -> None:
        first, second = contact.fixtureA.userData, contact.fixtureB.userData
        if first is None and second is None:
            return
        env = self.env
        if first == HULL_TAG or second == HULL_TAG:
            env.game_over = True
        if first == FAR_SHIN_TAG or second == FAR_SHIN_TAG:
            env.legs[1].ground_contact = True
        if first == NEAR_SHIN_TAG or second == NEAR_SHIN_TAG:
            env.legs[3].ground_contact = True

    def EndContact(self, contact: Any) -> None:
        first, second = contact.fixtureA.userData, contact.fixtureB.userData
        if first is None and second is None:
            return
        legs = self.env.legs
        if first == FAR_SHIN_TAG or second == FAR_SHIN_TAG:
            legs[1].ground_contact = False
        if first == NEAR_SHIN_TAG or second == NEAR_SHIN_TAG:
            legs[3].ground_contact = False


class BipedalWalker(CanvasRendering, Env[np.ndarray, np.ndarray], EzPickle):
    """Walk to the far end of the terrain without falling.

    Observation (float32, 24): hull angle and angular velocity, hull x/y velocity, angle
    and speed of each hip and knee, ground contact of each lower leg, and ten lidar
    distances. Action: ``Box(-1, 1, (4,))``, the torque of the hip and knee motors of each
    leg (its sign picks the motor direction). Reward: 130 per metre forward (scaled),
    minus 5 per unit of hull tilt change, minus a small torque cost; -100 for falling.
    The episode terminates on falling or reaching the end.

    Args:
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
        hardcore: Add stumps, stairs and pits to the terrain.
    """

    snapshot_unsupported_reason = NO_SNAPSHOTS

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}
    #: What each observation dimension and action means (``palaestra info`` and the docs show them).
    dimension_meanings = (
        ["hull angle", "hull angular velocity", "horizontal velocity", "vertical velocity",
         "hip 1 angle", "hip 1 speed", "knee 1 angle", "knee 1 speed", "leg 1 touches the ground (1.0 or 0.0)",
         "hip 2 angle", "hip 2 speed", "knee 2 angle", "knee 2 speed", "leg 2 touches the ground (1.0 or 0.0)",
         (10, "lidar: the fraction of each of 10 rays' range before it hits the ground, front and below")],
        ["hip 1 torque (motor speed)", "knee 1 torque", "hip 2 torque", "knee 2 torque"],
    )  # fmt: skip
    canvas_size = (VIEWPORT_W, VIEWPORT_H)
    render_install_hint = INSTALL_HINT
    canvas_y_up = True  # drawn as Gymnasium draws it, y up

    def __init__(self, render_mode: str | None = None, hardcore: bool = False) -> None:
        EzPickle.__init__(self, render_mode, hardcore)
        self.hardcore = hardcore
        self.render_mode = render_mode
        # One world for the env's life: bodies are destroyed and rebuilt on reset, as in
        # Gymnasium 1.4.0, which keeps Box2D's internal ordering (and so the numbers) equal.
        self.world = Box2D.b2World()
        self.terrain: list[Any] = []
        self.hull: Any = None
        self.legs: list[Any] = []
        self.joints: list[Any] = []
        self.prev_shaping: float | None = None
        self.game_over = False
        self.scroll = 0.0
        self.lidar_render = 0  # frames drawn since the reset: which lidar ray the next one shows
        # Terrain fixtures are reused with new vertices for every piece, as in Gymnasium 1.4.0.
        self._block = Box2D.b2FixtureDef(
            shape=Box2D.b2PolygonShape(vertices=[(0, 0), (1, 0), (1, -1), (0, -1)]), friction=FRICTION
        )
        self._static_body = Box2D.b2BodyDef(type=Box2D.b2_staticBody)
        self._edge = Box2D.b2FixtureDef(
            shape=Box2D.b2EdgeShape(vertices=[(0, 0), (1, 1)]), friction=FRICTION, categoryBits=0x0001
        )
        # The shapes the two definitions hold (each read of .shape makes a new proxy of it).
        self._block_shape, self._edge_shape = self._block.shape, self._edge.shape
        self._hull_fixture = Box2D.b2FixtureDef(
            shape=Box2D.b2PolygonShape(vertices=[(x / SCALE, y / SCALE) for x, y in HULL_POLY]),
            density=5.0,
            friction=0.1,
            categoryBits=0x0020,
            maskBits=0x001,
            restitution=0.0,
        )
        self._upper_fixture = _fixture(Box2D.b2PolygonShape(box=(LEG_W / 2, LEG_H / 2)), density=1.0)
        self._lower_fixture = _fixture(Box2D.b2PolygonShape(box=(0.8 * LEG_W / 2, LEG_H / 2)), density=1.0)
        # Hull: angle, angular speed, x and y speed. Each leg: hip angle and speed, knee
        # angle and speed, ground contact (0 or 1, bounded by 5). Then ten lidar fractions.
        leg = [math.pi, 5.0, math.pi, 5.0, 5.0]
        high = np.array([math.pi, 5.0, 5.0, 5.0, *leg, *leg, *[1.0] * 10], dtype=np.float32)
        low = -high
        low[[8, 13]] = -0.0  # contacts are never negative
        self.observation_space = spaces.Box(low, high)
        self.action_space = spaces.Box(np.full(4, -1, dtype=np.float32), np.full(4, 1, dtype=np.float32))
        self._lidar = Lidar()
        self.lidar = self._lidar.rays  # their lines are drawn

    # -- episode ---------------------------------------------------------------------

    def _destroy(self) -> None:
        if not self.terrain:
            return
        self.world.contactListener = None
        for body in (*self.terrain, self.hull, *self.legs):
            self.world.DestroyBody(body)
        self._lidar.set_ground([], [])
        self.terrain, self.hull, self.legs, self.joints = [], None, [], []

    def _static(self, fixture: Any, vertices: list[tuple[float, float]], edge_color: Any = None) -> None:
        """A terrain body: an obstacle block, or (for the edge fixture) a stretch of ground.

        Each carries its colours as ``color1``/``color2`` (fill, edge), as Gymnasium's bodies do.
        """
        if fixture is self._edge:  # its vertex0 and vertex3 stay unused (set so at construction)
            self._edge_shape.vertex1, self._edge_shape.vertex2 = vertices
        else:
            self._block_shape.vertices = vertices
        # CreateStaticBody(fixtures=fixture) without building a body definition each time, nor
        # the binding's Python checks of one: the same two engine calls.
        body = create_body(self.world, self._static_body)
        create_fixture(body, fixture)
        body.color1, body.color2 = (OBSTACLE, OBSTACLE_EDGE) if fixture is self._block else (edge_color,) * 2
        self.terrain.append(body)

    def _generate_terrain(self) -> None:
        """Walk a state machine over the terrain points; obstacles are static blocks."""
        rng = self.np_random
        random = rng.random
        step = TERRAIN_STEP
        state, oneshot = GRASS, False
        velocity, y = 0.0, TERRAIN_HEIGHT
        counter: Any = TERRAIN_STARTPAD
        stair_steps: Any = 0
        stair_width: Any = 0
        stair_height = 0
        original_y: Any = 0
        self.terrain, self.terrain_y = [], []
        self.terrain_x = [i * step for i in range(TERRAIN_LENGTH)]
        for i, x in enumerate(self.terrain_x):
            if state == GRASS and not oneshot:
                # np.sign's value and uniform(-1, 1)'s (numpy's -1 + 2 * u) in Python floats:
                # the same roundings as numpy's scalars, at a fraction of their cost.
                rise = TERRAIN_HEIGHT - y
                velocity = 0.8 * velocity + 0.01 * (1.0 if rise > 0 else -1.0 if rise < 0 else 0.0)
                if i > TERRAIN_STARTPAD:
                    velocity += (-1.0 + 2.0 * random()) / SCALE
                y += velocity
            elif state == PIT and oneshot:
                counter = rng.integers(3, 5)
                pit = [(x, y), (x + step, y), (x + step, y - 4 * step), (x, y - 4 * step)]
                self._static(self._block, pit)
                self._static(self._block, [(px + step * counter, py) for px, py in pit])
                counter += 2
                original_y = y
            elif state == PIT and not oneshot:
                # Down at the pit's bottom, back at the rim on its last point.
                y = original_y - 4 * step if counter > 1 else original_y
            elif state == STUMP and oneshot:
                counter = rng.integers(1, 3)
                size = counter * step
                self._static(self._block, [(x, y), (x + size, y), (x + size, y + size), (x, y + size)])
            elif state == STAIRS and oneshot:
                stair_height = +1 if rng.random() > 0.5 else -1
                stair_width = rng.integers(4, 5)
                stair_steps = rng.integers(3, 5)
                original_y = y
                for s in range(stair_steps):
                    x0, x1 = x + s * stair_width * step, x + (1 + s) * stair_width * step
                    top, bottom = y + s * stair_height * step, y + (-1 + s * stair_height) * step
                    self._static(self._block, [(x0, top), (x1, top), (x1, bottom), (x0, bottom)])
                counter = stair_steps * stair_width
            elif state == STAIRS and not oneshot:
                s = stair_steps * stair_width - counter - stair_height
                y = original_y + s / stair_width * stair_height * step
            oneshot = False
            self.terrain_y.append(y)
            counter -= 1
            if counter == 0:
                counter = int(rng.integers(TERRAIN_GRASS // 2, TERRAIN_GRASS))
                # After grass, hardcore terrain gets an obstacle (stump, stairs or pit).
                state = int(rng.integers(1, NUM_STATES)) if state == GRASS and self.hardcore else GRASS
                oneshot = True
        self.terrain_poly = []
        for i in range(TERRAIN_LENGTH - 1):
            segment = [(self.terrain_x[i], self.terrain_y[i]), (self.terrain_x[i + 1], self.terrain_y[i + 1])]
            self._static(self._edge, segment, GRASS_EDGES[i % 2])
            self.terrain_poly.append([*segment, (segment[1][0], 0), (segment[0][0], 0)])
        self.terrain.reverse()

    def _generate_clouds(self) -> None:
        """Ten clouds, each five points around a centre.

        The centre is ``uniform(0, TERRAIN_LENGTH)`` terrain steps along; each point is
        ``uniform(0, 5 * TERRAIN_STEP)`` off a pentagon's corner, in x and then in y.
        """
        # All their numbers in one draw: numpy's uniform(0, high) is 0.0 + high * u of the
        # stream's next double u, and the doubles of random(n) are the next n of the stream.
        # (Adding 0.0 to a product is exact, so a fused multiply-add would give the same.)
        doubles = iter(self.np_random.random(CLOUDS * 11).tolist())
        offset = 5 * TERRAIN_STEP
        y = VIEWPORT_H / SCALE * 3 / 4
        self.cloud_poly = []
        for _ in range(CLOUDS):
            x = (0.0 + TERRAIN_LENGTH * next(doubles)) * TERRAIN_STEP
            poly = []
            for a in range(5):
                px = x + 15 * TERRAIN_STEP * math.sin(3.14 * 2 * a / 5) + (0.0 + offset * next(doubles))
                py = y + 5 * TERRAIN_STEP * math.cos(3.14 * 2 * a / 5) + (0.0 + offset * next(doubles))
                poly.append((px, py))
            self.cloud_poly.append((poly, min(p[0] for p in poly), max(p[0] for p in poly)))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Generate new terrain and stand the walker at its start."""
        super().reset(seed=seed)
        self._destroy()
        self._contacts = _Contacts(self)
        self.world.contactListener = self._contacts
        self.game_over = False
        self.prev_shaping = None
        self.scroll = 0.0
        self.lidar_render = 0
        self._generate_terrain()
        self._lidar.set_ground(
            [(*poly[0], *poly[1]) for poly in self.terrain_poly],
            [body for body in self.terrain if body.color1 is OBSTACLE],
        )
        self._generate_clouds()
        init_x = TERRAIN_STEP * TERRAIN_STARTPAD / 2
        init_y = TERRAIN_HEIGHT + 2 * LEG_H
        self.hull = self.world.CreateDynamicBody(position=(init_x, init_y), fixtures=self._hull_fixture)
        self.hull.fixtures[0].userData = HULL_TAG
        self.hull.color1, self.hull.color2 = WALKER_HULL
        self.hull.ApplyForceToCenter((self.np_random.uniform(-INITIAL_RANDOM, INITIAL_RANDOM), 0), True)
        self.legs, self.joints = [], []
        for side in (-1, +1):  # the far leg, then the near one; each hip then knee
            tilt = side * 0.05
            thigh = self.world.CreateDynamicBody(
                position=(init_x, init_y - LEG_H / 2 - LEG_DOWN), angle=tilt, fixtures=self._upper_fixture
            )
            self.joints.append(self._motor_joint(self.hull, thigh, LEG_DOWN, side, (-0.8, 1.1)))
            shin = self.world.CreateDynamicBody(
                position=(init_x, init_y - LEG_H * 3 / 2 - LEG_DOWN), angle=tilt, fixtures=self._lower_fixture
            )
            self.joints.append(self._motor_joint(thigh, shin, -LEG_H / 2, 1, (-1.6, -0.1)))
            thigh.color1, thigh.color2 = shin.color1, shin.color2 = walker_leg_colors(side)
            shin.ground_contact = False
            shin.fixtures[0].userData = FAR_SHIN_TAG if side == -1 else NEAR_SHIN_TAG
            self.legs += [thigh, shin]
        if self.render_mode == "human":
            self.render()
        return self.step(np.array([0, 0, 0, 0]))[0], {}

    def _motor_joint(
        self, parent: Any, child: Any, anchor_y: float, speed: float, limits: tuple[float, float]
    ) -> Any:
        """A motorised hinge from ``parent`` (at height ``anchor_y``) to the top of ``child``."""
        hinge = Box2D.b2RevoluteJointDef(bodyA=parent, bodyB=child)
        hinge.localAnchorA, hinge.localAnchorB = (0, anchor_y), (0, LEG_H / 2)
        hinge.enableMotor = hinge.enableLimit = True
        hinge.maxMotorTorque, hinge.motorSpeed = MOTORS_TORQUE, speed
        hinge.lowerAngle, hinge.upperAngle = limits
        return self.world.CreateJoint(hinge)

    # -- dynamics --------------------------------------------------------------------

    def _checked(self, action: Any) -> np.ndarray:
        arr = action if action.__class__ is np.ndarray else np.asarray(action)
        if arr.shape != (4,) or arr.dtype.kind not in "fiu":
            raise invalid_action(self, action, self.action_space)
        return arr

    def step(self, action: np.ndarray) -> tuple[np.ndarray, Any, bool, bool, dict[str, Any]]:
        """Set each motor's direction and torque from the action; advance 1/50 s.

        ``_walker_kernel.c``'s ``step_one`` is this step compiled: each ``# mirror:`` comment
        here names the lines there that do the same, in the same order (tested).
        """
        hull = self.hull
        if hull is None:
            raise RuntimeError("BipedalWalker.step called before reset; call env.reset() first.")
        arr = self._checked(action)
        # mirror: motors. The torque fractions keep the action's dtype, as Gymnasium 1.4.0's arithmetic does.
        fractions = np.minimum(np.abs(arr), 1)
        torques = MOTORS_TORQUE * fractions
        signs = np.sign(arr).tolist()
        # The sum of the four is NaN or infinite exactly when one of them is (float32 cannot overflow a double).
        if not math.isfinite(sum(arr.tolist())):
            raise invalid_action(self, action, self.action_space)  # NaN or infinite: not an action
        speeds = (SPEED_HIP, SPEED_KNEE, SPEED_HIP, SPEED_KNEE)
        for joint, sign, speed, torque in zip(self.joints, signs, speeds, torques.tolist(), strict=True):
            joint.motorSpeed = float(speed * sign)
            joint.maxMotorTorque = float(torque)

        self.world.Step(1.0 / FPS, VELOCITY_ITERATIONS, POSITION_ITERATIONS)  # mirror: world step

        pos = hull.position
        vel = hull.linearVelocity
        x0 = pos[0]
        lidar = self._lidar.scan(self.world, pos, self.render_mode is not None)  # mirror: lidar
        joints, legs = self.joints, self.legs
        angle = hull.angle  # mirror: observation
        state = [
            angle,
            2.0 * hull.angularVelocity / FPS,
            0.3 * vel.x * (VIEWPORT_W / SCALE) / FPS,
            0.3 * vel.y * (VIEWPORT_H / SCALE) / FPS,
            joints[0].angle,
            joints[0].speed / SPEED_HIP,
            joints[1].angle + 1.0,
            joints[1].speed / SPEED_KNEE,
            1.0 if legs[1].ground_contact else 0.0,
            joints[2].angle,
            joints[2].speed / SPEED_HIP,
            joints[3].angle + 1.0,
            joints[3].speed / SPEED_KNEE,
            1.0 if legs[3].ground_contact else 0.0,
        ]
        state += lidar
        self.scroll = pos.x - VIEWPORT_W / SCALE / 5
        shaping = 130 * x0 / SCALE  # mirror: shaping
        shaping -= 5.0 * abs(angle)  # keep the head level
        reward: Any = 0 if self.prev_shaping is None else shaping - self.prev_shaping  # mirror: reward
        self.prev_shaping = shaping
        for cost in ENERGY_COST * fractions:  # numpy scalars: float32 actions give a float32 reward
            reward -= cost
        terminated = False  # mirror: termination
        if self.game_over or x0 < 0:
            reward, terminated = -100, True
        if x0 > FINISH_X:
            terminated = True
        if self.render_mode == "human":
            self.render()
        return np.array(state, dtype=np.float32), reward, terminated, False, {}

    # -- rendering -------------------------------------------------------------------

    def draw(self, canvas: Any) -> bool:
        """Sky, clouds, terrain, the walker and one lidar ray, following the walker."""
        self.lidar_render = (self.lidar_render + 1) % 100
        draw_bipedal_walker(canvas, self, lidar_ray_shown(self.lidar_render, len(self.lidar)))
        return True

    def close(self) -> None:
        """Close the window and destroy the bodies."""
        super().close()
        self._destroy()


class BipedalWalkerHardcore:
    """Not an env: the hardcore walker is ``make("BipedalWalker-v3", hardcore=True)``."""

    def __init__(self) -> None:
        raise mode_is_a_keyword("BipedalWalkerHardcore", "hardcore", "BipedalWalker-v3")
