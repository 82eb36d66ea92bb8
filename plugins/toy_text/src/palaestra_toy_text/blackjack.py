"""Blackjack: beat the dealer by drawing cards closer to 21 without going over."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.plugin import CanvasRendering, invalid_action
from palaestra_toy_text._drawing import INSTALL_HINT
from palaestra_toy_text._drawing_cards import draw_blackjack

__all__ = [
    "DECK",
    "BlackjackEnv",
    "deal",
    "is_natural",
    "observe",
    "play",
    "score",
    "shown_card",
    "sum_hand",
    "usable_ace",
]

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


def deal(draw: Any) -> tuple[list[int], list[int], tuple[str, str]]:
    """A new round: the dealer's two cards, the player's two, and the face shown for the dealer's card.

    Args:
        draw: ``draw(n)`` gives a uniform integer below ``n`` (``Generator.integers``).

    Returns:
        ``(dealer, player, (face, suit))``. The face and suit are drawn even when nothing is
        rendered, so seeded streams match Gymnasium 1.4.0.
    """
    dealer = [DECK[draw(13)], DECK[draw(13)]]
    player = [DECK[draw(13)], DECK[draw(13)]]
    suit = draw(4)
    return dealer, player, shown_card(dealer[0], suit, draw(3) if dealer[0] == 10 else None)


def shown_card(showing: int, suit: int, face: int | None) -> tuple[str, str]:
    """The face and suit drawn for the dealer's showing card.

    Args:
        showing: The card's value.
        suit: The drawn suit (below 4).
        face: The drawn face (below 3) of a ten-card; ``None`` for other cards, which
            draw none.
    """
    name = "A" if showing == 1 else FACES[face] if face is not None and showing == 10 else str(showing)
    return name, SUITS[suit]


def play(
    player: list[int], dealer: list[int], hit: int, draw: Any, natural: bool, sab: bool
) -> tuple[float, bool]:
    """One move: hit (draw a card) or stick (the dealer draws to 17 and the hands are scored).

    Args:
        player: The player's hand (a hit appends to it).
        dealer: The dealer's hand (a stick appends the dealer's draws).
        hit: 1 to hit, 0 to stick.
        draw: ``draw(n)`` gives a uniform integer below ``n``.
        natural: Pay 1.5 for a winning natural (ignored when ``sab``).
        sab: Sutton & Barto's rules: a natural beats any non-natural dealer hand.

    Returns:
        The reward and whether the round is over.
    """
    if hit:
        player.append(DECK[draw(13)])
        bust = sum_hand(player) > 21
        return (-1.0 if bust else 0.0), bust
    while sum_hand(dealer) < 17:
        dealer.append(DECK[draw(13)])
    mine, theirs = score(player), score(dealer)
    reward = float(mine > theirs) - float(mine < theirs)
    if sab and is_natural(player) and not is_natural(dealer):
        reward = 1.0
    elif not sab and natural and is_natural(player) and reward == 1.0:
        reward = 1.5
    return reward, True


def observe(player: list[int], dealer: list[int]) -> tuple[int, int, int]:
    """``(player's sum, dealer's showing card, usable ace)``."""
    total = sum(player)
    if 1 in player and total + 10 <= 21:  # usable_ace and sum_hand, summed once
        return total + 10, dealer[0], 1
    return total, dealer[0], 0


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
    #: What each part of the observation and each action mean (``palaestra info`` and the docs show them).
    dimension_meanings = (
        [
            "the player's current sum",
            "the dealer's showing card (1 is an ace)",
            "whether the player holds a usable ace",
        ],
        ["stick (stop drawing)", "hit (draw a card)"],
    )
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

    def step(self, action: int) -> tuple[tuple[int, int, int], float, bool, bool, dict[str, Any]]:
        """Hit (draw a card) or stick (the dealer plays out and the hand is scored)."""
        if not (action.__class__ in (int, np.int64) and 0 <= action <= 1) and not self.action_space.contains(
            action
        ):
            raise invalid_action(self, action, self.action_space)  # 0 = stick, 1 = hit
        if not self.player:
            raise RuntimeError("BlackjackEnv.step called before reset; call env.reset() first.")
        reward, terminated = play(
            self.player, self.dealer, action, self.np_random.integers, self.natural, self.sab
        )
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, terminated, False, {}

    def _get_obs(self) -> tuple[int, int, int]:
        return observe(self.player, self.dealer)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[tuple[int, int, int], dict[str, Any]]:
        """Deal two cards each; also pick the face and suit shown for the dealer's card."""
        super().reset(seed=seed)
        self.dealer, self.player, face = deal(self.np_random.integers)
        self.dealer_top_card_value_str, self.dealer_top_card_suit = face
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
