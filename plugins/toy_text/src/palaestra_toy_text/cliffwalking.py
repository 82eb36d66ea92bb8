"""CliffWalking: walk along a cliff edge to the goal without falling off."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_toy_text._drawing import draw_cliff
from palaestra_toy_text._tabular import TabularEnv

__all__ = ["CliffWalkingEnv"]

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
_MOVES = {UP: (-1, 0), RIGHT: (0, 1), DOWN: (1, 0), LEFT: (0, -1)}


class CliffWalkingEnv(TabularEnv):
    """A 4x12 grid from Sutton & Barto: start bottom-left, goal bottom-right, cliff between.

    Each step costs -1; stepping into the cliff costs -100 and returns the agent to the
    start (the episode goes on). Reaching the goal terminates. With ``is_slippery`` the agent
    moves in the intended or either perpendicular direction with probability 1/3 each.

    Args:
        render_mode: ``"human"``, ``"rgb_array"``, ``"ansi"`` or ``None``.
        is_slippery: Whether moves can slip sideways.
    """

    metadata = {"render_modes": ["human", "rgb_array", "ansi"], "render_fps": 4}
    #: What the observation and each action mean (``palaestra info`` and the docs show them).
    dimension_meanings = (
        ["the agent's cell, row * 12 + column"],
        ["move up", "move right", "move down", "move left"],
    )

    def __init__(self, render_mode: str | None = None, is_slippery: bool = False) -> None:
        self.shape = (4, 12)
        self.start_state_index = np.ravel_multi_index((3, 0), self.shape)
        self.is_slippery = is_slippery
        self._cliff = np.zeros(self.shape, dtype=bool)
        self._cliff[3, 1:-1] = True
        n_states = int(np.prod(self.shape))
        self.P = {s: self._state_transitions(s) for s in range(n_states)}
        self.initial_state_distrib = np.zeros(n_states)
        self.initial_state_distrib[self.start_state_index] = 1.0
        self._finalize_tables(n_states, 4)
        self.nS = int(np.prod(self.shape))
        self.render_mode = render_mode
        self.cell_size = (64, 64)
        self.window_size = (self.shape[1] * self.cell_size[1], self.shape[0] * self.cell_size[0])

    def _state_transitions(self, s: int) -> dict[int, list[Any]]:
        position = np.unravel_index(s, self.shape)
        return {move: self._outcomes(position, move) for move in (UP, RIGHT, DOWN, LEFT)}

    def _outcomes(self, position: Any, move: int) -> list[Any]:
        moves = [(move - 1) % 4, move, (move + 1) % 4] if self.is_slippery else [move]
        outcomes = []
        for m in moves:
            row = min(max(int(position[0]) + _MOVES[m][0], 0), self.shape[0] - 1)
            col = min(max(int(position[1]) + _MOVES[m][1], 0), self.shape[1] - 1)
            if self._cliff[row, col]:
                outcomes.append((1 / len(moves), self.start_state_index, -100, False))
            else:
                new_state = np.ravel_multi_index((row, col), self.shape)
                outcomes.append((1 / len(moves), new_state, -1, (row, col) == (3, 11)))
        return outcomes

    def draw(self, canvas: Any) -> bool:
        """The grid, the cliff and the walker."""
        draw_cliff(canvas, self.shape, self._cliff, self.s, self.cell_size, self.lastaction)
        return True

    def _render_text(self) -> str:
        lines = []
        for row in range(self.shape[0]):
            cells = []
            for col in range(self.shape[1]):
                s = row * self.shape[1] + col
                if s == self.s:
                    cells.append(" x ")
                elif (row, col) == (3, 11):
                    cells.append(" T ")
                elif self._cliff[row, col]:
                    cells.append(" C ")
                else:
                    cells.append(" o ")
            cells[0] = cells[0].lstrip()
            cells[-1] = cells[-1].rstrip()
            lines.append("".join(cells) + "\n")
        return "".join(lines) + "\n"
