"""Taxi: pick up a passenger and drop them at their destination on a 5x5 grid."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_toy_text._drawing import draw_taxi
from palaestra_toy_text._tabular import TabularEnv, colorize

__all__ = ["MAP", "TaxiEnv"]

# The 5x5 grid: ":" is open, "|" a wall between two cells; R, G, Y and B are the four
# pick-up/drop-off locations.
MAP = """\
+---------+
|R: | : :G|
| : | : : |
| : : : : |
| | : | : |
|Y| : |B: |
+---------+""".splitlines()
WINDOW_SIZE = (536, 456)
# Where the 5x5 grid starts on the frame, and one cell's size in pixels (Gymnasium's layout).
GRID_ORIGIN = (48, 128)
CELL_SIZE = (88, 56)
_LATERAL = {
    0: ((1, 0), (0, 1), (0, -1)),
    1: ((-1, 0), (0, -1), (0, 1)),
    2: ((0, 1), (-1, 0), (1, 0)),
    3: ((0, -1), (1, 0), (-1, 0)),
}


class TaxiEnv(TabularEnv):
    """The taxi problem of Dietterich (2000).

    500 states encode taxi row and column, passenger location (R, G, Y, B or in the taxi)
    and destination. Actions: south, north, east, west, pickup, dropoff. Reward -1 per step,
    +20 for a correct dropoff (which terminates), -10 for illegal pickups and dropoffs.
    With ``is_rainy`` moves slip sideways with probability ``(1 - rainy_probability) / 2``
    each; with ``fickle_passenger`` the passenger may change destination once, after the
    first move with them aboard. Every info carries ``prob`` and an int8 ``action_mask``.

    Args:
        render_mode: ``"human"``, ``"ansi"``, ``"rgb_array"`` or ``None``.
        is_rainy: Whether moves can slip.
        fickle_passenger: Whether the passenger may change destination.
        rainy_probability: Probability of moving as intended when rainy.
        fickle_probability: Probability that an episode has a fickle passenger.
    """

    snapshot_fields = (*TabularEnv.snapshot_fields, "fickle_step", "taxi_orientation")

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}
    #: What the observation and each action mean (``palaestra info`` and the docs show them).
    dimension_meanings = (
        ["((taxi row * 5 + taxi column) * 5 + passenger location) * 4 + destination; the passenger's "
         "location is 0-3 (R, G, Y, B) or 4 (in the taxi), the destination 0-3"],
        ["move south", "move north", "move east", "move west", "pick the passenger up", "drop the passenger off"],
    )  # fmt: skip

    def __init__(
        self,
        render_mode: str | None = None,
        is_rainy: bool = False,
        fickle_passenger: bool = False,
        rainy_probability: float = 0.8,
        fickle_probability: float = 0.3,
    ) -> None:
        for name, value in (
            ("rainy_probability", rainy_probability),
            ("fickle_probability", fickle_probability),
        ):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"Taxi {name} must be within [0, 1], got {value}")
        self.desc = np.asarray(MAP, dtype="c")
        self.locs = [(0, 0), (0, 4), (4, 0), (4, 3)]
        self.locs_colors = [(255, 0, 0), (0, 255, 0), (255, 255, 0), (0, 0, 255)]
        self.rainy_probability = rainy_probability
        self._rainy_lateral_probability = (1.0 - rainy_probability) / 2.0
        self.fickle_probability = fickle_probability
        self.max_row = self.max_col = 4
        self.initial_state_distrib = np.zeros(500)
        self.P: dict[int, dict[int, list[Any]]] = {
            state: {action: [] for action in range(6)} for state in range(500)
        }
        self._build(is_rainy)
        self.initial_state_distrib /= self.initial_state_distrib.sum()
        self._finalize_tables(500, 6)
        self._masks = [self.action_mask(s) for s in range(500)]
        self.render_mode = render_mode
        self.fickle_passenger = fickle_passenger
        self.fickle_step = False
        self.taxi_orientation = 0
        self.window_size = WINDOW_SIZE
        self.cell_size = CELL_SIZE
        self.grid_origin = GRID_ORIGIN

    def _build(self, rainy: bool) -> None:
        for row in range(5):
            for col in range(5):
                for pass_idx in range(5):
                    for dest_idx in range(4):
                        state = self.encode(row, col, pass_idx, dest_idx)
                        if pass_idx < 4 and pass_idx != dest_idx:
                            self.initial_state_distrib[state] += 1
                        for action in range(6):
                            entries = (
                                self._rainy(row, col, pass_idx, dest_idx, action)
                                if rainy
                                else [self._dry(row, col, pass_idx, dest_idx, action)]
                            )
                            self.P[state][action].extend(entries)

    def _pickup(self, taxi_loc: tuple[int, int], pass_idx: int, reward: int) -> tuple[int, int]:
        if pass_idx < 4 and taxi_loc == self.locs[pass_idx]:
            return 4, reward
        return pass_idx, -10

    def _dropoff(
        self, taxi_loc: tuple[int, int], pass_idx: int, dest_idx: int, reward: int
    ) -> tuple[int, int, bool]:
        if taxi_loc == self.locs[dest_idx] and pass_idx == 4:
            return dest_idx, 20, True
        if taxi_loc in self.locs and pass_idx == 4:
            return self.locs.index(taxi_loc), reward, False
        return pass_idx, -10, False

    def _open(self, row: int, col: int, action: int) -> bool:
        """Whether a move east (2) or west (3) from ``(row, col)`` is not blocked by a wall."""
        return bool(self.desc[1 + row, 2 * col + (2 if action == 2 else 0)] == b":")

    def _dry(
        self, row: int, col: int, pass_idx: int, dest_idx: int, action: int
    ) -> tuple[float, int, int, bool]:
        new_row, new_col, new_pass, reward, terminated = row, col, pass_idx, -1, False
        if action == 0:
            new_row = min(row + 1, self.max_row)
        elif action == 1:
            new_row = max(row - 1, 0)
        if action == 2 and self._open(row, col, 2):
            new_col = min(col + 1, self.max_col)
        elif action == 3 and self._open(row, col, 3):
            new_col = max(col - 1, 0)
        elif action == 4:
            new_pass, reward = self._pickup((row, col), new_pass, reward)
        elif action == 5:
            new_pass, reward, terminated = self._dropoff((row, col), new_pass, dest_idx, reward)
        return 1.0, self.encode(new_row, new_col, new_pass, dest_idx), reward, terminated

    def _slide(self, row: int, col: int, movement: tuple[int, int]) -> tuple[int, int]:
        dr, dc = movement
        new_row = max(0, min(row + dr, self.max_row))
        new_col = max(0, min(col + dc, self.max_col))
        if dc == 1 and self.desc[1 + new_row, 2 * new_col] != b":":
            return row, col
        if dc == -1 and self.desc[1 + new_row, 2 * new_col + 2] != b":":
            return row, col
        return new_row, new_col

    def _rainy(
        self, row: int, col: int, pass_idx: int, dest_idx: int, action: int
    ) -> list[tuple[float, int, int, bool]]:
        new_row, new_col, new_pass, reward, terminated = row, col, pass_idx, -1, False
        left = right = (row, col)
        can_move = (
            (action == 0 and row < self.max_row)
            or (action == 1 and row > 0)
            or (action == 2 and self._open(row, col, 2))
            or (action == 3 and self._open(row, col, 3))
        )
        if can_move:
            dr, dc = _LATERAL[action][0]
            new_row = max(0, min(row + dr, self.max_row))
            new_col = max(0, min(col + dc, self.max_col))
            left = self._slide(row, col, _LATERAL[action][1])
            right = self._slide(row, col, _LATERAL[action][2])
        elif action == 4:
            new_pass, reward = self._pickup((row, col), new_pass, reward)
        elif action == 5:
            new_pass, reward, terminated = self._dropoff((row, col), new_pass, dest_idx, reward)
        intended = self.encode(new_row, new_col, new_pass, dest_idx)
        if action > 3:
            return [(1.0, intended, reward, terminated)]
        lateral = self._rainy_lateral_probability
        return [
            (self.rainy_probability, intended, -1, terminated),
            (lateral, self.encode(left[0], left[1], new_pass, dest_idx), -1, terminated),
            (lateral, self.encode(right[0], right[1], new_pass, dest_idx), -1, terminated),
        ]

    def encode(self, taxi_row: int, taxi_col: int, pass_loc: int, dest_idx: int) -> int:
        """State index of ``(taxi_row, taxi_col, passenger location, destination)``."""
        return ((taxi_row * 5 + taxi_col) * 5 + pass_loc) * 4 + dest_idx

    def decode(self, i: int) -> tuple[int, int, int, int]:
        """``(taxi_row, taxi_col, passenger location, destination)`` of state ``i``."""
        if not 0 <= i < 500:
            raise ValueError(f"Taxi state must be in [0, 500), got {i}")
        i, dest = divmod(int(i), 4)
        i, passenger = divmod(i, 5)
        row, col = divmod(i, 5)
        return row, col, passenger, dest

    def action_mask(self, state: int) -> np.ndarray:
        """int8 mask of the actions that change the state (1) or do not (0)."""
        mask = np.zeros(6, dtype=np.int8)
        row, col, passenger, dest = self.decode(state)
        mask[0] = row < 4
        mask[1] = row > 0
        mask[2] = col < 4 and self._open(row, col, 2)
        mask[3] = col > 0 and self._open(row, col, 3)
        mask[4] = passenger < 4 and (row, col) == self.locs[passenger]
        mask[5] = passenger == 4 and ((row, col) == self.locs[dest] or (row, col) in self.locs)
        return mask

    def _after_step(self, s: int) -> int:
        if self.fickle_passenger and self.fickle_step:
            return self._maybe_change_destination(s)
        return s

    def _step_info(self, p: float) -> dict[str, Any]:
        return {"prob": p, "action_mask": self._masks[self.s].copy()}

    def _after_reset(self) -> None:
        self.fickle_step = self.fickle_at_reset(self.np_random)
        self.taxi_orientation = 0

    def _reset_info(self) -> dict[str, Any]:
        return {"prob": 1.0, "action_mask": self._masks[self.s].copy()}

    def _maybe_change_destination(self, s: int) -> int:
        changed = self.changed_destination(self.s, s, self.np_random.integers)
        if changed is None:
            return s
        self.fickle_step = False
        return changed

    def fickle_at_reset(self, rng: np.random.Generator) -> bool:
        """Whether this episode's passenger is fickle (one draw, made at every reset)."""
        return self.fickle_passenger and rng.random() < self.fickle_probability

    def changed_destination(self, before: int, after: int, draw: Any) -> int | None:
        """A fickle passenger's new destination, on the taxi's first move with them aboard.

        Args:
            before: The state before the step.
            after: The state the step led to.
            draw: ``draw(n)`` gives a uniform integer below ``n`` (``Generator.integers``).

        Returns:
            ``after`` with a destination other than the old one, or None when the taxi did
            not move with the passenger aboard (then nothing is drawn).
        """
        old_row, old_col, old_pass, old_dest = self.decode(before)
        row, col, passenger, _ = self.decode(after)
        if old_pass == 4 and (row != old_row or col != old_col):
            choices = [i for i in range(4) if i != old_dest]
            return self.encode(row, col, passenger, choices[draw(3)])  # the draw of np_random.choice
        return None

    def draw(self, canvas: Any) -> bool:
        """The city, the taxi, the passenger and the destination."""
        draw_taxi(canvas, self, self.decode(self.s))
        return True

    def _render_text(self) -> str:
        out = [[c.decode("utf-8") for c in line] for line in self.desc.tolist()]
        row, col, passenger, dest = self.decode(self.s)
        taxi = out[1 + row][2 * col + 1]
        if passenger < 4:
            out[1 + row][2 * col + 1] = colorize(taxi, "yellow", highlight=True)
            pi, pj = self.locs[passenger]
            out[1 + pi][2 * pj + 1] = colorize(out[1 + pi][2 * pj + 1], "blue", bold=True)
        else:
            out[1 + row][2 * col + 1] = colorize("_" if taxi == " " else taxi, "green", highlight=True)
        di, dj = self.locs[dest]
        out[1 + di][2 * dj + 1] = colorize(out[1 + di][2 * dj + 1], "magenta")
        text = "\n".join("".join(line) for line in out) + "\n"
        names = ["South", "North", "East", "West", "Pickup", "Dropoff"]
        return text + (f"  ({names[self.lastaction]})\n" if self.lastaction is not None else "\n")
