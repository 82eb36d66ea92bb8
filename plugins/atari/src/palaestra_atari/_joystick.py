"""The Atari joystick: action names, keyboard keys, and continuous actions as joystick positions.

The 18 actions are the joystick's nine positions (centre, four directions, four diagonals),
each with the button up or pressed, numbered as ALE numbers them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra import spaces

__all__ = ["ACTION_NAMES", "KEYS", "joystick_action", "joystick_space"]

#: ALE's action ids, in order: the name of each.
ACTION_NAMES = (
    "NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT",
    "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE",
    "DOWNLEFTFIRE",
)  # fmt: skip
_ID = {name: i for i, name in enumerate(ACTION_NAMES)}
_KEY_OF = {"UP": "w", "DOWN": "s", "LEFT": "a", "RIGHT": "d", "FIRE": " "}


def _parts(name: str) -> tuple[str, ...]:
    """``"UPLEFTFIRE"`` -> ``("UP", "LEFT", "FIRE")``: vertical, horizontal, button."""
    parts, rest = [], name
    for part in ("UP", "DOWN", "RIGHT", "LEFT", "FIRE"):
        if rest.startswith(part):
            parts.append(part)
            rest = rest[len(part) :]
    return tuple(parts)


#: ALE's action id -> the keys that play it (``e`` is the no-op key), for ``play``.
KEYS = tuple(("e",) if name == "NOOP" else tuple(_KEY_OF[p] for p in _parts(name)) for name in ACTION_NAMES)


def joystick_action(action: Any, threshold: float) -> int:
    """The action id of a continuous action ``(radius, angle, fire)`` (a float32 array).

    The joystick points at ``radius * (cos angle, sin angle)``, computed in float32 as ale-py
    computes it; a component beyond ``threshold`` either way presses that direction, and
    ``fire`` beyond it the button.
    """
    x, y = action[0] * np.cos(action[1]), action[0] * np.sin(action[1])
    vertical = "UP" if y > threshold else "DOWN" if y < -threshold else ""
    horizontal = "RIGHT" if x > threshold else "LEFT" if x < -threshold else ""
    button = "FIRE" if action[-1] > threshold else ""
    return _ID[vertical + horizontal + button] if (vertical or horizontal or button) else 0


def joystick_space() -> spaces.Box:
    """The space of continuous actions: ``(radius in [0, 1], angle in [-pi, pi], fire in [0, 1])``."""
    return spaces.Box(
        np.array([0.0, -np.pi, 0.0], np.float32), np.array([1.0, np.pi, 1.0], np.float32), (3,), np.float32
    )
