"""LunarLander: fire a lander's engines to set it down gently on the pad between the flags.

Rigid-body physics by the Box2D engine, built exactly as Gymnasium 1.4.0 builds it (same
bodies, fixtures, joints, impulses and draws from the env's generator), so trajectories
match Gymnasium's step for step.
"""

from __future__ import annotations

import math
import weakref
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.plugin import CanvasRendering, EzPickle, asserted_invalid, invalid_action, logger, real_array
from palaestra_box2d._drawing import INSTALL_HINT, draw_lunar_lander, puff_color
from palaestra_box2d._engine import NO_SNAPSHOTS, Box2D, ContactListener, create_body, create_fixture
from palaestra_box2d._lander_pilot import demo_heuristic_lander, heuristic
from palaestra_box2d._lander_scene import FPS, SCALE, VIEWPORT_H, VIEWPORT_W, H, W
from palaestra_box2d._mode_names import mode_is_a_keyword

# The pilot lives here too, where Gymnasium's module has it.
__all__ = ["LunarLander", "LunarLanderContinuous", "demo_heuristic_lander", "heuristic"]

MAIN_ENGINE_POWER = 13.0
SIDE_ENGINE_POWER = 0.6
INITIAL_RANDOM = 1000.0  # bound of the random push at the start
LANDER_POLY = ((-14, 17), (-17, 0), (-17, -10), (17, -10), (17, 0), (14, 17))
# Engine nozzles, relative to the hull (pixels).
MAIN_ENGINE_Y_LOCATION = 4
SIDE_ENGINE_HEIGHT, SIDE_ENGINE_AWAY = 14, 12
SIDE_ENGINE_X = 17  # the side nozzles' distance from the hull's centre line
# Legs: offsets from the hull, size, and the spring holding them out.
LEG_AWAY, LEG_DOWN = 20, 18
LEG_W, LEG_H = 2, 8
LEG_SPRING_TORQUE = 40
CHUNKS = 11
HALF_W, HALF_H = VIEWPORT_W / SCALE / 2, VIEWPORT_H / SCALE / 2
START_X, START_Y = VIEWPORT_W / SCALE / 2, VIEWPORT_H / SCALE  # where the lander appears
VELOCITY_ITERATIONS, POSITION_ITERATIONS = 6 * 30, 2 * 30
_DISCRETE = (int, np.int64)
# (main power, side power, side direction) of the discrete actions: noop, left, main, right.
HULL_FILL, HULL_RIM = (128, 102, 230), (77, 77, 128)  # the hull's and the legs' colours
DISCRETE_THROTTLES = ((0.0, 0.0, 0.0), (0.0, 1.0, -1.0), (1.0, 0.0, 0.0), (0.0, 1.0, 1.0))


class _Contacts(ContactListener):  # type: ignore[misc]  # Box2D has no types
    """Game over when the hull touches anything; legs report ground contact."""

    def __init__(self, env: LunarLander) -> None:
        super().__init__()
        self.env = weakref.proxy(env)  # the world holds the listener: no env <-> world cycle

    def BeginContact(self, contact: Any) -> None:
        bodies = (contact.fixtureA.body, contact.fixtureB.body)
        env = self.env
        if env.lander in bodies:
            env.game_over = True
        for leg in env.legs:
            if leg in bodies:
                leg.ground_contact = True

    def EndContact(self, contact: Any) -> None:
        bodies = (contact.fixtureA.body, contact.fixtureB.body)
        for leg in self.env.legs:
            if leg in bodies:
                leg.ground_contact = False
        leg.color1, leg.color2 = HULL_FILL, HULL_RIM


class LunarLander(CanvasRendering, Env[np.ndarray, Any], EzPickle):
    """Land on the pad at (0, 0) using the main engine and two side engines.

    Observation (float32, 8): x and y relative to the pad, x and y velocity, angle,
    angular velocity, and whether each leg touches the ground. Actions: ``Discrete(4)``
    (nothing, left engine, main engine, right engine) or, with ``continuous=True``,
    ``Box(-1, 1, (2,))`` (main throttle, lateral throttle; each engine fires above half
    throttle). Reward: the change of a shaping term (distance, speed, tilt, leg contact),
    minus 0.3 per main-engine frame and 0.03 per side-engine frame; -100 for a crash or
    leaving the screen, +100 for coming to rest. The episode terminates on those events.

    Args:
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
        continuous: Continuous throttles instead of four discrete actions.
        gravity: Gravity in m/s^2, in ``(-12, 0)``.
        enable_wind: Add a wind force and a turbulence torque while airborne.
        wind_power: Peak wind force (recommended ``[0, 20]``).
        turbulence_power: Peak turbulence torque (recommended ``[0, 2]``).
    """

    snapshot_unsupported_reason = NO_SNAPSHOTS

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": FPS}

    canvas_size = (VIEWPORT_W, VIEWPORT_H)
    render_install_hint = INSTALL_HINT
    canvas_y_up = True  # drawn as Gymnasium draws it, y up

    @property
    def dimension_meanings(self) -> tuple[list[Any], list[Any]]:
        """What each observation dimension and action means (``palaestra info`` and the docs show them)."""
        observation = [
            "horizontal position (0 at the pad)", "vertical position (0 at the pad's height)",
            "horizontal velocity", "vertical velocity", "angle", "angular velocity",
            "left leg touches the ground (1.0 or 0.0)", "right leg touches the ground (1.0 or 0.0)",
        ]  # fmt: skip
        if self.continuous:
            return observation, [
                "main engine: off below 0, throttle from 50% to 100% over [0, 1]",
                "side engines: left below -0.5, right above 0.5, throttle from 50% to 100% beyond",
            ]
        return observation, [
            "do nothing", "fire the left orientation engine", "fire the main engine", "fire the right orientation engine",
        ]  # fmt: skip

    def __init__(
        self,
        render_mode: str | None = None,
        continuous: bool = False,
        gravity: float = -10.0,
        enable_wind: bool = False,
        wind_power: float = 15.0,
        turbulence_power: float = 1.5,
    ) -> None:
        EzPickle.__init__(self, render_mode, continuous, gravity, enable_wind, wind_power, turbulence_power)
        if not -12.0 < gravity < 0.0:
            raise ValueError(f"gravity (current value: {gravity}) must be between -12 and 0")
        if not 0.0 <= wind_power <= 20.0:
            logger.warn(
                f"wind_power value is recommended to be between 0.0 and 20.0, (current value: {wind_power})"
            )
        if not 0.0 <= turbulence_power <= 2.0:
            logger.warn(
                f"turbulence_power value is recommended to be between 0.0 and 2.0, (current value: {turbulence_power})"
            )
        self.gravity = gravity
        self.wind_power = wind_power
        self.turbulence_power = turbulence_power
        self.enable_wind = enable_wind
        self.continuous = continuous
        self.render_mode = render_mode
        low = np.array([-2.5, -2.5, -10.0, -10.0, -2 * math.pi, -10.0, -0.0, -0.0], dtype=np.float32)
        high = np.array([2.5, 2.5, 10.0, 10.0, 2 * math.pi, 10.0, 1.0, 1.0], dtype=np.float32)
        self.observation_space = spaces.Box(low, high)
        if continuous:
            self.action_space: spaces.Space[Any] = spaces.Box(-1, +1, (2,), dtype=np.float32)
        else:
            self.action_space = spaces.Discrete(4)
        self.world: Any = None
        self.lander: Any = None
        self.legs: list[Any] = []
        self.terrain: list[tuple[float, float]] = []
        self.particles: list[Any] = []  # exhaust puffs (bodies), made only when there is a picture
        self._puff_fixtures: dict[float, Any] = {}
        self.game_over = False
        self.prev_shaping: float | None = None
        # Fixture definitions made once and reused by every reset (the terrain's edges get
        # new vertices each time): the same fixtures, without building them anew.
        self._terrain_edge = Box2D.b2FixtureDef(
            shape=Box2D.b2EdgeShape(vertices=[(0, 0), (1, 0)]), density=0, friction=0.1
        )
        self._hull_fixture = Box2D.b2FixtureDef(
            shape=Box2D.b2PolygonShape(vertices=[(x / SCALE, y / SCALE) for x, y in LANDER_POLY]),
            density=5.0,
            friction=0.1,
            categoryBits=0x0010,
            maskBits=0x001,
            restitution=0.0,
        )
        self._leg_fixture = Box2D.b2FixtureDef(
            shape=Box2D.b2PolygonShape(box=(LEG_W / SCALE, LEG_H / SCALE)),
            density=1.0,
            restitution=0.0,
            categoryBits=0x0020,
            maskBits=0x001,
        )
        # The bodies and knees start in the same places every episode: their definitions are
        # made once too (the binding's keyword path costs more than the engine's work).
        self._moon_body = Box2D.b2BodyDef(type=Box2D.b2_staticBody)
        self._moon_floor = Box2D.b2FixtureDef(shape=Box2D.b2EdgeShape(vertices=[(0, 0), (W, 0)]))
        self._lander_body = Box2D.b2BodyDef(type=Box2D.b2_dynamicBody, position=(START_X, START_Y), angle=0.0)
        self._leg_bodies = [self._leg_body(side) for side in (-1, +1)]
        self._knees = [self._knee(side) for side in (-1, +1)]

    # -- episode ---------------------------------------------------------------------

    def _destroy(self) -> None:
        if self.world is not None:
            self.world.contactListener = None
        self.world = self.lander = None
        self.legs = []
        self.particles = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw new terrain, place the lander at the top centre and give it a random push."""
        super().reset(seed=seed)
        self._destroy()
        rng = self.np_random
        world = Box2D.b2World(gravity=(0, self.gravity))
        world.contactListener = _Contacts(self)
        self.world = world
        self.game_over = False
        self.prev_shaping = None

        heights = rng.uniform(0, H / 2, size=(CHUNKS + 1,))
        chunk_x = [W / (CHUNKS - 1) * i for i in range(CHUNKS)]
        self.helipad_x1 = chunk_x[CHUNKS // 2 - 1]
        self.helipad_x2 = chunk_x[CHUNKS // 2 + 1]
        self.helipad_y = H / 4
        heights[CHUNKS // 2 - 2 : CHUNKS // 2 + 3] = self.helipad_y  # flat around the pad
        # Each point averages its neighbours (the first wraps around to the last draw).
        smooth = [0.33 * (heights[i - 1] + heights[i + 0] + heights[i + 1]) for i in range(CHUNKS)]
        # The engine calls under the binding's checks (_engine.create_body): definitions without fixtures.
        self.moon = create_body(world, self._moon_body)
        create_fixture(self.moon, self._moon_floor)
        self.terrain = [(chunk_x[i], float(smooth[i])) for i in range(CHUNKS)]
        edge = self._terrain_edge
        for left, right in zip(self.terrain, self.terrain[1:], strict=False):
            edge.shape.vertices = [left, right]
            create_fixture(self.moon, edge)

        self.lander = create_body(world, self._lander_body)
        create_fixture(self.lander, self._hull_fixture)
        self.lander.color1, self.lander.color2 = HULL_FILL, HULL_RIM
        push = (rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM), rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM))
        self.lander.ApplyForceToCenter(push, True)
        if self.enable_wind:
            self.wind_idx = rng.integers(-9999, 9999)
            self.torque_idx = rng.integers(-9999, 9999)
        self.legs = [self._make_leg(k) for k in (0, 1)]
        if self.render_mode == "human":
            self.render()
        return self.step(np.array([0, 0]) if self.continuous else 0)[0], {}

    @staticmethod
    def _leg_body(side: int) -> Any:
        """Where a leg starts; ``side`` -1 is the left one."""
        position = (START_X - side * LEG_AWAY / SCALE, START_Y)
        return Box2D.b2BodyDef(type=Box2D.b2_dynamicBody, position=position, angle=side * 0.05)

    @staticmethod
    def _knee(side: int) -> Any:
        """A leg's sprung knee (its bodies are set for each episode)."""
        knee = Box2D.b2RevoluteJointDef()
        knee.localAnchorA, knee.localAnchorB = (0, 0), (side * LEG_AWAY / SCALE, LEG_DOWN / SCALE)
        knee.enableMotor = knee.enableLimit = True
        knee.maxMotorTorque, knee.motorSpeed = LEG_SPRING_TORQUE, +0.3 * side
        # The motor pushes each leg outward, into a 0.5 rad range of travel.
        knee.lowerAngle, knee.upperAngle = (+0.9 - 0.5, +0.9) if side == -1 else (-0.9, -0.9 + 0.5)
        return knee

    def _make_leg(self, k: int) -> Any:
        """Leg ``k`` (0 the left one) hanging from the hull by its knee."""
        leg = create_body(self.world, self._leg_bodies[k])
        create_fixture(leg, self._leg_fixture)
        leg.ground_contact = False
        leg.color1, leg.color2 = HULL_FILL, HULL_RIM
        knee = self._knees[k]
        knee.bodyA, knee.bodyB = self.lander, leg
        knee.referenceAngle = leg.angle - self.lander.angle  # as the binding sets it from the bodies
        leg.joint = self.world.CreateJoint(knee)
        return leg

    # -- dynamics --------------------------------------------------------------------

    def _throttles(self, action: Any) -> tuple[float, float, float]:
        """(main power, side power, side direction) of an action; 0 power means off."""
        if not self.continuous:
            if action.__class__ not in _DISCRETE and not self.action_space.contains(action):
                raise invalid_action(self, action, self.action_space, asserted_invalid(action))
            if not 0 <= action <= 3:
                raise invalid_action(self, action, self.action_space, asserted_invalid(action))
            return DISCRETE_THROTTLES[int(action)]
        values = real_array(action)  # strings, bools and complex numbers are not thrusts
        if values is None or values.shape != (2,):
            raise invalid_action(self, action, self.action_space)
        main, lateral = values.tolist()
        if not (math.isfinite(main) and math.isfinite(lateral)):
            raise invalid_action(self, action, self.action_space)  # NaN or infinite: not an action
        main = min(max(main, -1.0), 1.0)
        lateral = min(max(lateral, -1.0), 1.0)
        # Above zero the main engine runs at 50-100 %; beyond +-0.5 a side engine at 50-100 %.
        m_power = (min(max(main, 0.0), 1.0) + 1.0) * 0.5 if main > 0.0 else 0.0
        if abs(lateral) > 0.5:
            return m_power, min(max(abs(lateral), 0.5), 1.0), (1.0 if lateral > 0 else -1.0)
        return m_power, 0.0, 0.0

    def _apply_wind(self) -> None:
        if self.legs[0].ground_contact or self.legs[1].ground_contact:
            return
        k = self.wind_idx
        wind = math.tanh(math.sin(0.02 * k) + math.sin(math.pi * 0.01 * k)) * self.wind_power
        self.wind_idx += 1
        self.lander.ApplyForceToCenter((wind, 0.0), True)
        k = self.torque_idx
        torque = math.tanh(math.sin(0.02 * k) + math.sin(math.pi * 0.01 * k)) * self.turbulence_power
        self.torque_idx += 1
        self.lander.ApplyTorque(torque, True)

    def step(self, action: Any) -> tuple[np.ndarray, Any, bool, bool, dict[str, Any]]:
        """Fire the engines the action asks for and advance the world by 1/50 s.

        ``_lander_kernel.c``'s ``step_one`` is this step compiled: each ``# mirror:`` comment
        here names the lines there that do the same, in the same order (tested).
        """
        lander = self.lander
        if lander is None:
            raise RuntimeError("LunarLander.step called before reset; call env.reset() first.")
        if self.enable_wind:
            self._apply_wind()
        # mirror: throttles
        if action.__class__ in _DISCRETE and 0 <= action <= 3 and not self.continuous:
            m_power, s_power, direction = DISCRETE_THROTTLES[action]
        else:
            m_power, s_power, direction = self._throttles(action)
        # mirror: axes
        angle = lander.angle
        tip_x, tip_y = math.sin(angle), math.cos(angle)
        side_x, side_y = -tip_y, tip_x
        # mirror: dispersion. Two uniform(-1, 1) draws: numpy computes each as -1 + 2 * u from the same doubles.
        u0, u1 = self.np_random.random(2).tolist()
        d0 = (-1.0 + 2.0 * u0) / SCALE
        d1 = (-1.0 + 2.0 * u1) / SCALE
        if m_power:  # mirror: main engine
            ox = tip_x * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) + side_x * d1
            oy = -tip_y * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) - side_y * d1
            pos = lander.position
            at = (pos[0] + ox, pos[1] + oy)
            self._fire(ox, oy, at, MAIN_ENGINE_POWER, m_power, 3.5)
        if s_power:  # mirror: side engines
            lever = 3 * d1 + direction * SIDE_ENGINE_AWAY / SCALE
            ox = tip_x * d0 + side_x * lever
            oy = -tip_y * d0 - side_y * lever
            pos = lander.position
            at = (
                pos[0] + ox - tip_x * SIDE_ENGINE_X / SCALE,
                pos[1] + oy + tip_y * SIDE_ENGINE_HEIGHT / SCALE,
            )
            self._fire(ox, oy, at, SIDE_ENGINE_POWER, s_power, 0.7)

        self.world.Step(1.0 / FPS, VELOCITY_ITERATIONS, POSITION_ITERATIONS)  # mirror: world step

        # mirror: observation
        pos = lander.position
        vel = lander.linearVelocity
        x = (pos.x - HALF_W) / HALF_W
        y = (pos.y - (self.helipad_y + LEG_DOWN / SCALE)) / HALF_H
        vx = vel.x * HALF_W / FPS
        vy = vel.y * HALF_H / FPS
        angle = lander.angle
        spin = 20.0 * lander.angularVelocity / FPS
        left = 1.0 if self.legs[0].ground_contact else 0.0
        right = 1.0 if self.legs[1].ground_contact else 0.0
        # mirror: shaping. math.sqrt rounds exactly like numpy's; the sum's order is Gymnasium 1.4.0's.
        shaping = (
            -100 * math.sqrt(x * x + y * y)
            - 100 * math.sqrt(vx * vx + vy * vy)
            - 100 * abs(angle)
            + 10 * left
            + 10 * right
        )
        reward: Any = 0 if self.prev_shaping is None else shaping - self.prev_shaping  # mirror: reward
        self.prev_shaping = shaping
        reward -= m_power * 0.3
        reward -= s_power * 0.03
        reward = np.float64(reward)
        terminated = False  # mirror: termination
        if self.game_over or abs(x) >= 1.0:
            terminated, reward = True, -100
        if not lander.awake:
            terminated, reward = True, +100
        if self.render_mode == "human":
            self.render()
        obs = np.array((x, y, vx, vy, angle, spin, left, right), dtype=np.float32)
        return obs, reward, terminated, False, {}

    def _fire(
        self, ox: float, oy: float, at: tuple[float, float], engine: float, throttle: float, puff_mass: float
    ) -> None:
        """Push the lander away from the nozzle offset ``(ox, oy)``; the exhaust goes the other way."""
        if self.render_mode is not None:  # the exhaust is drawn only: no puffs without a picture
            self._puff(at, ox * engine * throttle, oy * engine * throttle, throttle, puff_mass)
        # (-ox * engine) * throttle, in Gymnasium 1.4.0's order, for identical rounding.
        self.lander.ApplyLinearImpulse((-ox * engine * throttle, -oy * engine * throttle), at, True)

    # -- rendering -------------------------------------------------------------------

    def _puff(self, at: tuple[float, float], ix: float, iy: float, ttl: float, density: float) -> None:
        """A puff of exhaust: a small ball that falls and bounces off the ground, never the lander.

        It is a body in the world, as in Gymnasium (where it moves the picture only: it
        collides with the ground alone), and cools by 0.15 per frame drawn, not per step.
        """
        fixture = self._puff_fixtures.get(density)
        if fixture is None:
            fixture = self._puff_fixtures[density] = Box2D.b2FixtureDef(
                shape=Box2D.b2CircleShape(radius=2 / SCALE, pos=(0, 0)),
                density=density,
                friction=0.1,
                categoryBits=0x0100,
                maskBits=0x001,  # the ground only
                restitution=0.3,
            )
        puff = self.world.CreateDynamicBody(position=at, angle=0.0, fixtures=fixture)
        puff.ttl = ttl
        self.particles.append(puff)
        self._drop_cold_puffs()
        puff.ApplyLinearImpulse((ix, iy), at, True)

    def _drop_cold_puffs(self) -> None:
        """Remove the oldest puffs while they are cold (a younger cold one waits its turn)."""
        while self.particles and self.particles[0].ttl < 0:
            self.world.DestroyBody(self.particles.pop(0))

    def draw(self, canvas: Any) -> bool:
        """The moon, the pad, the lander and its exhaust (which cools with every frame drawn)."""
        for puff in self.particles:
            puff.ttl -= 0.15
            puff.color1 = puff.color2 = puff_color(puff.ttl)
        if self.particles:
            self._drop_cold_puffs()
        draw_lunar_lander(canvas, self)
        return True

    def close(self) -> None:
        """Close the window and release the world."""
        super().close()
        self._destroy()


# Keep the typed error importable next to the env for users catching it.


class LunarLanderContinuous:
    """Not an env: the continuous lander is ``make("LunarLander-v3", continuous=True)``."""

    def __init__(self) -> None:
        raise mode_is_a_keyword("LunarLanderContinuous", "continuous", "LunarLander-v3")
