"""CarRacing's picture: the view that follows the car, as Gymnasium 1.4.0 defines it.

Every frame is first drawn on a 1000x800 canvas: the world rotated so the car points up,
centred a quarter of the height from the top, at a zoom that grows from 0.6 to 16.2
pixels per unit over the episode's first second. On it, in order: the field, the grass
patches (a checkerboard of squares), the road tiles and kerbs, the skid marks (not in the
96x96 observation), the wheels with their turning stripes and the hull. The canvas is then
flipped upside down (world y up, screen y down), the indicator strip and the score are
drawn on the bottom, and the canvas is smooth-scaled to the frame size. Drawing the same
geometry with the same primitives in the same order gives Gymnasium's pixels exactly.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from palaestra.plugin import import_pygame
from palaestra_box2d import car_dynamics as car_model
from palaestra_box2d._drawing import INSTALL_HINT

__all__ = ["CarRacingView"]

INDICATOR_COLORS = {
    "speed": (255, 255, 255),
    "front_spin": (0, 0, 255),
    "rear_spin": (51, 0, 255),
    "steering": (0, 255, 0),
    "turning": (255, 0, 0),
}
SCORE_CENTRE_X = 60
SCORE_FONT_SIZE = 42


class CarRacingView:
    """Draws frames of a :class:`~palaestra_box2d.car_racing.CarRacing` env.

    Args:
        geometry: The env module's constants (``WINDOW_W``, ``PLAYFIELD``, ``ZOOM``, ...).
    """

    def __init__(self, geometry: Any) -> None:
        self.pygame = pygame = import_pygame(INSTALL_HINT)
        from pygame import gfxdraw

        self.gfxdraw = gfxdraw
        self.g = geometry
        pygame.font.init()
        self.font = pygame.font.Font(pygame.font.get_default_font(), SCORE_FONT_SIZE)
        grass = geometry.PLAYFIELD / 20.0
        self._road_of: Any = None  # the road_poly list whose tiles _road holds
        self._place: tuple[float, float, float] | None = None  # set while drawing straight
        self._straight: dict[tuple[int, int], Any] = {}
        self._shrinking: dict[tuple[int, int], tuple[Any, Any, Any]] = {}
        self._small_score: tuple[Any, ...] = (None, None, None, None)
        self._road = np.zeros((0, 4, 2))
        self.grass_patches = [
            [
                (grass * x + grass, grass * y),
                (grass * x, grass * y),
                (grass * x, grass * y + grass),
                (grass * x + grass, grass * y + grass),
            ]
            for x in range(-20, 20, 2)
            for y in range(-20, 20, 2)
        ]
        self._grass = np.array(self.grass_patches, dtype=np.float64)
        self._canvases = (
            pygame.Surface((geometry.WINDOW_W, geometry.WINDOW_H)),
            pygame.Surface((geometry.WINDOW_W, geometry.WINDOW_H)),
        )
        # A polygon whose bounding box ends this far outside the canvas paints none of it
        # (anti-aliased edges reach a pixel beyond the line).
        self.margin = 2.0

    # -- the canvas --------------------------------------------------------------------

    def draw(self, env: Any, size: tuple[int, int] | None, skid_marks: bool, straight: bool = False) -> Any:
        """The scene as a ``size`` (w, h) RGB array, or the full canvas when ``size`` is None.

        With ``straight``, a ``size`` frame is drawn straight at that size (see
        :meth:`draw_straight`) instead of being drawn at 1000x800 and scaled down.
        """
        if straight and size is not None:
            return self.draw_straight(env, size)
        pygame = self.pygame
        # Two canvases kept from frame to frame: a fresh 1000x800 surface a frame costs far
        # more in new memory pages than clearing one.
        canvas, scratch = self._canvases
        view = self._view(env)
        self._ground(canvas, env, view)
        self._car(canvas, env.car, view, skid_marks)
        bars, (score, place) = self._indicator_bars(env.car), self._score(env)
        if size is None or not (size[0] < canvas.get_width() and size[1] < canvas.get_height()):
            _flip_rows(pygame, canvas, scratch)
            self._indicators(scratch, bars)
            scratch.blit(score, place)
            return (
                scratch.copy()
                if size is None
                else _pixels(pygame, pygame.transform.smoothscale(scratch, size))
            )
        return self._scaled_unflipped(canvas, scratch, bars, score, place, size)

    def _scaled_unflipped(
        self, canvas: Any, scratch: Any, bars: list[Any], score: Any, place: Any, size: tuple[int, int]
    ) -> np.ndarray:
        """The smaller frame of the flipped canvas, without flipping the canvas.

        ``smoothscale`` shrinks a surface along x (row by row) and then along y, so
        shrinking along x before flipping the rows gives the same pixels as after. Only the
        strip the indicators and the score are drawn on is flipped, drawn on and flipped
        back; the x-shrunk canvas (a tenth of the pixels) is flipped instead of the canvas.
        """
        pygame, height = self.pygame, canvas.get_height()
        rows = height - _strip_top(bars, place, height)
        _flip_rows(pygame, canvas, scratch, 0, rows)  # the strip as the flipped canvas has it
        self._indicators(scratch, bars)
        scratch.blit(score, place)
        _flip_rows(pygame, scratch, canvas, height - rows, rows)  # and back, drawn on
        narrow, unflipped, scaled = self._shrinking.get(size) or self._shrinking_surfaces(size, height)
        pygame.transform.smoothscale(canvas, (size[0], height), narrow)
        _flip_rows(pygame, narrow, unflipped)
        return _pixels(pygame, pygame.transform.smoothscale(unflipped, size, scaled))

    def _shrinking_surfaces(self, size: tuple[int, int], height: int) -> tuple[Any, Any, Any]:
        """The surfaces :meth:`_scaled_unflipped` draws ``size`` frames through, made once."""
        pygame = self.pygame
        made = (pygame.Surface((size[0], height)), pygame.Surface((size[0], height)), pygame.Surface(size))
        self._shrinking[size] = made
        return made

    def draw_straight(self, env: Any, size: tuple[int, int]) -> np.ndarray:
        """The observation drawn straight at ``size``: CarRacing's ``fast_pixels``.

        The same geometry, primitives and order as the 1000x800 canvas, each point mapped
        to where it lands in the scaled frame (the flip included), the indicator strip and
        the score scaled alike; no full-size canvas, flip or smooth-scaling. The frames
        differ from the reference ones at the edges of shapes (no averaging of a 10x8
        pixel block per pixel): ``docs/envs/box2d.md`` gives how far.
        """
        pygame, g = self.pygame, self.g
        width, height = size
        target = self._straight.get(size)
        if target is None:
            target = self._straight[size] = pygame.Surface(size)
        scale_x, scale_y = width / g.WINDOW_W, height / g.WINDOW_H
        self._place = (scale_x, scale_y, float(height))
        try:
            view = self._view(env)
            self._ground(target, env, view)
            self._car(target, env.car, view, skid_marks=False)
        finally:
            self._place = None
        self._indicators(target, self._indicator_bars(env.car, (scale_x, scale_y)))
        score, place = self._score(env, (scale_x, scale_y))
        target.blit(score, place)
        return _pixels(pygame, target)

    def _view(self, env: Any) -> tuple[float, Any, float]:
        """``(zoom, origin, angle)``: the camera that follows the car (zooming in over the first second)."""
        g, hull = self.g, env.car.hull
        angle = -hull.angle
        zoom = 0.1 * g.SCALE * max(1 - env.t, 0) + g.ZOOM * g.SCALE * min(env.t, 1)
        shift = self.pygame.math.Vector2((-hull.position[0] * zoom, -hull.position[1] * zoom)).rotate_rad(
            angle
        )
        return zoom, (g.WINDOW_W / 2 + shift[0], g.WINDOW_H / 4 + shift[1]), angle

    def _to_canvas(self, points: Any, view: tuple[float, Any, float]) -> list[tuple[float, float]]:
        zoom, origin, angle = view
        vector = self.pygame.math.Vector2
        turned = [vector(p).rotate_rad(angle) for p in points]
        placed = [(p[0] * zoom + origin[0], p[1] * zoom + origin[1]) for p in turned]
        if self._place is None:
            return placed
        scale_x, scale_y, height = self._place
        return [(x * scale_x, height - y * scale_y) for x, y in placed]

    def _fill(self, canvas: Any, points: Any, color: Any, view: tuple[float, Any, float]) -> None:
        """An anti-aliased filled polygon."""
        poly = self._to_canvas(points, view)
        self.gfxdraw.aapolygon(canvas, poly, color)
        self.gfxdraw.filled_polygon(canvas, poly, color)

    def _ground(self, canvas: Any, env: Any, view: tuple[float, Any, float]) -> None:
        """The field, then the grass patches and the road tiles that reach the canvas, in order."""
        edge = self.g.PLAYFIELD
        field = [(edge, edge), (edge, -edge), (-edge, -edge), (-edge, edge)]
        if _covers(*self._on_canvas(np.array(field), view), self.g.WINDOW_W, self.g.WINDOW_H):
            canvas.fill(env.bg_color)  # the same pixels as filling the field, which covers them all
        else:
            canvas.fill((0, 0, 0))  # a fresh surface's black, around the field
            self._fill(canvas, field, env.bg_color, view)
        if self._road_of is not env.road_poly:  # a new track: its tiles' corners as one array
            self._road_of = env.road_poly
            self._road = np.array([poly for poly, _ in env.road_poly], dtype=np.float64).reshape(-1, 4, 2)
        xs, ys = self._on_canvas(np.concatenate((self._grass, self._road)), view)
        g, margin = self.g, self.margin
        (left, right), (top, bottom) = _corner_bounds(xs), _corner_bounds(ys)
        near = (
            (right >= -margin)
            & (left <= g.WINDOW_W + margin)
            & (bottom >= -margin)
            & (top <= g.WINDOW_H + margin)
        )
        patches = len(self._grass)
        drawn = np.flatnonzero(near)
        polygons = self._placed(xs[drawn], ys[drawn])
        aapolygon, filled_polygon = self.gfxdraw.aapolygon, self.gfxdraw.filled_polygon
        for k, poly in zip(drawn.tolist(), polygons, strict=True):
            # A road tile's colour is read each frame: visiting it changes it.
            color = env.grass_color if k < patches else [int(c) for c in env.road_poly[k - patches][1]]
            aapolygon(canvas, poly, color)
            filled_polygon(canvas, poly, color)

    def _placed(self, xs: np.ndarray, ys: np.ndarray) -> list[list[list[float]]]:
        """Rows of canvas points as drawn: on the canvas, or mapped into a straight-drawn frame."""
        if self._place is not None:
            scale_x, scale_y, height = self._place
            xs, ys = xs * scale_x, height - ys * scale_y
        placed: list[list[list[float]]] = np.stack((xs, ys), axis=-1).tolist()
        return placed

    def _on_canvas(self, points: np.ndarray, view: tuple[float, Any, float]) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_to_canvas` of a whole array of points (``(..., 2)``) at once, with the same roundings.

        ``Vector2.rotate_rad`` computes ``(c*x - s*y, s*x + c*y)`` from its angle's cosine and
        sine, which it gives for the vector ``(1, 0)``: the same products and sums here.
        """
        zoom, origin, angle = view
        c, s = self.pygame.math.Vector2(1.0, 0.0).rotate_rad(angle)
        x, y = points[..., 0], points[..., 1]
        return (c * x - s * y) * zoom + origin[0], (s * x + c * y) * zoom + origin[1]

    def _car(self, canvas: Any, car: Any, view: tuple[float, Any, float], skid_marks: bool) -> None:
        pygame = self.pygame
        if skid_marks:
            for mark in car.skid_marks:
                pygame.draw.lines(
                    canvas, color=mark.color, points=self._to_canvas(mark.poly, view), width=2, closed=False
                )
        for body in (*car.wheels, car.hull):
            color = [int(c * 255) for c in body.color]
            for fixture in body.fixtures:
                transform = body.transform
                outline = [transform * v for v in fixture.shape.vertices]
                pygame.draw.polygon(
                    canvas, color=color, points=self._to_canvas([(p[0], p[1]) for p in outline], view)
                )
                if body is not car.hull:
                    self._stripe(canvas, body, transform, view)

    def _stripe(self, canvas: Any, wheel: Any, transform: Any, view: tuple[float, Any, float]) -> None:
        """The band on a wheel's visible face that moves as it turns (hidden half the turn)."""
        first, second = wheel.phase, wheel.phase + 1.2
        s1, s2, c1, c2 = math.sin(first), math.sin(second), math.cos(first), math.cos(second)
        if s1 > 0 and s2 > 0:
            return
        if s1 > 0:
            c1 = np.sign(c1)
        if s2 > 0:
            c2 = np.sign(c2)
        half_w, radius = car_model.WHEEL_W * car_model.SIZE, car_model.WHEEL_R * car_model.SIZE
        band = [
            (-half_w, +radius * c1),
            (+half_w, +radius * c1),
            (+half_w, +radius * c2),
            (-half_w, +radius * c2),
        ]
        corners = [transform * v for v in band]
        points = self._to_canvas([(p[0], p[1]) for p in corners], view)
        self.pygame.draw.polygon(canvas, color=car_model.WHEEL_WHITE, points=points)

    # -- the strip at the bottom -------------------------------------------------------

    def _score(self, env: Any, scale: tuple[float, float] | None = None) -> tuple[Any, Any]:
        """The score's picture and its place (both scaled by ``scale`` for straight frames)."""
        pygame, g = self.pygame, self.g
        text = f"{env.reward:04.0f}"
        if scale is not None and self._small_score[:2] == (text, scale):
            return self._small_score[2], self._small_score[3]
        try:
            score = self.font.render(text, True, (255, 255, 255), (0, 0, 0))
        except pygame.error:  # someone called pygame.quit() since: its fonts died with it
            pygame.font.init()
            self.font = pygame.font.Font(pygame.font.get_default_font(), SCORE_FONT_SIZE)
            score = self.font.render(text, True, (255, 255, 255), (0, 0, 0))
        place = score.get_rect()
        place.center = (SCORE_CENTRE_X, g.WINDOW_H - g.WINDOW_H * 2.5 / 40.0)
        if scale is None:
            return score, place
        width, height = max(1, round(place.width * scale[0])), max(1, round(place.height * scale[1]))
        full = pygame.Surface(score.get_size())  # the text's 8-bit surface as 32 bits: smoothscale needs them
        full.blit(score, (0, 0))
        small = pygame.transform.smoothscale(full, (width, height))
        spot = small.get_rect()
        spot.center = (round(place.centerx * scale[0]), round(place.centery * scale[1]))
        self._small_score = (text, scale, small, spot)
        return small, spot

    def _indicators(
        self, canvas: Any, bars: list[tuple[list[tuple[float, float]], tuple[int, int, int]]]
    ) -> None:
        """Draw the indicator strip's polygons (from :meth:`_indicator_bars`), in order."""
        polygon = self.pygame.draw.polygon
        for points, color in bars:
            polygon(canvas, color=color, points=points)

    def _indicator_bars(
        self, car: Any, scale: tuple[float, float] | None = None
    ) -> list[tuple[list[tuple[float, float]], tuple[int, int, int]]]:
        """The indicator strip's polygons with their colours, in drawing order.

        Its black ground, then speed, the four wheels' spin, the steering and the turn rate
        as bars (points scaled by ``scale``).
        """
        width, height = self.g.WINDOW_W, self.g.WINDOW_H
        s, h = width / 40.0, height / 40.0
        bars: list[tuple[list[tuple[float, float]], tuple[int, int, int]]] = []

        def polygon(points: list[tuple[float, float]], color: tuple[int, int, int]) -> None:
            if scale is not None:
                points = [(x * scale[0], y * scale[1]) for x, y in points]
            bars.append((points, color))

        polygon([(width, height), (width, height - 5 * h), (0, height - 5 * h), (0, height)], (0, 0, 0))

        def column(place: float, value: float) -> list[tuple[float, float]]:
            top = height - (h + h * value)
            return [
                (place * s, top),
                ((place + 1) * s, top),
                ((place + 1) * s, height - h),
                (place * s, height - h),
            ]

        def row(place: float, value: float) -> list[tuple[float, float]]:
            return [
                (place * s, height - 4 * h),
                ((place + value) * s, height - 4 * h),
                ((place + value) * s, height - 2 * h),
                (place * s, height - 2 * h),
            ]

        def bar(value: float, points: list[tuple[float, float]], color: tuple[int, int, int]) -> None:
            if abs(value) > 1e-4:
                polygon(points, color)

        velocity = car.hull.linearVelocity
        speed = np.sqrt(np.square(velocity[0]) + np.square(velocity[1]))
        bar(speed, column(5, 0.02 * speed), INDICATOR_COLORS["speed"])
        for k, wheel in enumerate(car.wheels):
            color = INDICATOR_COLORS["front_spin" if k < 2 else "rear_spin"]
            bar(wheel.omega, column(7 + k, 0.01 * wheel.omega), color)
        steering = car.wheels[0].joint.angle
        bar(steering, row(20, -10.0 * steering), INDICATOR_COLORS["steering"])
        turning = car.hull.angularVelocity
        bar(turning, row(30, -0.8 * turning), INDICATOR_COLORS["turning"])
        return bars


def _strip_top(bars: list[tuple[list[tuple[float, float]], Any]], place: Any, height: int) -> int:
    """The first canvas row the indicator strip and the score can touch (0 when unsure)."""
    lowest = min([float(place.top)] + [float(y) for points, _ in bars for _, y in points])
    if not math.isfinite(lowest):
        return 0
    return min(max(0, math.floor(lowest) - 2), height)


def _pixels(pygame: Any, surface: Any) -> np.ndarray:
    """A surface's pixels as a (height, width, 3) array."""
    return np.transpose(np.array(pygame.surfarray.pixels3d(surface)), axes=(1, 0, 2))


def _flip_rows(pygame: Any, source: Any, target: Any, first: int = 0, count: int | None = None) -> None:
    """``pygame.transform.flip(source, False, True)``'s pixels, written into ``target``.

    Only rows ``[first, first + count)`` of ``source`` when given (all by default), each
    written where the flip puts it: as many rows from the bottom as it was from the top.
    """
    rows_in, rows_out = pygame.surfarray.pixels2d(source).T, pygame.surfarray.pixels2d(target).T
    height = rows_in.shape[0]
    count = height - first if count is None else count
    np.copyto(rows_out[height - first - count : height - first], rows_in[first : first + count][::-1])
    del rows_in, rows_out  # the surfaces stay locked while a pixel view exists


def _corner_bounds(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(values.min(axis=1), values.max(axis=1))`` of a quadrilateral's four corners a row.

    Taken column against column: numpy's reductions along a row of four are ten times slower.
    """
    a, b, c, d = values.T
    return np.minimum(np.minimum(a, b), np.minimum(c, d)), np.maximum(np.maximum(a, b), np.maximum(c, d))


def _covers(xs: np.ndarray, ys: np.ndarray, width: int, height: int, margin: float = 4.0) -> bool:
    """Whether the convex quadrilateral ``(xs, ys)`` holds the canvas and a margin around it.

    Then no edge of the polygon (nor its anti-aliasing) reaches the canvas: filling the
    polygon paints every pixel, as filling the canvas does.
    """
    corners = (
        (-margin, -margin),
        (width + margin, -margin),
        (width + margin, height + margin),
        (-margin, height + margin),
    )
    sides = []
    for k in range(4):
        x0, y0, x1, y1 = xs[k], ys[k], xs[(k + 1) % 4], ys[(k + 1) % 4]
        sides += [(x1 - x0) * (cy - y0) - (y1 - y0) * (cx - x0) for cx, cy in corners]
    return all(side > 0 for side in sides) or all(side < 0 for side in sides)
