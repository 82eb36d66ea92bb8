"""CarRacing: drive a car around a randomly generated closed track, seen from above.

The track, the car and the tile-visiting rewards are built as Gymnasium 1.4.0 builds them
(same draws, bodies and contact rules), so rewards and episode ends match Gymnasium's
step for step. The 96x96 observation (and every rendered frame) is drawn at every step by
:mod:`palaestra_box2d._car_racing_scene` from the same geometry with the same pygame
primitives in the same order as Gymnasium's, so the pixels are Gymnasium's too.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.error import InvalidAction
from palaestra.plugin import (
    Canvas,
    EzPickle,
    expected_action,
    invalid_action,
    real_array,
    warn_no_render_mode,
)
from palaestra_box2d._drawing import INSTALL_HINT
from palaestra_box2d._engine import NO_SNAPSHOTS, Box2D, ContactListener
from palaestra_box2d.car_dynamics import Car

__all__ = ["CarRacing"]

STATE_W, STATE_H = 96, 96
VIDEO_W, VIDEO_H = 600, 400
WINDOW_W, WINDOW_H = 1000, 800
SCALE = 6.0
TRACK_RAD = 900 / SCALE
PLAYFIELD = 2000 / SCALE
FPS = 50
ZOOM = 2.7
TRACK_DETAIL_STEP = 21 / SCALE
TRACK_TURN_RATE = 0.31
TRACK_WIDTH = 40 / SCALE
BORDER = 8 / SCALE
BORDER_MIN_COUNT = 4
CHECKPOINTS = 12
MAX_TRACE_POINTS = 2500  # a trace that never completes its laps stops here
VELOCITY_ITERATIONS, POSITION_ITERATIONS = 6 * 30, 2 * 30


def _next_checkpoint(
    checkpoints: list[tuple[float, float, float]], dest_i: int, alpha: float
) -> tuple[int, float, float, float]:
    """The first checkpoint at or ahead of angle ``alpha``; past the last one, alpha wraps by -2 pi."""
    while True:
        while True:
            dest_alpha, dest_x, dest_y = checkpoints[dest_i % len(checkpoints)]
            if alpha <= dest_alpha:
                return dest_i, alpha, dest_x, dest_y
            dest_i += 1
            if dest_i % len(checkpoints) == 0:
                break
        alpha -= 2 * math.pi


def _wrap_near(beta: float, alpha: float) -> float:
    """``beta`` shifted by whole turns to within 1.5 pi of ``alpha``."""
    while beta - alpha > 1.5 * math.pi:
        beta -= 2 * math.pi
    while beta - alpha < -1.5 * math.pi:
        beta += 2 * math.pi
    return beta


class _TileContacts(ContactListener):  # type: ignore[misc]  # Box2D has no types
    """Tracks which road tiles each wheel touches and rewards the first visit of each tile."""

    def __init__(self, env: CarRacing) -> None:
        super().__init__()
        self.env = env

    def BeginContact(self, contact: Any) -> None:
        self._contact(contact, True)

    def EndContact(self, contact: Any) -> None:
        self._contact(contact, False)

    def _contact(self, contact: Any, begin: bool) -> None:
        first, second = contact.fixtureA.body.userData, contact.fixtureB.body.userData
        tile = other = None
        if first and "road_friction" in first.__dict__:
            tile, other = first, second
        if second and "road_friction" in second.__dict__:
            tile, other = second, first
        if not tile:
            return
        env = self.env
        tile.color[:] = env.road_color  # in place: the road polygon drawn shares this array
        if not other or "tiles" not in other.__dict__:
            return
        if not begin:
            other.tiles.remove(tile)
            return
        other.tiles.add(tile)
        if not tile.road_visited:
            tile.road_visited = True
            env.reward += 1000.0 / len(env.track)
            env.tile_visited_count += 1
            if tile.idx == 0 and env.tile_visited_count / len(env.track) > env.lap_complete_percent:
                env.new_lap = True


class CarRacing(Env[np.ndarray, Any], EzPickle):
    """Visit every tile of the track; the observation is a 96x96 top view around the car.

    Actions: ``Box([-1, 0, 0], [1, 1, 1])`` (steering, gas, brake) or, with
    ``continuous=False``, ``Discrete(5)`` (nothing, left, right, gas, brake). Reward:
    -0.1 every step and +1000/N for each of the N track tiles the first time a wheel
    touches it. The episode terminates when all tiles (or, after passing the start,
    ``lap_complete_percent`` of them) are visited (``info["lap_finished"] = True``), or
    with -100 when the car leaves the playfield (``info["lap_finished"] = False``).

    Args:
        render_mode: ``"human"``, ``"rgb_array"``, ``"state_pixels"`` or ``None``.
        verbose: Print track-generation messages.
        lap_complete_percent: Share of tiles that completes a lap on crossing the start.
        domain_randomize: Random road, background and grass colours (redrawn at every
            reset unless ``options={"randomize": False}``).
        continuous: Continuous (steer, gas, brake) or five discrete actions.
        fast_pixels: Draw the 96x96 observation straight at 96x96 instead of drawing a
            1000x800 frame and scaling it down as the reference does: the same physics,
            rewards and scene, several times faster, with pixels that differ at the edges
            of shapes (palaestra's own option; see docs/envs/box2d.md).
    """

    snapshot_unsupported_reason = NO_SNAPSHOTS

    metadata = {"render_modes": ["human", "rgb_array", "state_pixels"], "render_fps": FPS}
    #: What each observation dimension and action means (``palaestra info`` and the docs show them).
    dimension_meanings = (
        [(96 * 96 * 3, "the top-down view's pixels, 96x96 RGB, the car centred and turned with it")],
        ["steering (-1 full left, +1 full right)", "gas", "brake"],
    )

    def __init__(
        self,
        render_mode: str | None = None,
        verbose: bool = False,
        lap_complete_percent: float = 0.95,
        domain_randomize: bool = False,
        continuous: bool = True,
        fast_pixels: bool = False,
    ) -> None:
        EzPickle.__init__(
            self, render_mode, verbose, lap_complete_percent, domain_randomize, continuous, fast_pixels
        )
        self.fast_pixels = bool(fast_pixels)
        self.continuous = continuous
        self.domain_randomize = domain_randomize
        self.lap_complete_percent = lap_complete_percent
        self.verbose = verbose
        self.render_mode = render_mode
        self._set_colors(domain_randomize)
        self._contacts = _TileContacts(self)
        # One world for the env's life (bodies are rebuilt on reset), as in Gymnasium 1.4.0.
        self.world = Box2D.b2World((0, 0), contactListener=self._contacts)
        self.road: list[Any] = []
        self.road_poly: list[tuple[list[tuple[float, float]], Any]] = []
        self.track: list[tuple[float, float, float, float]] = []
        self.car: Car | None = None
        self.reward = 0.0
        self.prev_reward = 0.0
        self.tile_visited_count = 0
        self.new_lap = False
        self.t = 0.0
        self._tile = Box2D.b2FixtureDef(
            shape=Box2D.b2PolygonShape(vertices=[(0, 0), (1, 0), (1, -1), (0, -1)])
        )
        if continuous:
            self.action_space: spaces.Space[Any] = spaces.Box(
                np.array([-1, 0, 0], dtype=np.float32), np.array([+1, +1, +1], dtype=np.float32)
            )
        else:
            self.action_space = spaces.Discrete(5)
        self.observation_space = spaces.Box(low=0, high=255, shape=(STATE_H, STATE_W, 3), dtype=np.uint8)
        self._painter: Any = None
        self._canvas: Any = None

    def _set_colors(self, randomize: bool) -> None:
        if randomize:
            rng = self.np_random
            self.road_color = rng.uniform(0, 210, size=3)
            self.bg_color = rng.uniform(0, 210, size=3)
            self.grass_color = np.copy(self.bg_color)
            self.grass_color[rng.integers(3)] += 20
        else:
            self.road_color = np.array([102, 102, 102])
            self.bg_color = np.array([102, 204, 102])
            self.grass_color = np.array([102, 230, 102])

    # -- track -----------------------------------------------------------------------

    def _checkpoints(self) -> list[tuple[float, float, float]]:
        rng = self.np_random
        points = []
        for c in range(CHECKPOINTS):
            noise = rng.uniform(0, 2 * math.pi * 1 / CHECKPOINTS)
            alpha = 2 * math.pi * c / CHECKPOINTS + noise
            rad = rng.uniform(TRACK_RAD / 3, TRACK_RAD)
            if c == 0:
                alpha, rad = 0, 1.5 * TRACK_RAD
            if c == CHECKPOINTS - 1:
                alpha = 2 * math.pi * c / CHECKPOINTS
                self.start_alpha = 2 * math.pi * -0.5 / CHECKPOINTS
                rad = 1.5 * TRACK_RAD
            points.append((alpha, rad * math.cos(alpha), rad * math.sin(alpha)))
        return points

    @staticmethod
    def _trace(checkpoints: list[tuple[float, float, float]]) -> list[tuple[float, float, float, float]]:
        """Drive a point round the checkpoints (at most five laps); its path is the raw track.

        Each point is ``(angle around the centre, heading, x, y)``; the heading turns
        towards the next checkpoint by at most ``TRACK_TURN_RATE`` per point.
        """
        x, y, heading = 1.5 * TRACK_RAD, 0.0, 0.0
        target, laps, below_axis = 0, 0, False
        points = []
        for _ in range(MAX_TRACE_POINTS):
            angle = math.atan2(y, x)
            if angle < 0:
                below_axis = True
                angle += 2 * math.pi
            elif below_axis and angle > 0:  # crossed the +x axis again: one more lap
                laps += 1
                below_axis = False
            target, angle, goal_x, goal_y = _next_checkpoint(checkpoints, target, angle)
            cos_h, sin_h = math.cos(heading), math.sin(heading)
            offset = (cos_h * (goal_x - x) + sin_h * (goal_y - y)) * SCALE  # how far ahead the goal lies
            heading = _wrap_near(heading, angle)
            before = heading
            if offset > 0.3:
                heading -= min(TRACK_TURN_RATE, abs(0.001 * offset))
            elif offset < -0.3:
                heading += min(TRACK_TURN_RATE, abs(0.001 * offset))
            x -= sin_h * TRACK_DETAIL_STEP  # advance along the (old) heading's normal
            y += cos_h * TRACK_DETAIL_STEP
            points.append((angle, before * 0.5 + heading * 0.5, x, y))
            if laps > 4:
                break
        return points

    def _one_lap(
        self, track: list[tuple[float, float, float, float]]
    ) -> list[tuple[float, float, float, float]] | None:
        """The last full lap between two passes of the start, or None if it does not close."""
        i1 = i2 = -1
        i = len(track)
        while True:
            i -= 1
            if i == 0:
                return None
            through_start = track[i][0] > self.start_alpha and track[i - 1][0] <= self.start_alpha
            if through_start and i2 == -1:
                i2 = i
            elif through_start and i1 == -1:
                i1 = i
                break
        if self.verbose:
            print(f"Track generation: {i1}..{i2} -> {i2 - i1}-tiles track")
        lap = track[i1 : i2 - 1]
        first_beta = lap[0][1]
        gap_x = math.cos(first_beta) * (lap[0][2] - lap[-1][2])
        gap_y = math.sin(first_beta) * (lap[0][3] - lap[-1][3])
        if math.sqrt(gap_x * gap_x + gap_y * gap_y) > TRACK_DETAIL_STEP:
            return None
        return lap

    @staticmethod
    def _borders(track: list[tuple[float, float, float, float]]) -> list[bool]:
        """Red-white kerbs where the track turns one way for several tiles."""
        n = len(track)
        border = [False] * n
        for i in range(n):
            good = True
            oneside = 0.0
            for neg in range(BORDER_MIN_COUNT):
                beta1, beta2 = track[i - neg][1], track[i - neg - 1][1]
                good &= abs(beta1 - beta2) > TRACK_TURN_RATE * 0.2
                oneside += float(np.sign(beta1 - beta2))
            border[i] = good and abs(oneside) == BORDER_MIN_COUNT
        for i in range(n):
            for neg in range(BORDER_MIN_COUNT):
                border[i - neg] |= border[i]
        return border

    def _create_track(self) -> bool:
        self.road = []
        lap = self._one_lap(self._trace(self._checkpoints()))
        if lap is None:
            return False
        border = self._borders(lap)
        for i in range(len(lap)):
            _, beta1, x1, y1 = lap[i]
            _, beta2, x2, y2 = lap[i - 1]
            c1, s1, c2, s2 = math.cos(beta1), math.sin(beta1), math.cos(beta2), math.sin(beta2)
            road1_l = (x1 - TRACK_WIDTH * c1, y1 - TRACK_WIDTH * s1)
            road1_r = (x1 + TRACK_WIDTH * c1, y1 + TRACK_WIDTH * s1)
            road2_l = (x2 - TRACK_WIDTH * c2, y2 - TRACK_WIDTH * s2)
            road2_r = (x2 + TRACK_WIDTH * c2, y2 + TRACK_WIDTH * s2)
            quad = [road1_l, road1_r, road2_r, road2_l]
            self._tile.shape.vertices = quad
            tile = self.world.CreateStaticBody(fixtures=self._tile)
            tile.userData = tile
            tile.color = self.road_color + 0.01 * (i % 3) * 255
            tile.road_visited = False
            tile.road_friction = 1.0
            tile.idx = i
            tile.fixtures[0].sensor = True
            self.road_poly.append((quad, tile.color))
            self.road.append(tile)
            if border[i]:
                side = np.sign(beta2 - beta1)
                inner, outer = side * TRACK_WIDTH, side * (TRACK_WIDTH + BORDER)
                kerb = [
                    (x1 + inner * c1, y1 + inner * s1),
                    (x1 + outer * c1, y1 + outer * s1),
                    (x2 + outer * c2, y2 + outer * s2),
                    (x2 + inner * c2, y2 + inner * s2),
                ]
                self.road_poly.append((kerb, (255, 255, 255) if i % 2 == 0 else (255, 0, 0)))
        self.track = lap
        return True

    # -- episode ---------------------------------------------------------------------

    def _destroy(self) -> None:
        if not self.road:
            return
        for tile in self.road:
            self.world.DestroyBody(tile)
        self.road = []
        if self.car is not None:
            self.car.destroy()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Generate a new track (retrying until one closes) and put the car at its start.

        Options:
            randomize: With ``domain_randomize``, whether to draw new colours (default True).
        """
        super().reset(seed=seed)
        self._destroy()
        self._contacts = _TileContacts(self)
        self.world.contactListener = self._contacts
        self.reward = self.prev_reward = self.t = 0.0
        self.tile_visited_count, self.new_lap, self.road_poly = 0, False, []
        if self.domain_randomize and (options or {}).get("randomize", True):
            self._set_colors(True)
        while not self._create_track():
            if self.verbose:
                print("retry to generate track (normal if there are not many instances of this message)")
        self.car = Car(self.world, *self.track[0][1:4])
        if self.render_mode == "human":
            self.render()
        return self.step(None)[0], {}

    def _apply(self, action: Any) -> None:
        car = self.car
        assert car is not None
        if self.continuous:
            values = real_array(action)  # strings, bools and complex numbers are not controls
            if values is None or values.shape != (3,):
                raise invalid_action(self, action, self.action_space)
            arr = values.astype(np.float64)
            if not np.isfinite(arr).all():  # NaN or infinite: not an action
                raise invalid_action(self, action, self.action_space)
            steer, gas, brake = arr.tolist()
            car.steer(-steer)
            car.gas(gas)
            car.brake(brake)
            return
        if not self.action_space.contains(action):
            raise InvalidAction(  # Gymnasium's words, then what was expected
                f"you passed the invalid action `{action}`. The supported action_space is `{self.action_space}`; "
                f"{expected_action(self.action_space, action)}"
            )
        car.steer(-0.6 * (action == 1) + 0.6 * (action == 2))
        car.gas(0.2 * (action == 3))
        car.brake(0.8 * (action == 4))

    def step(self, action: Any) -> tuple[np.ndarray, Any, bool, bool, dict[str, Any]]:
        """Apply the controls, advance 1/50 s, draw the observation and score new tiles."""
        if self.car is None:
            raise RuntimeError("CarRacing.step called before reset; call env.reset() first.")
        if action is not None:
            self._apply(action)
        self.car.step(1.0 / FPS)
        self.world.Step(1.0 / FPS, VELOCITY_ITERATIONS, POSITION_ITERATIONS)
        self.t += 1.0 / FPS
        self.state = self._draw((STATE_W, STATE_H), skid_marks=False, straight=self.fast_pixels)
        step_reward: Any = 0
        terminated = False
        info: dict[str, Any] = {}
        if action is not None:
            self.reward -= 0.1  # every step costs; new tiles were credited by the contact listener
            self.car.fuel_spent = 0.0
            step_reward, self.prev_reward = self.reward - self.prev_reward, self.reward
            x, y = self.car.hull.position
            if abs(x) > PLAYFIELD or abs(y) > PLAYFIELD:  # off the map: the lap is lost
                terminated, step_reward = True, -100
                info["lap_finished"] = False
            elif self.tile_visited_count == len(self.track) or self.new_lap:
                terminated = True
                info["lap_finished"] = True
        if self.render_mode == "human":
            self.render()
        return self.state, step_reward, terminated, False, info

    # -- rendering -------------------------------------------------------------------

    def _draw(self, size: tuple[int, int] | None, skid_marks: bool, straight: bool = False) -> Any:
        if self._painter is None:  # pygame is imported with the first frame
            from palaestra_box2d._car_racing_scene import CarRacingView

            self._painter = CarRacingView(sys.modules[__name__])
        return self._painter.draw(self, size, skid_marks, straight)

    def render(self) -> np.ndarray | None:
        """The 96x96 observation (``state_pixels``), a 600x400 frame, or a 1000x800 window."""
        if self.render_mode is None:
            warn_no_render_mode(self)
            return None
        if self.car is None:
            return None  # nothing to show before reset
        if self.render_mode == "state_pixels":
            return self._draw((STATE_W, STATE_H), skid_marks=False, straight=self.fast_pixels)  # type: ignore[no-any-return]
        if self.render_mode == "rgb_array":
            return self._draw((VIDEO_W, VIDEO_H), skid_marks=True)  # type: ignore[no-any-return]
        if self._canvas is None:
            title = self.spec.id if self.spec is not None else "CarRacing"
            self._canvas = Canvas(WINDOW_W, WINDOW_H, "human", FPS, title, INSTALL_HINT)
        self._canvas.surface.blit(self._draw(None, skid_marks=True), (0, 0))
        self._canvas.present()
        return None

    def close(self) -> None:
        """Close the window and destroy the bodies."""
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None
        self._destroy()
        self.car = None
