"""Blackjack: beat the dealer by drawing cards closer to 21 without going over."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.plugin import invalid_action
from palaestra.utils.canvas import CanvasRendering
from palaestra_toy_text._drawing import INSTALL_HINT, draw_blackjack

__all__ = ["BlackjackEnv", "is_natural", "score", "sum_hand", "usable_ace"]

# An infinite deck: face cards count 10, aces 1 (or 11 when that does not bust).
DECK = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
SUITS = ["C", "D", "H", "S"]
FACES = ["J", "Q", "K"]


def usable_ace(hand: list[int]) -> int:
    """1 if the hand holds an ace that can count 11 without busting."""
    return int(1 in hand and sum(hand) + 10 <= 21)


def sum_hand(hand: list[int]) -> int:
    """The hand's value, counting a usable ace as 11."""
    total = sum(hand)
    return total + 10 if usable_ace(hand) else total


def score(hand: list[int]) -> int:
    """The hand's value, or 0 when bust."""
    value = sum_hand(hand)
    return 0 if value > 21 else value


def is_natural(hand: list[int]) -> bool:
    """Whether the hand is an ace and a ten-card (a blackjack)."""
    return sorted(hand) == [1, 10]


class BlackjackEnv(CanvasRendering, Env[tuple[int, int, int], Any]):
    """Blackjack against a dealer who draws until 17, as in Sutton & Barto (example 5.1).

    Observation: ``(player sum, dealer's showing card, usable ace)``. Actions: 0 stick,
    1 hit. Reward +1 win, -1 loss, 0 draw; with ``natural`` a winning natural pays 1.5;
    with ``sab`` (Sutton & Barto's rules, registered for ``Blackjack-v1``) a natural beats
    any non-natural dealer hand.

    Args:
        render_mode: ``"human"``, ``"rgb_array"`` or ``None``.
        natural: Pay 1.5 for a winning natural (ignored when ``sab``).
        sab: Follow Sutton & Barto's rules exactly.
    """

    # The dealer card's face and suit are drawn at reset for renders.
    snapshot_fields = ("player", "dealer", "dealer_top_card_suit", "dealer_top_card_value_str")

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 4}
    canvas_size = (384, 376)
    render_install_hint = INSTALL_HINT

    def __init__(self, render_mode: str | None = None, natural: bool = False, sab: bool = False) -> None:
        self.action_space = spaces.Discrete(2)
        self.observation_space = spaces.Tuple((spaces.Discrete(32), spaces.Discrete(11), spaces.Discrete(2)))
        self.natural = natural
        self.sab = sab
        self.render_mode = render_mode
        self.player: list[int] = []
        self.dealer: list[int] = []
        self.dealer_top_card_suit = ""  # drawn at reset
        self.dealer_top_card_value_str = ""

    def _draw(self) -> int:
        # The same draw as ``np_random.choice(DECK)``, without converting the list each time.
        return DECK[self.np_random.integers(13)]

    def step(self, action: int) -> tuple[tuple[int, int, int], float, bool, bool, dict[str, Any]]:
        """Hit (draw a card) or stick (the dealer plays out and the hand is scored)."""
        if not (action.__class__ in (int, np.int64) and 0 <= action <= 1) and not self.action_space.contains(
            action
        ):
            raise invalid_action(self, action, self.action_space)  # 0 = stick, 1 = hit
        if not self.player:
            raise RuntimeError("BlackjackEnv.step called before reset; call env.reset() first.")
        if action:
            self.player.append(self._draw())
            terminated = sum_hand(self.player) > 21
            reward = -1.0 if terminated else 0.0
        else:
            terminated = True
            while sum_hand(self.dealer) < 17:
                self.dealer.append(self._draw())
            mine, theirs = score(self.player), score(self.dealer)
            reward = float(mine > theirs) - float(mine < theirs)
            if self.sab and is_natural(self.player) and not is_natural(self.dealer):
                reward = 1.0
            elif not self.sab and self.natural and is_natural(self.player) and reward == 1.0:
                reward = 1.5
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, terminated, False, {}

    def _get_obs(self) -> tuple[int, int, int]:
        total = sum(self.player)
        if 1 in self.player and total + 10 <= 21:
            return total + 10, self.dealer[0], 1
        return total, self.dealer[0], 0

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[tuple[int, int, int], dict[str, Any]]:
        """Deal two cards each; also pick the face and suit shown for the dealer's card."""
        super().reset(seed=seed)
        self.dealer = [self._draw(), self._draw()]
        self.player = [self._draw(), self._draw()]
        showing = self.dealer[0]
        # Drawn even when not rendering, so seeded streams match Gymnasium 1.4.0.
        self.dealer_top_card_suit = SUITS[self.np_random.integers(4)]
        if showing == 1:
            self.dealer_top_card_value_str = "A"
        elif showing == 10:
            self.dealer_top_card_value_str = FACES[self.np_random.integers(3)]
        else:
            self.dealer_top_card_value_str = str(showing)
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), {}

    def draw(self, canvas: Any) -> bool:
        """The table: the dealer's card, the player's sum and usable ace."""
        player_sum, showing, ace = self._get_obs()
        draw_blackjack(
            canvas, player_sum, showing, ace, self.dealer_top_card_value_str, self.dealer_top_card_suit
        )
        return True
