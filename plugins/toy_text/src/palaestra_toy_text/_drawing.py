"""Toy-text pictures drawn with pygame primitives and pygame's default font."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.utils.canvas import Canvas

__all__ = ["INSTALL_HINT", "draw_blackjack", "draw_cliff", "draw_frozen_lake", "draw_taxi"]

INSTALL_HINT = 'pip install "palaestra[render]"  (or: pip install pygame-ce)'
ICE = (206, 232, 245)
HOLE = (28, 52, 94)
GOAL = (246, 196, 40)
AGENT = (200, 40, 40)
GRID = (90, 110, 130)
GROUND = (120, 190, 90)
CLIFF = (90, 70, 55)
FELT = (40, 120, 70)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


def _text(
    canvas: Canvas, text: str, size: int, color: tuple[int, int, int], center: tuple[float, float]
) -> None:
    pygame = canvas.pygame
    if not pygame.font.get_init():
        pygame.font.init()
    label = pygame.font.Font(None, size).render(text, True, color)
    canvas.surface.blit(label, label.get_rect(center=(int(center[0]), int(center[1]))))


def _agent(canvas: Canvas, rect: Any) -> None:
    pygame = canvas.pygame
    cx, cy = rect.center
    radius = min(rect.width, rect.height) * 0.3
    pygame.draw.circle(canvas.surface, AGENT, (cx, cy), radius)
    pygame.draw.circle(canvas.surface, BLACK, (cx, cy), radius, 2)


def draw_frozen_lake(
    canvas: Canvas, desc: np.ndarray, state: int, lastaction: int | None, cell: tuple[int, int]
) -> None:
    """Ice, holes, the goal flag and the agent."""
    pygame, surface = canvas.pygame, canvas.surface
    surface.fill(WHITE)
    nrow, ncol = desc.shape
    for row in range(nrow):
        for col in range(ncol):
            rect = pygame.Rect(col * cell[0], row * cell[1], cell[0], cell[1])
            letter = desc[row, col]
            pygame.draw.rect(surface, HOLE if letter == b"H" else ICE, rect)
            if letter == b"G":
                pole = (rect.centerx - rect.width // 6, rect.top + rect.height // 6)
                pygame.draw.line(surface, BLACK, pole, (pole[0], rect.bottom - rect.height // 6), 3)
                pygame.draw.polygon(
                    surface,
                    GOAL,
                    [
                        pole,
                        (pole[0] + rect.width // 2, pole[1] + rect.height // 6),
                        (pole[0], pole[1] + rect.height // 3),
                    ],
                )
            elif letter == b"S":
                _text(canvas, "S", cell[1] // 2, GRID, rect.center)
            pygame.draw.rect(surface, GRID, rect, 1)
    row, col = divmod(int(state), ncol)
    _agent(canvas, pygame.Rect(col * cell[0], row * cell[1], cell[0], cell[1]))


def draw_cliff(
    canvas: Canvas, shape: tuple[int, int], cliff: np.ndarray, state: int, cell: tuple[int, int]
) -> None:
    """Ground, the cliff, start and goal, and the agent."""
    pygame, surface = canvas.pygame, canvas.surface
    for row in range(shape[0]):
        for col in range(shape[1]):
            rect = pygame.Rect(col * cell[0], row * cell[1], cell[0], cell[1])
            pygame.draw.rect(surface, CLIFF if cliff[row, col] else GROUND, rect)
            pygame.draw.rect(surface, GRID, rect, 1)
    _text(canvas, "S", cell[1] // 2, WHITE, (cell[0] / 2, (shape[0] - 0.5) * cell[1]))
    _text(canvas, "G", cell[1] // 2, GOAL, ((shape[1] - 0.5) * cell[0], (shape[0] - 0.5) * cell[1]))
    row, col = divmod(int(state), shape[1])
    _agent(canvas, pygame.Rect(col * cell[0], row * cell[1], cell[0], cell[1]))


def draw_taxi(canvas: Canvas, env: Any, decoded: tuple[int, int, int, int]) -> None:
    """The 5x5 city with walls, the four stands, passenger, destination and taxi."""
    pygame, surface = canvas.pygame, canvas.surface
    surface.fill((250, 250, 246))
    origin, cell = (48, 128), (88, 56)
    taxi_row, taxi_col, passenger, dest = decoded
    for index, (r, c) in enumerate(env.locs):
        rect = pygame.Rect(origin[0] + c * cell[0], origin[1] + r * cell[1], cell[0], cell[1])
        pygame.draw.rect(surface, env.locs_colors[index], rect)
        _text(canvas, "RGYB"[index], 28, BLACK, rect.center)
    for r in range(6):
        y = origin[1] + r * cell[1]
        pygame.draw.line(surface, GRID, (origin[0], y), (origin[0] + 5 * cell[0], y), 1)
    for c in range(6):
        x = origin[0] + c * cell[0]
        pygame.draw.line(surface, GRID, (x, origin[1]), (x, origin[1] + 5 * cell[1]), 1)
    for r in range(5):
        for c in range(6):
            # A '|' in the map between two columns is a wall.
            if env.desc[1 + r, 2 * c] == b"|":
                x = origin[0] + c * cell[0]
                pygame.draw.line(
                    surface, BLACK, (x, origin[1] + r * cell[1]), (x, origin[1] + (r + 1) * cell[1]), 5
                )
    dr, dc = env.locs[dest]
    dest_rect = pygame.Rect(origin[0] + dc * cell[0], origin[1] + dr * cell[1], cell[0], cell[1])
    pygame.draw.rect(surface, BLACK, dest_rect, 4)
    taxi = pygame.Rect(
        origin[0] + taxi_col * cell[0] + 14, origin[1] + taxi_row * cell[1] + 12, cell[0] - 28, cell[1] - 24
    )
    pygame.draw.rect(surface, (250, 200, 0) if passenger < 4 else (40, 170, 60), taxi, border_radius=6)
    pygame.draw.rect(surface, BLACK, taxi, 2, border_radius=6)
    if passenger < 4:
        pr, pc = env.locs[passenger]
        center = (origin[0] + pc * cell[0] + cell[0] * 0.8, origin[1] + pr * cell[1] + cell[1] * 0.5)
        pygame.draw.circle(surface, (60, 60, 200), center, 9)
    _text(canvas, "Taxi", 36, BLACK, (origin[0] + 2.5 * cell[0], 60))


def draw_blackjack(canvas: Canvas, player_sum: int, showing: int, usable: int, face: str, suit: str) -> None:
    """The felt table: the dealer's up card and hidden card, the player's sum."""
    pygame, surface = canvas.pygame, canvas.surface
    surface.fill(FELT)
    _text(canvas, "Dealer", 32, WHITE, (80, 40))
    for x, hidden in ((96, False), (208, True)):
        card = pygame.Rect(x, 72, 80, 112)
        pygame.draw.rect(surface, (150, 40, 40) if hidden else WHITE, card, border_radius=8)
        pygame.draw.rect(surface, BLACK, card, 2, border_radius=8)
        if not hidden:
            color = (200, 0, 0) if suit in ("D", "H") else BLACK
            _text(canvas, face, 44, color, card.center)
            _text(canvas, suit, 24, color, (card.left + 14, card.top + 14))
    _text(canvas, "Player", 32, WHITE, (80, 216))
    _text(canvas, str(player_sum), 96, WHITE, (192, 286))
    if usable:
        _text(canvas, "usable ace", 32, (250, 220, 120), (192, 344))
