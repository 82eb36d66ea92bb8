"""Toy-text pictures, drawn with pygame primitives only (no image files).

Each scene scales with its cell size (FrozenLake maps can be any size). The pieces that
never change within an env (the board) are redrawn every frame: they cost well under a
millisecond, and keeping them stateless keeps every frame a function of the env's state.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from palaestra.plugin import Canvas

__all__ = ["INSTALL_HINT", "draw_cliff", "draw_frozen_lake", "draw_taxi"]

INSTALL_HINT = 'pip install "palaestra[render]"  (or: pip install pygame-ce)'

Color = tuple[int, int, int]
WHITE: Color = (255, 255, 255)
BLACK: Color = (0, 0, 0)
INK: Color = (34, 38, 46)
SKIN: Color = (246, 204, 164)

# FrozenLake
ICE: Color = (214, 236, 248)
ICE_EDGE: Color = (170, 205, 228)
ICE_SHINE: Color = (244, 251, 255)
WATER: Color = (30, 70, 130)
WATER_DEEP: Color = (16, 40, 84)
RIPPLE: Color = (90, 140, 196)
ELF_COAT: Color = (40, 140, 80)
ELF_HAT: Color = (200, 40, 50)
PRESENT: Color = (214, 48, 64)
RIBBON: Color = (250, 210, 60)

# CliffWalking
GRASS: Color = (116, 186, 88)
GRASS_DARK: Color = (84, 150, 64)
CHASM: Color = (52, 40, 36)
CHASM_DEEP: Color = (24, 18, 18)
ROCK: Color = (120, 104, 92)
HIKER_SHIRT: Color = (230, 120, 40)
PACK: Color = (70, 90, 140)

# Taxi
PAVEMENT: Color = (238, 236, 228)
ROAD: Color = (84, 88, 96)
LANE: Color = (200, 200, 190)
BARRIER: Color = (226, 96, 60)
TAXI_YELLOW: Color = (250, 196, 32)
GLASS: Color = (150, 200, 230)

# Blackjack
FELT: Color = (30, 110, 64)
FELT_DARK: Color = (20, 82, 46)
CARD_RED: Color = (196, 30, 40)
CARD_BACK: Color = (40, 60, 140)
GOLD: Color = (240, 200, 90)


@functools.lru_cache(maxsize=32)
def _cached_font(pygame: Any, size: int, bold: bool = False) -> Any:
    font = pygame.font.Font(None, size)
    font.set_bold(bold)
    return font


def _rendered(pygame: Any, text: str, size: int, color: Color, bold: bool) -> Any:
    """``text`` drawn in a font of pygame's default face, made once per size (~0.1 ms to load).

    Fonts die with pygame's font module: when anything in the process has called
    ``pygame.quit()`` since (another library's env closing, say), the module is started
    again and the cached fonts are made anew.
    """
    if not pygame.font.get_init():
        pygame.font.init()
    try:
        return _cached_font(pygame, size, bold).render(text, True, color)
    except pygame.error:
        _cached_font.cache_clear()
        return _cached_font(pygame, size, bold).render(text, True, color)


def _text(
    canvas: Canvas, text: str, size: int, color: Color, center: tuple[float, float], bold: bool = False
) -> None:
    label = _rendered(canvas.pygame, text, max(size, 6), color, bold)
    canvas.surface.blit(label, label.get_rect(center=(round(center[0]), round(center[1]))))


def _rect(canvas: Canvas, col: int, row: int, cell: tuple[int, int], origin: tuple[int, int] = (0, 0)) -> Any:
    return canvas.pygame.Rect(origin[0] + col * cell[0], origin[1] + row * cell[1], cell[0], cell[1])


def _speckle(row: int, col: int, count: int) -> list[tuple[float, float]]:
    """``count`` fixed pseudo-random points in the unit square for cell (row, col)."""
    points = []
    seed = (row * 7919 + col * 104729) % 2147483647 or 1
    for _ in range(count):
        seed = seed * 48271 % 2147483647
        x = seed / 2147483647
        seed = seed * 48271 % 2147483647
        points.append((x, seed / 2147483647))
    return points


# -- FrozenLake ----------------------------------------------------------------------------


def _ice(canvas: Canvas, rect: Any, row: int, col: int) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    pygame.draw.rect(surface, ICE, rect)
    pygame.draw.rect(surface, ICE_EDGE, rect, max(1, rect.width // 32))
    w, h = rect.width, rect.height
    for fx, fy in _speckle(row, col, 2):
        x, y = rect.left + (0.15 + 0.55 * fx) * w, rect.top + (0.15 + 0.55 * fy) * h
        pygame.draw.line(surface, ICE_SHINE, (x, y + 0.18 * h), (x + 0.18 * w, y), max(1, w // 22))
    fx, fy = _speckle(col, row, 1)[0]
    x, y = rect.left + (0.2 + 0.6 * fx) * w, rect.top + (0.25 + 0.5 * fy) * h
    crack = [(x, y), (x + 0.08 * w, y + 0.06 * h), (x + 0.05 * w, y + 0.14 * h), (x + 0.13 * w, y + 0.2 * h)]
    pygame.draw.lines(surface, ICE_EDGE, False, crack, 1)


def _hole(canvas: Canvas, rect: Any) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    pool = rect.inflate(-rect.width * 0.16, -rect.height * 0.22)
    pygame.draw.ellipse(surface, ICE_SHINE, pool.inflate(rect.width * 0.06, rect.height * 0.06))
    pygame.draw.ellipse(surface, WATER, pool)
    pygame.draw.ellipse(surface, WATER_DEEP, pool.inflate(-pool.width * 0.35, -pool.height * 0.35))
    for k in (0.3, 0.55):
        ripple = pygame.Rect(0, 0, pool.width * k, pool.height * k * 0.45)
        ripple.center = (pool.centerx + pool.width * 0.08, pool.centery - pool.height * 0.12 + k * 8)
        pygame.draw.arc(surface, RIPPLE, ripple, 0.3, 2.8, max(1, rect.width // 40))


def _present(canvas: Canvas, rect: Any) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    w, h = rect.width, rect.height
    box = pygame.Rect(0, 0, w * 0.5, h * 0.4)
    box.midbottom = (rect.centerx, rect.bottom - h * 0.14)
    lid = pygame.Rect(0, 0, w * 0.58, h * 0.12)
    lid.midbottom = (rect.centerx, box.top + 2)
    pygame.draw.rect(surface, PRESENT, box, border_radius=3)
    pygame.draw.rect(surface, PRESENT, lid, border_radius=3)
    band = max(2, w // 14)
    pygame.draw.rect(surface, RIBBON, (box.centerx - band // 2, lid.top, band, box.bottom - lid.top))
    pygame.draw.rect(surface, RIBBON, (box.left, box.centery - band // 2, box.width, band))
    loop = max(3, w // 9)
    for side in (-1, 1):
        pygame.draw.circle(
            surface, RIBBON, (box.centerx + side * loop * 0.8, lid.top - loop * 0.4), loop * 0.6, 3
        )
    pygame.draw.rect(surface, INK, box, 1, border_radius=3)
    pygame.draw.rect(surface, INK, lid, 1, border_radius=3)


def _start_mat(canvas: Canvas, rect: Any) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    mat = rect.inflate(-rect.width * 0.22, -rect.height * 0.22)
    pygame.draw.rect(surface, (238, 246, 252), mat, border_radius=max(2, rect.width // 10))
    pygame.draw.rect(surface, ICE_EDGE, mat, max(1, rect.width // 30), border_radius=max(2, rect.width // 10))
    _text(
        canvas,
        "START",
        max(8, rect.width // 5),
        (120, 160, 190),
        (mat.centerx, mat.bottom - mat.height * 0.18),
    )


# lastaction: 0 left, 1 down, 2 right, 3 up (FrozenLake's and CliffWalking's order differ:
# each scene passes the horizontal direction it wants, -1 left, 0 facing us, 1 right).
def _elf(canvas: Canvas, rect: Any, facing: int, fallen: bool) -> None:
    """A small skater in a green coat and a red hat with a white bobble."""
    pygame, surface = canvas.pygame, canvas.surface
    w, h = rect.width, rect.height
    cx = rect.centerx
    line = max(1, w // 40)
    if fallen:  # only the hat floats on the water
        hat = [
            (cx - w * 0.16, rect.centery + h * 0.06),
            (cx + w * 0.16, rect.centery + h * 0.06),
            (cx, rect.top + h * 0.3),
        ]
        pygame.draw.polygon(surface, ELF_HAT, hat)
        pygame.draw.circle(surface, WHITE, hat[2], w * 0.05)
        return
    feet_y = rect.bottom - h * 0.12
    for side in (-1, 1):  # skates
        pygame.draw.line(
            surface,
            INK,
            (cx + side * w * 0.1 - w * 0.07, feet_y),
            (cx + side * w * 0.1 + w * 0.07, feet_y),
            max(2, w // 24),
        )
        pygame.draw.line(
            surface,
            (60, 60, 70),
            (cx + side * w * 0.1, feet_y),
            (cx + side * w * 0.08, feet_y - h * 0.14),
            max(2, w // 18),
        )
    body = pygame.Rect(0, 0, w * 0.36, h * 0.32)
    body.midbottom = (cx, feet_y - h * 0.1)
    pygame.draw.ellipse(surface, ELF_COAT, body)
    pygame.draw.ellipse(surface, INK, body, line)
    pygame.draw.line(
        surface,
        (230, 200, 60),
        (body.left + 2, body.centery),
        (body.right - 2, body.centery),
        max(1, w // 28),
    )
    head_center = (cx, body.top - h * 0.08)
    radius = w * 0.13
    pygame.draw.circle(surface, SKIN, head_center, radius)
    pygame.draw.circle(surface, INK, head_center, radius, line)
    eye_dx = facing * radius * 0.35
    for side in (-1, 1):
        pygame.draw.circle(
            surface, INK, (head_center[0] + eye_dx + side * radius * 0.38, head_center[1]), max(1, w / 40)
        )
    hat = [
        (head_center[0] - radius * 1.1, head_center[1] - radius * 0.35),
        (head_center[0] + radius * 1.1, head_center[1] - radius * 0.35),
        (head_center[0] - facing * radius * 0.9, head_center[1] - radius * 2.3),
    ]
    pygame.draw.polygon(surface, ELF_HAT, hat)
    pygame.draw.polygon(surface, INK, hat, line)
    pygame.draw.circle(surface, WHITE, hat[2], radius * 0.35)


def draw_frozen_lake(
    canvas: Canvas, desc: np.ndarray, state: int, lastaction: int | None, cell: tuple[int, int]
) -> None:
    """Cracked ice, dark water holes, the start mat, a present at the goal and the skater."""
    canvas.surface.fill(ICE_EDGE)
    nrow, ncol = desc.shape
    for row in range(nrow):
        for col in range(ncol):
            rect = _rect(canvas, col, row, cell)
            letter = desc[row, col]
            _ice(canvas, rect, row, col)
            if letter == b"H":
                _hole(canvas, rect)
            elif letter == b"G":
                _present(canvas, rect)
            elif letter == b"S":
                _start_mat(canvas, rect)
    row, col = divmod(int(state), ncol)
    facing = {0: -1, 2: 1}.get(-1 if lastaction is None else int(lastaction), 0)
    _elf(canvas, _rect(canvas, col, row, cell), facing, fallen=desc[row, col] == b"H")


# -- CliffWalking --------------------------------------------------------------------------


def _grass(canvas: Canvas, rect: Any, row: int, col: int) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    pygame.draw.rect(surface, GRASS, rect)
    w, h = rect.width, rect.height
    for fx, fy in _speckle(row, col, 5):
        x, y = rect.left + (0.1 + 0.8 * fx) * w, rect.top + (0.2 + 0.7 * fy) * h
        for dx in (-0.05, 0.0, 0.05):
            pygame.draw.line(surface, GRASS_DARK, (x, y), (x + dx * w, y - 0.09 * h), max(1, w // 40))


def _chasm(canvas: Canvas, rect: Any, col: int) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    w, h = rect.width, rect.height
    pygame.draw.rect(surface, CHASM, rect)
    pygame.draw.rect(surface, CHASM_DEEP, rect.inflate(0, -h * 0.5).move(0, h * 0.25))
    # A jagged rock lip along the top edge, the grass above it.
    lip = [(rect.left, rect.top)]
    for k, (fx, fy) in enumerate(_speckle(3, col, 4)):
        lip.append((rect.left + (k + 0.5 + 0.3 * (fx - 0.5)) * w / 4, rect.top + (0.1 + 0.14 * fy) * h))
    lip.append((rect.right, rect.top))
    pygame.draw.polygon(surface, ROCK, lip)
    for fx, fy in _speckle(col, 11, 3):
        pygame.draw.circle(
            surface, (70, 58, 52), (rect.left + fx * w, rect.top + (0.35 + 0.5 * fy) * h), max(1, w // 30)
        )


def _flag(canvas: Canvas, rect: Any, checkered: bool, color: Color) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    w, h = rect.width, rect.height
    foot = (rect.left + w * 0.3, rect.bottom - h * 0.15)
    top = (foot[0], rect.top + h * 0.15)
    pygame.draw.line(surface, INK, foot, top, max(2, w // 20))
    cloth = pygame.Rect(top[0], top[1], w * 0.42, h * 0.28)
    pygame.draw.rect(surface, WHITE if checkered else color, cloth)
    if checkered:
        square = cloth.width / 4
        for i in range(4):
            for j in range(3):
                if (i + j) % 2 == 0:
                    pygame.draw.rect(
                        surface,
                        INK,
                        (
                            cloth.left + i * square,
                            cloth.top + j * cloth.height / 3,
                            math.ceil(square),
                            math.ceil(cloth.height / 3),
                        ),
                    )
    pygame.draw.rect(surface, INK, cloth, 1)


def _hiker(canvas: Canvas, rect: Any, facing: int) -> None:
    """A walker with a backpack and a stick, facing the way it last moved."""
    pygame, surface = canvas.pygame, canvas.surface
    w, h = rect.width, rect.height
    cx = rect.centerx
    line = max(1, w // 40)
    direction = facing or 1
    feet_y = rect.bottom - h * 0.1
    for side in (-1, 1):
        pygame.draw.line(
            surface,
            (70, 60, 50),
            (cx + side * w * 0.05, feet_y - h * 0.2),
            (cx + side * w * 0.09, feet_y),
            max(2, w // 16),
        )
    pack = pygame.Rect(0, 0, w * 0.18, h * 0.26)
    pack.midright = (cx - direction * w * 0.06 + (pack.width if direction < 0 else 0), feet_y - h * 0.38)
    pygame.draw.rect(surface, PACK, pack, border_radius=4)
    pygame.draw.rect(surface, INK, pack, line, border_radius=4)
    body = pygame.Rect(0, 0, w * 0.24, h * 0.3)
    body.midbottom = (cx, feet_y - h * 0.18)
    pygame.draw.rect(surface, HIKER_SHIRT, body, border_radius=6)
    pygame.draw.rect(surface, INK, body, line, border_radius=6)
    head = (cx, body.top - h * 0.1)
    pygame.draw.circle(surface, SKIN, head, w * 0.11)
    pygame.draw.circle(surface, INK, head, w * 0.11, line)
    pygame.draw.circle(surface, INK, (head[0] + direction * w * 0.045, head[1] - h * 0.01), max(1, w / 40))
    brim = pygame.Rect(0, 0, w * 0.3, h * 0.06)
    brim.center = (head[0] + direction * w * 0.03, head[1] - h * 0.07)
    pygame.draw.ellipse(surface, (150, 110, 60), brim)
    stick_x = cx + direction * w * 0.2
    pygame.draw.line(
        surface,
        (120, 80, 40),
        (stick_x, body.centery),
        (stick_x + direction * w * 0.05, feet_y),
        max(2, w // 24),
    )


def draw_cliff(
    canvas: Canvas,
    shape: tuple[int, int],
    cliff: np.ndarray,
    state: int,
    cell: tuple[int, int],
    lastaction: int | None = None,
) -> None:
    """Grass, the chasm along the bottom row, the start and finish flags and the hiker."""
    pygame, surface = canvas.pygame, canvas.surface
    nrow, ncol = shape
    for row in range(nrow):
        for col in range(ncol):
            rect = _rect(canvas, col, row, cell)
            if cliff[row, col]:
                _chasm(canvas, rect, col)
            else:
                _grass(canvas, rect, row, col)
    start, goal = _rect(canvas, 0, nrow - 1, cell), _rect(canvas, ncol - 1, nrow - 1, cell)
    for rect in (start, goal):
        pygame.draw.rect(
            surface, (196, 180, 140), rect.inflate(-rect.width * 0.1, -rect.height * 0.1), border_radius=6
        )
    _flag(canvas, start, checkered=False, color=(60, 120, 210))
    _flag(canvas, goal, checkered=True, color=WHITE)
    for x in range(1, ncol):
        pygame.draw.line(surface, GRASS_DARK, (x * cell[0], 0), (x * cell[0], (nrow - 1) * cell[1]), 1)
    for y in range(1, nrow):
        pygame.draw.line(surface, GRASS_DARK, (0, y * cell[1]), (ncol * cell[0], y * cell[1]), 1)
    row, col = divmod(int(state), ncol)
    facing = {1: 1, 3: -1}.get(-1 if lastaction is None else int(lastaction), 0)
    _hiker(canvas, _rect(canvas, col, row, cell), facing)


# -- Taxi ----------------------------------------------------------------------------------


def _person(canvas: Canvas, center: tuple[float, float], shirt: Color, scale: float = 1.0) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    x, y = center
    body = pygame.Rect(0, 0, 14 * scale, 18 * scale)
    body.midtop = (x, y - 2 * scale)
    pygame.draw.rect(surface, shirt, body, border_radius=int(5 * scale))
    pygame.draw.rect(surface, INK, body, 1, border_radius=int(5 * scale))
    pygame.draw.circle(surface, SKIN, (x, y - 8 * scale), 6 * scale)
    pygame.draw.circle(surface, INK, (x, y - 8 * scale), 6 * scale, 1)
    pygame.draw.arc(surface, INK, (x - 3 * scale, y - 9 * scale, 6 * scale, 5 * scale), 3.6, 5.8, 1)


def _taxi(canvas: Canvas, rect: Any, passenger_color: Color | None) -> None:
    """A side view of a yellow cab: body, cabin windows, roof sign, wheels."""
    pygame, surface = canvas.pygame, canvas.surface
    body = pygame.Rect(0, 0, rect.width * 0.78, rect.height * 0.34)
    body.midbottom = (rect.centerx, rect.bottom - rect.height * 0.2)
    cabin = pygame.Rect(0, 0, body.width * 0.56, rect.height * 0.24)
    cabin.midbottom = (body.centerx - body.width * 0.04, body.top + 2)
    pygame.draw.rect(surface, TAXI_YELLOW, cabin, border_top_left_radius=8, border_top_right_radius=8)
    pygame.draw.rect(surface, INK, cabin, 2, border_top_left_radius=8, border_top_right_radius=8)
    for k in (0, 1):
        window = pygame.Rect(
            cabin.left + 4 + k * (cabin.width / 2 - 2), cabin.top + 4, cabin.width / 2 - 6, cabin.height - 6
        )
        pygame.draw.rect(surface, GLASS, window, border_radius=3)
    if passenger_color is not None:  # the rider's head in the back window
        pygame.draw.circle(
            surface, SKIN, (cabin.left + cabin.width * 0.28, cabin.top + cabin.height * 0.58), 5
        )
        pygame.draw.rect(
            surface, passenger_color, (cabin.left + cabin.width * 0.28 - 5, cabin.bottom - 4, 10, 4)
        )
    pygame.draw.rect(surface, TAXI_YELLOW, body, border_radius=6)
    pygame.draw.rect(surface, INK, body, 2, border_radius=6)
    checks = 8
    for i in range(checks):
        if i % 2 == 0:
            pygame.draw.rect(
                surface,
                INK,
                (
                    body.left + 6 + i * (body.width - 12) / checks,
                    body.centery - 2,
                    (body.width - 12) / checks,
                    4,
                ),
            )
    sign = pygame.Rect(0, 0, 18, 7)
    sign.midbottom = cabin.midtop
    pygame.draw.rect(surface, WHITE, sign, border_radius=2)
    pygame.draw.rect(surface, INK, sign, 1, border_radius=2)
    for fx in (0.22, 0.78):
        wheel = (body.left + body.width * fx, body.bottom)
        pygame.draw.circle(surface, INK, wheel, rect.height * 0.13)
        pygame.draw.circle(surface, (180, 180, 180), wheel, rect.height * 0.05)
    pygame.draw.circle(surface, (255, 250, 200), (body.right - 3, body.top + 5), 3)


def _softened(color: Color) -> Color:
    """A stand's colour mixed a quarter toward white: pure RGB primaries glare."""
    return (color[0] * 3 + 255) // 4, (color[1] * 3 + 255) // 4, (color[2] * 3 + 255) // 4


def _house(canvas: Canvas, rect: Any, color: Color) -> None:
    """The destination: a small house with a roof of the stand's colour, in the cell's corner."""
    pygame, surface = canvas.pygame, canvas.surface
    base = pygame.Rect(0, 0, 18, 13)
    base.topright = (rect.right - 8, rect.top + 14)
    pygame.draw.rect(surface, (236, 220, 190), base)
    pygame.draw.rect(surface, INK, base, 1)
    roof = [(base.left - 4, base.top), (base.right + 4, base.top), (base.centerx, base.top - 10)]
    pygame.draw.polygon(surface, color, roof)
    pygame.draw.polygon(surface, INK, roof, 1)
    pygame.draw.rect(surface, (120, 80, 50), (base.centerx - 2, base.bottom - 7, 5, 7))


def draw_taxi(canvas: Canvas, env: Any, decoded: tuple[int, int, int, int]) -> None:
    """The city: roads, barriers, the four coloured stands, the passenger, the destination, the cab."""
    pygame, surface = canvas.pygame, canvas.surface
    origin, cell = env.grid_origin, env.cell_size
    taxi_row, taxi_col, passenger, dest = decoded
    surface.fill(PAVEMENT)
    grid = pygame.Rect(origin[0], origin[1], 5 * cell[0], 5 * cell[1])
    pygame.draw.rect(surface, ROAD, grid)
    for r in range(5):
        for c in range(5):
            rect = _rect(canvas, c, r, cell, origin)
            # Dashed lane marks through each block, both ways.
            for k in range(3):
                x = rect.left + 10 + k * 26
                pygame.draw.line(surface, LANE, (x, rect.centery), (x + 12, rect.centery), 2)
    for index, (r, c) in enumerate(env.locs):
        rect = _rect(canvas, c, r, cell, origin).inflate(-6, -6)
        color = _softened(env.locs_colors[index])
        pygame.draw.rect(surface, color, rect, border_radius=6)
        pygame.draw.rect(surface, INK, rect, 2, border_radius=6)
        sign = pygame.Rect(rect.left + 4, rect.top + 4, 20, 20)
        pygame.draw.rect(surface, WHITE, sign, border_radius=4)
        _text(canvas, "RGYB"[index], 20, INK, sign.center, bold=True)
    pygame.draw.rect(surface, INK, grid.inflate(8, 8), 6, border_radius=4)
    for r in range(5):
        for c in range(1, 5):
            if env.desc[1 + r, 2 * c] == b"|":  # a wall between columns c-1 and c
                x = origin[0] + c * cell[0]
                barrier = pygame.Rect(x - 4, origin[1] + r * cell[1] - 2, 8, cell[1] + 4)
                pygame.draw.rect(surface, BARRIER, barrier, border_radius=3)
                for k in range(3):
                    pygame.draw.line(
                        surface,
                        WHITE,
                        (barrier.left, barrier.top + 8 + k * 18),
                        (barrier.right, barrier.top + 16 + k * 18),
                        2,
                    )
                pygame.draw.rect(surface, INK, barrier, 1, border_radius=3)
    rider = None if passenger < 4 else env.locs_colors[dest]
    if passenger < 4:
        pr, pc = env.locs[passenger]
        stand = _rect(canvas, pc, pr, cell, origin)
        _person(canvas, (stand.left + cell[0] * 0.7, stand.top + cell[1] * 0.42), (70, 80, 200))
    _taxi(
        canvas,
        _rect(canvas, taxi_col, taxi_row, cell, origin),
        rider or ((70, 80, 200) if passenger == 4 else None),
    )
    dr, dc = env.locs[dest]  # drawn last: the cab must not hide where it is going
    _house(canvas, _rect(canvas, dc, dr, cell, origin), env.locs_colors[dest])
    _text(canvas, "TAXI", 44, INK, (origin[0] + 2.5 * cell[0], 44), bold=True)
    where = "in the cab" if passenger == 4 else f"waiting at {'RGYB'[passenger]}"
    _text(
        canvas,
        f"passenger {where}, going to {'RGYB'[dest]}",
        24,
        (90, 90, 90),
        (origin[0] + 2.5 * cell[0], 92),
    )
