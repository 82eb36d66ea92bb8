"""Blackjack's table drawn with pygame primitives: the felt, the cards and their suits."""

from __future__ import annotations

import math
from typing import Any

from palaestra.plugin import Canvas
from palaestra_toy_text._drawing import (
    CARD_BACK,
    CARD_RED,
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    WHITE,
    _text,
)

__all__ = ["draw_blackjack"]


def _suit(canvas: Canvas, suit: str, center: tuple[float, float], size: float) -> None:
    """A heart, diamond, club or spade of height ``size``, from circles and polygons."""
    pygame, surface = canvas.pygame, canvas.surface
    x, y = center
    r = size * 0.27
    color = CARD_RED if suit in ("H", "D") else INK
    if suit == "D":
        pygame.draw.polygon(
            surface, color, [(x, y - size / 2), (x + size * 0.36, y), (x, y + size / 2), (x - size * 0.36, y)]
        )
    elif suit == "H":
        pygame.draw.circle(surface, color, (x - r * 0.95, y - r * 0.6), r)
        pygame.draw.circle(surface, color, (x + r * 0.95, y - r * 0.6), r)
        pygame.draw.polygon(
            surface, color, [(x - r * 1.9, y - r * 0.35), (x + r * 1.9, y - r * 0.35), (x, y + size / 2)]
        )
    else:
        if suit == "S":
            pygame.draw.circle(surface, color, (x - r * 0.95, y + r * 0.35), r)
            pygame.draw.circle(surface, color, (x + r * 0.95, y + r * 0.35), r)
            pygame.draw.polygon(
                surface, color, [(x - r * 1.9, y + r * 0.1), (x + r * 1.9, y + r * 0.1), (x, y - size / 2)]
            )
        else:  # clubs
            for dx, dy in ((0, -r * 0.95), (-r * 1.0, r * 0.45), (r * 1.0, r * 0.45)):
                pygame.draw.circle(surface, color, (x + dx, y + dy), r * 0.9)
        pygame.draw.polygon(
            surface, color, [(x, y + r * 0.2), (x - r * 0.7, y + size / 2), (x + r * 0.7, y + size / 2)]
        )


def _card_face(canvas: Canvas, rect: Any, face: str, suit: str) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    pygame.draw.rect(surface, (250, 248, 240), rect, border_radius=9)
    pygame.draw.rect(surface, INK, rect, 2, border_radius=9)
    color = CARD_RED if suit in ("H", "D") else INK
    _text(canvas, face, 26, color, (rect.left + 15, rect.top + 17), bold=True)
    _suit(canvas, suit, (rect.left + 15, rect.top + 36), 13)
    _text(canvas, face, 26, color, (rect.right - 15, rect.bottom - 37), bold=True)
    _suit(canvas, suit, (rect.right - 15, rect.bottom - 17), 13)
    _suit(canvas, suit, rect.center, 44)


def _card_back(canvas: Canvas, rect: Any) -> None:
    pygame, surface = canvas.pygame, canvas.surface
    pygame.draw.rect(surface, WHITE, rect, border_radius=9)
    inner = rect.inflate(-10, -10)
    pygame.draw.rect(surface, CARD_BACK, inner, border_radius=6)
    clip = surface.get_clip()
    surface.set_clip(inner)
    for k in range(-inner.height, inner.width, 10):  # a diagonal lattice
        pygame.draw.line(
            surface,
            (90, 110, 200),
            (inner.left + k, inner.top),
            (inner.left + k + inner.height, inner.bottom),
            1,
        )
        pygame.draw.line(
            surface,
            (90, 110, 200),
            (inner.left + k, inner.bottom),
            (inner.left + k + inner.height, inner.top),
            1,
        )
    surface.set_clip(clip)
    pygame.draw.circle(surface, GOLD, inner.center, 10, 2)
    pygame.draw.rect(surface, INK, rect, 2, border_radius=9)


def draw_blackjack(canvas: Canvas, player_sum: int, showing: int, usable: int, face: str, suit: str) -> None:
    """The table: the dealer's face-up and face-down cards, the player's sum on a chip."""
    pygame, surface = canvas.pygame, canvas.surface
    width, height = surface.get_size()
    surface.fill(FELT_DARK)
    pygame.draw.ellipse(surface, FELT, (-width * 0.25, -height * 0.45, width * 1.5, height * 1.3))
    pygame.draw.ellipse(surface, GOLD, (-width * 0.25, -height * 0.45, width * 1.5, height * 1.3), 2)
    _text(canvas, "DEALER", 26, GOLD, (width / 2, 26), bold=True)
    _card_face(canvas, pygame.Rect(width / 2 - 96, 46, 84, 120), face, suit)
    _card_back(canvas, pygame.Rect(width / 2 + 12, 46, 84, 120))
    _text(canvas, "PLAYER", 26, GOLD, (width / 2, 206), bold=True)
    chip = (width / 2, 286)
    pygame.draw.circle(surface, (235, 235, 235), chip, 58)
    for k in range(12):  # the chip's edge stripes
        angle = k * math.pi / 6
        start = (chip[0] + 50 * math.cos(angle), chip[1] + 50 * math.sin(angle))
        end = (chip[0] + 58 * math.cos(angle), chip[1] + 58 * math.sin(angle))
        pygame.draw.line(surface, CARD_RED, start, end, 7)
    pygame.draw.circle(surface, CARD_RED, chip, 46, 3)
    pygame.draw.circle(surface, INK, chip, 58, 2)
    _text(canvas, str(player_sum), 64, INK, chip, bold=True)
    if usable:
        badge = pygame.Rect(0, 0, 110, 26)
        badge.midtop = (width / 2, 350)
        pygame.draw.rect(surface, GOLD, badge, border_radius=13)
        _text(canvas, "usable ace", 22, INK, badge.center, bold=True)
