"""Shared machinery of the tabular toy-text envs: transition tables and sampling."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from palaestra import Env, spaces
from palaestra.plugin import CanvasRendering, invalid_action
from palaestra_toy_text._drawing import INSTALL_HINT

__all__ = ["TabularEnv", "categorical_sample", "colorize"]

Transition = tuple[float, int, Any, bool]

_ANSI = {"red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36, "gray": 30}


def colorize(text: str, color: str, bold: bool = False, highlight: bool = False) -> str:
    """Wrap ``text`` in ANSI escape codes (``highlight`` colours the background)."""
    code = _ANSI[color] + (10 if highlight else 0)
    attrs = f"{code};1" if bold else str(code)
    return f"\x1b[{attrs}m{text}\x1b[0m"


def categorical_sample(probabilities: Any, np_random: np.random.Generator) -> int:
    """Index of the first cumulative probability above one uniform draw (0 if none is)."""
    cumulative = np.cumsum(np.asarray(probabilities))
    return int(np.argmax(cumulative > np_random.random()))


class TabularEnv(CanvasRendering, Env[Any, Any]):
    """A finite MDP given by ``P[s][a] = [(probability, next_state, reward, terminated), ...]``.

    Every step draws exactly one uniform number (even for deterministic transitions) and
    every reset draws one for the initial state, as Gymnasium 1.4.0 does, so seeded runs give
    the same numbers. Cumulative probabilities are computed once, at construction.
    """

    snapshot_fields: ClassVar[tuple[str, ...]] = ("s", "lastaction")
    # Filled by each env before _finalize_tables: the transitions and the start distribution.
    P: dict[int, dict[int, list[Any]]]
    initial_state_distrib: np.ndarray
    render_install_hint = INSTALL_HINT

    def _finalize_tables(self, num_states: int, num_actions: int) -> None:
        """Precompute what :meth:`step` needs; call after filling ``self.P``."""
        self.nS, self.nA = num_states, num_actions
        self.observation_space = spaces.Discrete(num_states)
        self.action_space = spaces.Discrete(num_actions)
        self._table: list[list[tuple[list[float], list[Transition]]]] = []
        for s in range(num_states):
            row = []
            for a in range(num_actions):
                transitions = [(p, int(ns), r, t) for p, ns, r, t in self.P[s][a]]
                cumulative = np.cumsum([p for p, *_ in self.P[s][a]]).tolist()
                row.append((cumulative, transitions))
            self._table.append(row)
        self._initial_cumulative = np.cumsum(self.initial_state_distrib).tolist()
        self.s = 0
        self.lastaction: int | None = None

    def _sample_index(self, cumulative: list[float]) -> int:
        u = self.np_random.random()
        for i, c in enumerate(cumulative):
            if c > u:
                return i
        return 0  # argmax of an all-False comparison

    def _transition(self, a: Any) -> Transition:
        if a.__class__ not in (int, np.int64) or not 0 <= a < self.nA:
            a = self._action(a)
        cumulative, transitions = self._table[self.s][int(a)]
        return transitions[self._sample_index(cumulative)]

    def _action(self, a: Any) -> Any:
        """An action off the fast path: in the space, or an exactly integral float.

        Gymnasium looks the action up in a dict, where ``1.0`` finds ``1``; Tianshou's random
        policy sends such floats.
        """
        if self.action_space.contains(a):
            return a
        if isinstance(a, (float, np.floating)) and float(a).is_integer() and 0 <= a < self.nA:
            return int(a)
        raise invalid_action(self, a, self.action_space)

    def _reset_state(self) -> int:
        return self._sample_index(self._initial_cumulative)

    def step(self, a: int) -> tuple[int, Any, bool, bool, dict[str, Any]]:
        """Take action ``a``; the info holds the sampled transition's probability."""
        p, s, r, t = self._transition(a)
        self.lastaction = int(a)
        self.s = self._after_step(s)
        if self.render_mode == "human":
            self.render()
        return self.s, r, t, False, self._step_info(p)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Draw the initial state from the initial-state distribution."""
        super().reset(seed=seed)
        self.s = self._reset_state()
        self.lastaction = None
        self._after_reset()
        if self.render_mode == "human":
            self.render()
        return self.s, self._reset_info()

    def _after_step(self, s: int) -> int:
        """The state after the transition to ``s`` (a hook; draws nothing by default)."""
        return s

    def _after_reset(self) -> None:
        """Hook for draws made after the initial state."""

    def _step_info(self, p: float) -> dict[str, Any]:
        return {"prob": p}

    def _reset_info(self) -> dict[str, Any]:
        return {"prob": 1}

    @property
    def canvas_size(self) -> tuple[int, int]:  # type: ignore[override]
        """The frame's size (``window_size``)."""
        return self.window_size  # type: ignore[attr-defined,no-any-return]

    def render(self) -> Any:
        """Text for ``ansi``, else a frame drawn by :meth:`draw` (shown for ``human``)."""
        if self.render_mode == "ansi":
            return self._render_text()
        return super().render()

    def _render_text(self) -> str:
        raise NotImplementedError
