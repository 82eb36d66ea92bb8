"""FrozenLake: cross a frozen lake from start to goal without falling into a hole."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from palaestra.plugin import np_random
from palaestra_toy_text._drawing import draw_frozen_lake
from palaestra_toy_text._tabular import TabularEnv, colorize

__all__ = ["MAPS", "FrozenLakeEnv", "generate_random_map", "is_valid"]

LEFT, DOWN, RIGHT, UP = 0, 1, 2, 3

MAPS = {
    "4x4": ["SFFF", "FHFH", "FFFH", "HFFG"],
    "8x8": ["SFFFFFFF", "FFFFFFFF", "FFFHFFFF", "FFFFFHFF", "FFFHFFFF", "FHHFFFHF", "FHFFHFHF", "FFFHFFFG"],
}


def is_valid(board: Sequence[Sequence[str]] | np.ndarray, max_size: int) -> bool:
    """Whether the goal ``G`` can be reached from the top-left cell without crossing a hole."""
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        r, c = stack.pop()
        for dr, dc in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            nr, nc = r + dr, c + dc
            if not (0 <= nr < max_size and 0 <= nc < max_size) or (nr, nc) in seen:
                continue
            if board[nr][nc] == "G":
                return True
            if board[nr][nc] != "H":
                seen.add((nr, nc))
                stack.append((nr, nc))
    return False


def generate_random_map(size: int = 8, p: float = 0.8, seed: int | None = None) -> list[str]:
    """A random ``size`` x ``size`` lake with a path from start to goal.

    Each cell is frozen with probability ``p`` (else a hole); maps are drawn until one is
    solvable. The same seed gives Gymnasium's map.

    Args:
        size: Side length.
        p: Probability that a cell is frozen.
        seed: Seed of the generator drawing the maps.
    """
    if size < 2:
        raise ValueError(f"generate_random_map needs size >= 2, got {size}")
    if p <= 0:
        raise ValueError(f"generate_random_map needs p > 0 (the probability of a frozen cell), got {p}")
    rng, _ = np_random(seed)
    while True:
        p = min(1, p)
        board = rng.choice(["F", "H"], (size, size), p=[p, 1 - p])
        board[0][0] = "S"
        board[-1][-1] = "G"
        if is_valid(board, size):
            return ["".join(row) for row in board]


def _check_desc(desc: Any) -> np.ndarray:
    rows = [row if isinstance(row, str) else "".join(row) for row in desc]
    if not rows or any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
        raise ValueError(f"FrozenLake desc must be a non-empty list of equally long rows, got {desc!r}")
    bad = sorted({ch for row in rows for ch in row} - set("SFHG"))
    if bad:
        raise ValueError(f"FrozenLake desc may only contain 'S', 'F', 'H' and 'G', found {bad} in {desc!r}")
    if not any("S" in row for row in rows):
        raise ValueError(f"FrozenLake desc needs a start cell 'S', got {desc!r}")
    return np.asarray(rows, dtype="c")


class FrozenLakeEnv(TabularEnv):
    """Walk on a grid of frozen (F) cells from S to G, avoiding holes (H).

    On slippery ice the agent moves in the intended direction with probability
    ``success_rate`` and to either perpendicular direction with the rest, split evenly.
    Reward ``reward_schedule = (goal, hole, frozen)``; the episode ends in a hole or at the
    goal. Observations are cell indices ``row * ncol + col``.

    Args:
        render_mode: ``"human"``, ``"ansi"``, ``"rgb_array"`` or ``None``.
        desc: The map as rows of characters; overrides ``map_name``.
        map_name: ``"4x4"`` or ``"8x8"``; ``None`` with no ``desc`` draws a random 8x8 map.
        is_slippery: Whether moves can slip sideways.
        success_rate: Probability of moving as intended on slippery ice.
        reward_schedule: Rewards for reaching the goal, a hole, and a frozen cell.
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}

    @property
    def dimension_meanings(self) -> tuple[list[Any], list[Any]]:
        """What the observation and each action mean (``palaestra info`` and the docs show them)."""
        return [f"the agent's cell, row * {self.ncol} + column"], [
            "move left",
            "move down",
            "move right",
            "move up",
        ]

    def __init__(
        self,
        render_mode: str | None = None,
        desc: list[str] | None = None,
        map_name: str | None = "4x4",
        is_slippery: bool = True,
        success_rate: float = 1.0 / 3.0,
        reward_schedule: tuple[int, int, int] = (1, 0, 0),
    ) -> None:
        if desc is None and map_name is None:
            desc = generate_random_map()
        elif desc is None:
            if map_name not in MAPS:
                raise ValueError(
                    f"Unknown FrozenLake map_name {map_name!r}; choose one of {sorted(MAPS)} or pass desc="
                )
            desc = MAPS[map_name]
        if not 0.0 <= success_rate <= 1.0:
            raise ValueError(f"FrozenLake success_rate must be within [0, 1], got {success_rate}")
        self.desc = _check_desc(desc)
        self.nrow, self.ncol = self.desc.shape
        self.reward_range = (min(reward_schedule), max(reward_schedule))
        self.initial_state_distrib = np.array(self.desc == b"S").astype("float64").ravel()
        self.initial_state_distrib /= self.initial_state_distrib.sum()
        self.P = self._transitions(is_slippery, success_rate, reward_schedule)
        self._finalize_tables(self.nrow * self.ncol, 4)
        self.render_mode = render_mode
        self.window_size = (min(64 * self.ncol, 512), min(64 * self.nrow, 512))
        self.cell_size = (self.window_size[0] // self.ncol, self.window_size[1] // self.nrow)

    def _move(self, row: int, col: int, a: int) -> tuple[int, int]:
        if a == LEFT:
            return row, max(col - 1, 0)
        if a == DOWN:
            return min(row + 1, self.nrow - 1), col
        if a == RIGHT:
            return row, min(col + 1, self.ncol - 1)
        return max(row - 1, 0), col

    def _outcome(self, row: int, col: int, a: int, rewards: tuple[int, int, int]) -> tuple[int, Any, bool]:
        new_row, new_col = self._move(row, col, a)
        letter = self.desc[new_row, new_col]
        reward = rewards[b"GHF".index(letter if letter in b"GHF" else b"F")]
        return new_row * self.ncol + new_col, reward, bytes(letter) in b"GH"

    def _transitions(
        self, slippery: bool, success: float, rewards: tuple[int, int, int]
    ) -> dict[int, dict[int, list[Any]]]:
        fail = (1.0 - success) / 2.0
        table: dict[int, dict[int, list[Any]]] = {}
        for row in range(self.nrow):
            for col in range(self.ncol):
                s = row * self.ncol + col
                table[s] = {}
                for a in range(4):
                    if self.desc[row, col] in b"GH":
                        table[s][a] = [(1.0, s, 0, True)]
                    elif slippery:
                        table[s][a] = [
                            (success if b == a else fail, *self._outcome(row, col, b, rewards))
                            for b in ((a - 1) % 4, a, (a + 1) % 4)
                        ]
                    else:
                        table[s][a] = [(1.0, *self._outcome(row, col, a, rewards))]
        return table

    def draw(self, canvas: Any) -> bool:
        """The lake, its holes and the goal, and the walker."""
        draw_frozen_lake(canvas, self.desc, self.s, self.lastaction, self.cell_size)
        return True

    def _render_text(self) -> str:
        rows = [[c.decode("utf-8") for c in line] for line in self.desc.tolist()]
        row, col = divmod(self.s, self.ncol)
        rows[row][col] = colorize(rows[row][col], "red", highlight=True)
        header = (
            f"  ({['Left', 'Down', 'Right', 'Up'][self.lastaction]})\n"
            if self.lastaction is not None
            else "\n"
        )
        return header + "\n".join("".join(line) for line in rows) + "\n"
